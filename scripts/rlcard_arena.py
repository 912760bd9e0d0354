"""Dou Dizhu arena on RLCard's own game engine: gamebot (over HTTP) against
RLCard's rule agent (DouDizhuRuleAgentV1), RLCard's engine as the referee.

Two modes:

* Fixed roles (the default), as DouZero and RLCard measure: every seeded deal
  is played twice, the bot as landlord against two rule agents, then the bot
  as both peasants against a rule-agent landlord. Points follow DouZero's ADP
  convention: the landlord wins or loses 2, each peasant 1, doubled for every
  bomb or rocket played.
* `--bidding`: the whole game. Every deal is played three times, the bot in
  each of the three bidding seats and the other two seats played by rule
  agents that bid (and, with `--doubling`, double) by a policy of their own
  (`--bidders rlcard` or `baseline`, described below). Bids go round once,
  starting with a seat that turns with the deal; a bid must be above the
  highest so far and 3 ends the bidding; when all three pass the deal is
  dealt again. Points follow the payout rules gamebot documents: the bid as
  base, x2 for every bomb and the rocket, x2 for a spring or an anti-spring,
  x2 for each double (the landlord's on both stakes, a peasant's on its own).

Opponent bidding policies (written here; RLCard itself has no bidding):
* `rlcard`: RLCard's own hand score (rlcard.games.doudizhu.utils.
  get_landlord_score: rocket 8, bomb 6, 2 = 2, B = 3, R = 4, A = 1), bidding
  1 from 6, 2 from 8, 3 from 10; doubling from 10.
* `baseline`: big cards (2s and jokers) counted, bidding 1 from 2, 2 from 3,
  3 from 4; doubling from 4.

RLCard's engine checks every play: the bot's play must be in the legal
actions RLCard lists, or the run stops. The report gives, for the bot's side,
the win rate (WP, Wilson 95% interval) and average points (ADP, normal 95%
interval) by role, with bidding the landlord's results by bid, and the bot's
decision times as the service reported them (elapsed_ms).

    bash scripts/rlcard_arena.sh --deals 200 --seed 1 --objective score
    bash scripts/rlcard_arena.sh --deals 200 --seed 1 --bidding --doubling
"""

import argparse
import json
import math
import random
import statistics
import sys
import urllib.request

import numpy as np
from rlcard.games.doudizhu.dealer import DoudizhuDealer
from rlcard.games.doudizhu.game import DoudizhuGame
from rlcard.games.doudizhu.utils import get_landlord_score
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

RANKS = "3456789TJQKA2BR"
SEATS = ["landlord", "landlord_down", "landlord_up"]

# The deck order RLCard's dealer takes for the next deal (None: its own shuffle).
PRESET_ORDER = None
_rlcard_shuffle = DoudizhuDealer.shuffle


def _preset_shuffle(self):
    """RLCard deals deck[0:17] to player 0 (the landlord, who also takes
    deck[51:54]), deck[17:34] to player 1 and deck[34:51] to player 2."""
    if PRESET_ORDER is None:
        _rlcard_shuffle(self)
        return
    where = {label: i for i, label in enumerate(PRESET_ORDER)}
    self.deck.sort(key=lambda card: where[card.suit + card.rank])


DoudizhuDealer.shuffle = _preset_shuffle


def sort_cards(cards):
    return "".join(sorted(cards, key=RANKS.index))


def card_rank(label):
    """'S3' -> '3', 'BJ' -> 'B', 'RJ' -> 'R' (RLCard's labels, suit first)."""
    return label[0] if label in ("BJ", "RJ") else label[1]


def new_deck(rng):
    labels = [s + r for s in "SHDC" for r in "A23456789TJQK"] + ["BJ", "RJ"]
    rng.shuffle(labels)
    return labels


def is_bomb(action):
    return action == "BR" or (len(action) == 4 and len(set(action)) == 1)


class Bot:
    def __init__(self, url, objective, budget_ms, payout):
        self.url = url.rstrip("/")
        self.objective = objective
        # The payout rules the arena scores by, so that `score` plays for them.
        self.payout = payout
        self.budget_ms = budget_ms
        self.times = []

    def post(self, route, body):
        req = urllib.request.Request(
            self.url + route,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            sys.exit(f"{route} answered {e.code}: {e.read().decode()}\nrequest: {body}")

    def play(self, state, bottom, seed):
        body = {
            "seat": SEATS[state["self"]],
            "hand": state["current_hand"],
            "history": ["" if a == "pass" else a for _, a in state["trace"]],
            # RLCard's seen_cards loses the bottom cards as the landlord plays them
            "landlord_cards": bottom,
            "seed": seed,
            "objective": self.objective,
            "payout": self.payout,
        }
        if self.budget_ms:
            body["budget_ms"] = self.budget_ms
        reply = self.post("/doudizhu/play", body)
        self.times.append(reply["elapsed_ms"])
        return reply["cards"] or "pass"

    def bid(self, hand, bids):
        return self.post("/doudizhu/bid", {"hand": hand, "bids": bids})["bid"]

    def double(self, seat, hand, bottom, bid, seed):
        body = {"seat": seat, "hand": hand, "landlord_cards": bottom, "bid": bid, "seed": seed}
        return self.post("/doudizhu/double", body)["double"]


def opponent_bid(policy, hand, highest):
    if policy == "rlcard":
        s = get_landlord_score(sort_cards(hand))
        wanted = 3 if s >= 10 else 2 if s >= 8 else 1 if s >= 6 else 0
    else:
        big = sum(hand.count(c) for c in "2BR")
        wanted = 3 if big >= 4 else 2 if big >= 3 else 1 if big >= 2 else 0
    return wanted if wanted > highest else 0


def opponent_doubles(policy, hand):
    if policy == "rlcard":
        return get_landlord_score(sort_cards(hand)) >= 10
    return sum(hand.count(c) for c in "2BR") >= 4


def play_game(order, bot_players, bot, rule, game_seed):
    """Plays one game on RLCard's engine with the deck `order` (RLCard labels,
    player 0 the landlord); `bot_players` are RLCard player ids the bot
    plays. Returns (landlord won, bombs, spring)."""
    global PRESET_ORDER
    PRESET_ORDER = order
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(game_seed % (2**32))
    # The rule agent breaks ties with numpy's global generator: seed it per
    # game so each game replays alone, whatever was played before it.
    np.random.seed((game_seed ^ 0x5EED) % (2**32))
    state, pid = game.init_game()
    PRESET_ORDER = None
    bottom = sort_cards(card_rank(c) for c in order[51:54])
    while not game.is_over():
        if pid in bot_players:
            seed = (game_seed * 1_000_003 + len(state["trace"])) % (2**63)
            action = bot.play(state, bottom, seed)
            legal = {sort_cards(a) if a != "pass" else a: a for a in state["actions"]}
            if action not in legal:
                sys.exit(f"RLCard rejects the bot's play {action!r}; legal: {state['actions']}")
            action = legal[action]
        else:
            action = rule.step({"raw_obs": state})
        state, pid = game.step(action)
    trace = game.round.trace
    bombs = sum(1 for _, a in trace if a != "pass" and is_bomb(a))
    landlord_won = game.winner_id == 0
    plays = [0, 0, 0]
    for p, a in trace:
        if a != "pass":
            plays[p] += 1
    spring = plays[1] + plays[2] == 0 if landlord_won else plays[0] == 1
    return landlord_won, bombs, spring


class Role:
    def __init__(self):
        self.wins = 0
        self.points = []

    def add(self, won, pts):
        self.wins += int(won)
        self.points.append(pts)

    def line(self, name):
        n = len(self.points)
        if n == 0:
            return f"{name:<22} | {0:>5} |"
        p, z = self.wins / n, 1.96
        den = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / den
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
        mean = statistics.fmean(self.points)
        sd = statistics.stdev(self.points) if n > 1 else 0.0
        h = 1.96 * sd / math.sqrt(n)
        return (f"{name:<22} | {n:>5} | {p:.3f} [{centre - half:.3f}, {centre + half:.3f}]"
                f" | {mean:+.3f} [{mean - h:+.3f}, {mean + h:+.3f}]")


def arrange(hands, bottom, landlord):
    """RLCard's deck order for bidding seats' `hands` with `landlord` as
    RLCard's player 0 (and the seats after it as players 1 and 2)."""
    seats = [(landlord + k) % 3 for k in range(3)]
    return hands[seats[0]] + hands[seats[1]] + hands[seats[2]] + bottom


def fixed_roles(args, bot, rule):
    rng = random.Random(args.seed)
    landlord, peasants = Role(), Role()
    for d in range(args.deals):
        order = new_deck(rng)
        game_seed = args.seed * 1_000_003 + d
        if args.roles != "peasants":
            won, bombs, _ = play_game(order, {0}, bot, rule, game_seed)
            landlord.add(won, (2 if won else -2) * 2**bombs)
        if args.roles != "landlord":
            won, bombs, _ = play_game(order, {1, 2}, bot, rule, game_seed ^ 0xABCD)
            peasants.add(not won, (-1 if won else 1) * 2**bombs)
        if args.verbose and (d + 1) % 50 == 0:
            print(f"{d + 1} deals: landlord WP {landlord.wins / max(1, len(landlord.points)):.3f}, "
                  f"peasants WP {peasants.wins / max(1, len(peasants.points)):.3f}", file=sys.stderr)
    rows = {"landlord": [("landlord", landlord)], "peasants": [("peasants (each)", peasants)]}
    return rows.get(args.roles, rows["landlord"] + rows["peasants"]), {}


def whole_games(args, bot, rule):
    rng = random.Random(args.seed)
    roles = {"landlord": Role(), "peasant": Role(), "all games": Role()}
    by_bid = {b: Role() for b in (1, 2, 3)}
    extra = {"redeals": 0, "seatings passed out": 0, "bot landlord": 0, "games": 0, "bot doubled": 0, "others doubled": 0}
    for d in range(args.deals):
        while True:
            order = new_deck(rng)
            hands = [order[0:17], order[17:34], order[34:51]]
            bottom = order[51:54]
            first = d % 3
            outcomes = []
            for bot_seat in range(3):
                bids, highest, landlord = [], 0, None
                for k in range(3):
                    s = (first + k) % 3
                    ranks = "".join(card_rank(c) for c in hands[s])
                    if s == bot_seat:
                        b = bot.bid(sort_cards(ranks), bids)
                    else:
                        b = opponent_bid(args.bidders, ranks, highest)
                    bids.append(b)
                    if b > highest:
                        highest, landlord = b, s
                    if b == 3:
                        break
                outcomes.append((landlord, highest))
            if all(l is None for l, _ in outcomes):
                extra["redeals"] += 1
                continue
            break
        for bot_seat, (landlord, bid) in enumerate(outcomes):
            if landlord is None:
                # All passed in this seating but not in another: no game here.
                extra["seatings passed out"] += 1
                continue
            order_rl = arrange(hands, bottom, landlord)
            bot_player = (bot_seat - landlord) % 3
            doubled = [False, False, False]
            if args.doubling:
                bottom_ranks = sort_cards("".join(card_rank(c) for c in bottom))
                for p in range(3):
                    cards = order_rl[17 * p:17 * p + 17] + (bottom if p == 0 else [])
                    ranks = sort_cards("".join(card_rank(c) for c in cards))
                    if p == bot_player:
                        doubled[p] = bot.double(SEATS[p], ranks, bottom_ranks, bid,
                                                args.seed * 7919 + d)
                        extra["bot doubled"] += int(doubled[p])
                    else:
                        doubled[p] = opponent_doubles(args.bidders, ranks)
                        extra["others doubled"] += int(doubled[p])
            game_seed = args.seed * 1_000_003 + d * 3 + bot_seat
            won, bombs, spring = play_game(order_rl, {bot_player}, bot, rule, game_seed)
            mult = 2 ** (bombs + int(spring)) * bid
            lf = 2 if doubled[0] else 1
            stakes = [mult * lf * (2 if doubled[p] else 1) for p in (1, 2)]
            if bot_player == 0:
                pts = sum(stakes) if won else -sum(stakes)
                roles["landlord"].add(won, pts)
                by_bid[bid].add(won, pts)
                extra["bot landlord"] += 1
            else:
                stake = stakes[bot_player - 1]
                pts = -stake if won else stake
                roles["peasant"].add(not won, pts)
            roles["all games"].add(pts > 0, pts)
            extra["games"] += 1
        if args.verbose and (d + 1) % 50 == 0:
            print(f"{d + 1} deals: average points {statistics.fmean(roles['all games'].points):+.3f}",
                  file=sys.stderr)
    rows = [(k, v) for k, v in roles.items()] + [(f"landlord at bid {b}", r) for b, r in by_bid.items()]
    return rows, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="gamebot's base URL")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--objective", choices=["win", "score"], default="win")
    ap.add_argument("--budget-ms", type=int, default=0, help="the bot's budget (default: the server's)")
    ap.add_argument("--bidding", action="store_true", help="bid for the landlord seat (the whole game)")
    ap.add_argument("--doubling", action="store_true", help="with --bidding: seats may double")
    ap.add_argument("--bidders", choices=["rlcard", "baseline"], default="rlcard",
                    help="the opponents' bidding and doubling policy")
    ap.add_argument("--roles", choices=["both", "landlord", "peasants"], default="both",
                    help="fixed roles: the bot's roles to play (the same deals either way)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if args.doubling and not args.bidding:
        ap.error("--doubling needs --bidding")
    if args.roles != "both" and args.bidding:
        ap.error("--roles is for fixed roles; with --bidding the bot plays every seat")
    # Fixed roles score as DouZero does (bombs only); the whole game by all the rules.
    payout = {"bombs_double": True, "spring_doubles": args.bidding, "doubling": args.doubling}
    bot = Bot(args.url, args.objective, args.budget_ms, payout)
    rule = DouDizhuRuleAgentV1()
    rows, extra = (whole_games if args.bidding else fixed_roles)(args, bot, rule)
    mode = "bidding" + (" and doubling" if args.doubling else "") if args.bidding else "fixed roles"
    print(f"rlcard arena: {args.deals} deals, seed {args.seed}, {mode}, objective {args.objective}"
          + (f", bidders {args.bidders}" if args.bidding else "") + ", opponent DouDizhuRuleAgentV1")
    print("bot as                 | games | WP [95% CI]           | ADP [95% CI]")
    for name, role in rows:
        print(role.line(name))
    if extra:
        print(" ".join(f"{k}={v}" for k, v in extra.items()))
    t = sorted(bot.times)
    if t:
        p99 = t[min(len(t) - 1, round(0.99 * (len(t) - 1)))]
        print(f"decisions={len(t)} median_ms={statistics.median(t):.2f} p99_ms={p99:.2f} max_ms={t[-1]:.2f}")


if __name__ == "__main__":
    main()
