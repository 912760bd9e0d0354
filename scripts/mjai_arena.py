"""A seeded 4-player Riichi arena refereed by Mortal's rules engine.

What it measures
    One "candidate" plays against three copies of a reference bot (the
    "opponents") for --games hanchan, on duplicate walls: every seed is played
    four times with the candidate moved through the four seats, so each seat's
    hands (the same wall for the same kyoku/honba) are played once by the
    candidate. Per side (candidate, opponents pooled) it reports average rank
    with a 95% confidence interval, the rank distribution, win / deal-in /
    riichi / call rates per hand, points per win and per deal-in, average final
    score, illegal actions, aborted games, and the candidate's decision time.

The referee
    The PyPI package mjai==0.2.1 ships Mortal's libriichi as mjai.mlibriichi;
    mjai.mlibriichi.arena.Match runs one hanchan in-process. The engines passed
    to py_match sit in seats 0..3 in that order (seat 0 is the first dealer),
    and the walls depend only on seed_start and (bakaze, kyoku, honba), not on
    who sits where: that is what makes the rotation a duplicate. Set i of
    --seed S uses seed_start=(i, S); the script checks, per set, that the four
    games dealt identical first-kyoku hands.

Candidates
    rulebase | riichibot   a reference bot from the mjai package (sanity checks)
    stdio:CMD              one long-lived process per game, e.g.
                           "stdio:target/release/gamebot mjai {seat}"; it reads
                           one JSON array of new events per line and answers one
                           JSON action per line (start_game, end_kyoku and
                           end_game arrays are sent too, their answers ignored)
    http:URL               POST URL {"player_id", "events" (the current kyoku
                           from start_kyoku, as that seat sees it), "strategy"}
                           and read the action from the body ("meta" stripped)

Illegal actions
    The referee ends a game at an action it rejects (a "ryukyoku" with reason
    "error", the offender fined). The script also rejects, before the referee
    sees it, an answer that is no JSON object or is "none" where a discard is
    required (the referee would otherwise let the seat draw twice). Aborted
    games are excluded from the rank/score statistics and counted apart; the
    context (events the seat saw, its answer, the referee's message) goes to
    OUT_DIR/illegal_actions.jsonl. Answers that carry an "error" field (a bot
    saying it could not use its input) are counted, the field stripped, and
    their context written to OUT_DIR/error_answers.jsonl.

Run
    scripts/mjai_arena.sh --candidate rulebase --opponents rulebase --games 8
    scripts/mjai_arena.sh --candidate "stdio:target/release/gamebot mjai {seat}" \
        --games 40 --jobs 2 --json target/mjai-arena/result.json
"""

import argparse
import contextlib
import gzip
import json
import math
import os
import queue
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

REFERENCE_BOTS = ("rulebase", "riichibot")
CALLS = ("chi", "pon", "daiminkan")


# --------------------------------------------------------------------------
# Players: what answers a seat's requests.


def make_reference_bot(kind, seat):
    from loguru import logger

    logger.remove()  # RulebaseBot logs every discard at INFO
    if kind == "rulebase":
        from mjai.bot.rulebase import RulebaseBot

        return RulebaseBot(seat)
    from mjai.bot.riichibot import RiichiBot

    return RiichiBot(seat)


class ReferencePlayer:
    """A bot of the mjai package, fed the new events like an mjai client."""

    def __init__(self, kind, seat):
        self.bot = make_reference_bot(kind, seat)

    def control(self, events):
        return self.bot.react(json.dumps(events))

    def react(self, new_events, kyoku_events):
        return self.bot.react(json.dumps(new_events))

    def close(self):
        pass


class StdioPlayer:
    """A long-lived process: one JSON array per line in, one action per line out."""

    def __init__(self, command, seat, strategy, timeout):
        argv = shlex.split(command.format(seat=seat))
        if strategy:
            argv += ["--strategy", strategy]
        self.timeout = timeout
        # stderr is inherited: the game's output capture collects it.
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()

    def _read_stdout(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _ask(self, events):
        self.proc.stdin.write(json.dumps(events, separators=(",", ":")) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise CandidateError(f"no answer within {self.timeout} s") from None
        if line is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=2)
            raise CandidateError(f"process closed its stdout (exit status {self.proc.poll()})")
        return line.strip()

    def control(self, events):
        return self._ask(events)

    def react(self, new_events, kyoku_events):
        return self._ask(new_events)

    def close(self):
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class HttpPlayer:
    """Stateless: the whole current kyoku is posted for every decision."""

    def __init__(self, url, seat, strategy, timeout):
        import requests

        self.url, self.seat, self.strategy, self.timeout = url, seat, strategy, timeout
        self.session = requests.Session()

    def control(self, events):
        return None

    def react(self, new_events, kyoku_events):
        body = {"player_id": self.seat, "events": kyoku_events}
        if self.strategy:
            body["strategy"] = self.strategy
        try:
            resp = self.session.post(self.url, json=body, timeout=self.timeout)
        except OSError as e:
            raise CandidateError(f"POST failed: {e}") from None
        if resp.status_code != 200:
            raise CandidateError(f"HTTP {resp.status_code}: {resp.text[:500]}")
        return resp.text

    def close(self):
        self.session.close()


class CandidateError(Exception):
    """The player failed to answer (crash, timeout, HTTP error)."""


class IllegalAction(Exception):
    """The answer is not an action the seat may take."""


def make_player(spec, seat, strategy, timeout):
    if spec in REFERENCE_BOTS:
        return ReferencePlayer(spec, seat)
    if spec.startswith("stdio:"):
        return StdioPlayer(spec[len("stdio:") :], seat, strategy, timeout)
    if spec.startswith("http:"):
        return HttpPlayer(spec[len("http:") :], seat, strategy, timeout)
    raise ValueError(f"unknown player {spec!r}")


# --------------------------------------------------------------------------
# The engine the referee talks to, one per seat.


def mask_events(events, seat):
    """What `seat` may see: others' draws and starting hands become "?"."""
    for ev in events:
        if ev["type"] == "tsumo" and ev["actor"] != seat:
            ev["pai"] = "?"
        elif ev["type"] == "start_kyoku":
            ev["tehais"] = [
                hand if p == seat else ["?"] * len(hand) for p, hand in enumerate(ev["tehais"])
            ]
    return events


def parse_action(raw, seat, must_discard):
    """The answer as an action object, or IllegalAction."""
    try:
        action = json.loads(raw)
    except (TypeError, ValueError):
        raise IllegalAction(f"not JSON: {str(raw)[:200]!r}") from None
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction(f"not an action object: {str(raw)[:200]!r}")
    action.pop("meta", None)
    if must_discard and action["type"] == "none":
        raise IllegalAction("'none' where a discard (or tsumo/riichi/kan) is required")
    return action


class SeatEngine:
    """Adapter between Match (whole unmasked kyoku per request) and a player."""

    engine_type = "mjai-log"

    def __init__(self, seat, player, timed):
        self.name = str(seat)
        self.seat = seat
        self.player = player
        self.timed = timed
        self.player_ids = []
        self.sent = 0  # events of the current kyoku already sent
        self.times_ms = []
        self.last = None  # the last request/answer, for error reports
        self.failure = None  # set when this engine aborted the game
        self.error_answers = []  # answers that carry an "error" field
        self.final_scores = None

    def set_player_ids(self, player_ids):
        self.player_ids = list(player_ids)

    def start_game(self, game_idx):
        names = [str(p) for p in range(4)]
        self._control([{"type": "start_game", "names": names, "id": self.seat}])

    def end_kyoku(self, game_idx):
        self.sent = 0
        self._control([{"type": "end_kyoku"}])

    def end_game(self, game_idx, scores):
        self.final_scores = list(scores)
        self._control([{"type": "end_game"}])

    def react_batch(self, game_states):
        return [self._react(gs) for gs in game_states]

    def _control(self, events):
        try:
            raw = self.player.control(events)
        except Exception as e:  # noqa: BLE001 - recorded, not fatal here
            if self.failure is None:
                self.failure = {"kind": "error", "message": f"on {events[0]['type']}: {e}"}
            return
        if raw and '"error"' in raw:
            self.error_answers.append({"new_events": events, "answer": raw})

    def _react(self, gs):
        if self.failure:  # a control message failed: the stream is out of step
            raise CandidateError(self.failure["message"])
        seat = self.player_ids[gs.game_index]
        kyoku = mask_events(json.loads(gs.events_json), seat)
        if self.sent > len(kyoku):
            self.sent = 0
        new, self.sent = kyoku[self.sent :], len(kyoku)
        cans = gs.state.last_cans
        self.last = {"new_events": new, "kyoku_events": kyoku, "can": str(cans), "answer": None}
        start = time.perf_counter()
        try:
            raw = self.player.react(new, kyoku)
        except Exception as e:
            self.failure = {"kind": "error", "message": f"{type(e).__name__}: {e}"}
            raise
        finally:
            if self.timed:
                self.times_ms.append((time.perf_counter() - start) * 1000)
        self.last["answer"] = raw
        try:
            action = parse_action(raw, seat, cans.can_discard)
        except IllegalAction as e:
            self.failure = {"kind": "illegal", "message": str(e)}
            raise
        if action.pop("error", None) is not None:
            self.error_answers.append(self.last)
        return json.dumps(action, separators=(",", ":"))


# --------------------------------------------------------------------------
# One game.


@contextlib.contextmanager
def captured_output(path):
    """Send fds 1 and 2 to a file: the referee prints its complaints on stdout."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(path, "wb") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)


def read_log(log_dir):
    names = [n for n in os.listdir(log_dir) if n.endswith(".json.gz")]
    if not names:
        return []
    with gzip.open(os.path.join(log_dir, names[0]), "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def play_game(task):
    """Plays one hanchan; returns the log-derived record of the game."""
    from mjai.mlibriichi.arena import Match

    seat = task["candidate_seat"]
    engines = []
    with tempfile.TemporaryDirectory(prefix="mjai-arena-") as tmp:
        output_path = os.path.join(tmp, "output.txt")
        start = time.perf_counter()
        exception = None
        with captured_output(output_path):  # players' stderr too: they start inside
            try:
                make_engines(task, engines)  # a failure here (bad command) ends the run
                Match(log_dir=tmp).py_match(*engines, seed_start=tuple(task["seed_start"]))
            except Exception as e:  # noqa: BLE001 - the game is aborted
                exception = f"{type(e).__name__}: {e}"
            finally:
                for e in engines:
                    e.player.close()
        if len(engines) < 4:
            raise RuntimeError(f"cannot start the players: {exception}")
        seconds = time.perf_counter() - start
        events = read_log(tmp)
        keep_log(task, tmp)
        with open(output_path, errors="replace") as f:
            referee_output = f.read()
    record = game_record(task, events, engines, exception)
    record["seconds"] = seconds
    record["decision_ms"] = engines[seat].times_ms
    if record["aborted"]:
        record["context"] = error_context(task, engines, record, referee_output)
    if engines[seat].error_answers:
        record["error_answer_context"] = [
            {"game": task["game"], "seed_start": task["seed_start"], "seat": seat, **ctx}
            for ctx in engines[seat].error_answers[:5]
        ]
    return record


def make_engines(task, engines):
    """Appends the four seats' engines (so that a failure leaves the started ones)."""
    seat = task["candidate_seat"]
    for s in range(4):
        spec = task["candidate"] if s == seat else task["opponents"]
        strategy = task["strategy"] if s == seat else None
        engines.append(SeatEngine(s, make_player(spec, s, strategy, task["timeout"]), s == seat))


def keep_log(task, tmp):
    if not task.get("log_dir"):
        return
    for name in os.listdir(tmp):
        if name.endswith(".json.gz"):
            dest = os.path.join(task["log_dir"], f"game{task['game']:04d}_seat{task['candidate_seat']}.json.gz")
            with open(os.path.join(tmp, name), "rb") as src, open(dest, "wb") as out:
                out.write(src.read())


def game_record(task, events, engines, exception):
    stats = log_stats(events)
    offender = stats.pop("error_offender")
    failures = {e.seat: e.failure for e in engines if e.failure}
    if offender is None and failures:
        offender = min(failures)
    log_scores = stats.pop("scores")
    scores = engines[0].final_scores or log_scores
    aborted = bool(exception or offender is not None or engines[0].final_scores is None)
    return {
        "game": task["game"],
        "seed_start": task["seed_start"],
        "candidate_seat": task["candidate_seat"],
        "aborted": aborted,
        "offender": offender,
        "failure": failures.get(offender),
        "exception": exception,
        "scores": scores,
        "log_scores": log_scores,
        "ranks": ranks_of(scores),
        "first_hands": stats.pop("first_hands"),
        "error_answers": [len(e.error_answers) for e in engines],
        **stats,
    }


def error_context(task, engines, record, referee_output):
    offender = record["offender"]
    last = engines[offender].last if offender is not None else None
    return {
        "game": task["game"],
        "seed_start": task["seed_start"],
        "candidate_seat": task["candidate_seat"],
        "offender_seat": offender,
        "offender_is_candidate": offender == task["candidate_seat"],
        "failure": record["failure"],
        "exception": record["exception"],
        "last_request": last,
        "referee_output_tail": referee_output[-6000:],
    }


# --------------------------------------------------------------------------
# Statistics from the referee's log.


def log_stats(events):
    """Per-seat counts of one game log; hands are the kyoku started."""
    zero = lambda: [0, 0, 0, 0]  # noqa: E731
    s = {k: zero() for k in ("wins", "win_points", "deal_ins", "deal_in_points", "riichi", "call_hands")}
    s.update(hands=0, error_offender=None, first_hands=None, scores=[25000] * 4)
    called = set()
    for ev in events:
        kind = ev["type"]
        if kind == "start_kyoku":
            s["hands"] += 1
            called = set()
            s["scores"] = list(ev["scores"])
            if s["first_hands"] is None:
                s["first_hands"] = {"dora_marker": ev["dora_marker"], "tehais": ev["tehais"]}
        elif kind == "reach_accepted":
            s["riichi"][ev["actor"]] += 1
            s["scores"][ev["actor"]] -= 1000
        elif kind in CALLS and ev["actor"] not in called:
            called.add(ev["actor"])
            s["call_hands"][ev["actor"]] += 1
        elif kind == "hora":
            actor, target, deltas = ev["actor"], ev["target"], ev["deltas"]
            s["wins"][actor] += 1
            s["win_points"][actor] += deltas[actor]
            if target != actor:
                s["deal_ins"][target] += 1
                s["deal_in_points"][target] -= deltas[target]
        elif kind == "ryukyoku" and ev.get("reason") == "error":
            s["error_offender"] = min(range(4), key=lambda p: ev["deltas"][p])
        if "deltas" in ev:
            s["scores"] = [a + b for a, b in zip(s["scores"], ev["deltas"])]
    return s


def ranks_of(scores):
    """1..4; equal scores go to the seat nearer the first dealer (seat 0)."""
    order = sorted(range(4), key=lambda p: (-scores[p], p))
    ranks = [0] * 4
    for rank, p in enumerate(order, 1):
        ranks[p] = rank
    return ranks


# t quantiles (two-sided 95%) for small samples; 1.96 + 2.5/df beyond 30.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci(samples):
    """Mean and 95% half-width (Student t) of independent samples."""
    n = len(samples)
    if n == 0:
        return None, None
    mean = statistics.fmean(samples)
    if n == 1:
        return mean, None
    df = n - 1
    t = T95[df - 1] if df <= len(T95) else 1.96 + 2.5 / df
    return mean, t * statistics.stdev(samples) / math.sqrt(n)


def side_seats(record, side):
    cand = record["candidate_seat"]
    return [cand] if side == "candidate" else [p for p in range(4) if p != cand]


def summarize_side(records, side):
    """Pooled statistics of one side over the completed games."""
    done = [r for r in records if not r["aborted"]]
    seat_games = [(r, p) for r in done for p in side_seats(r, side)]
    total = lambda key: sum(r[key][p] for r, p in seat_games)  # noqa: E731
    hands = sum(r["hands"] for r, _ in seat_games)
    ranks = [r["ranks"][p] for r, p in seat_games]
    mean_rank, half = mean_ci(set_mean_ranks(done, side))
    wins, deal_ins = total("wins"), total("deal_ins")
    offenders = [r for r in records if r["offender"] is not None and r["offender"] in side_seats(r, side)]
    return {
        "hanchan": len(done),
        "seat_games": len(seat_games),
        "hands": hands,
        "avg_rank": mean_rank,
        "avg_rank_ci95": half,
        "rank_pct": [100 * ranks.count(k) / len(ranks) if ranks else None for k in (1, 2, 3, 4)],
        "win_rate": ratio(wins, hands),
        "deal_in_rate": ratio(deal_ins, hands),
        "riichi_rate": ratio(total("riichi"), hands),
        "call_rate": ratio(total("call_hands"), hands),
        "points_per_win": ratio(total("win_points"), wins),
        "points_per_deal_in": ratio(total("deal_in_points"), deal_ins),
        "avg_final_score": ratio(sum(r["scores"][p] for r, p in seat_games), len(seat_games)),
        "illegal_actions": sum(1 for r in offenders if (r["failure"] or {}).get("kind", "illegal") == "illegal"),
        "aborted_games": len(offenders),
        "error_answers": sum(r["error_answers"][p] for r in records for p in side_seats(r, side)),
    }


def set_mean_ranks(done, side):
    """Mean rank per duplicate set: the four games of a seed are one sample."""
    by_set = {}
    for r in done:
        by_set.setdefault(tuple(r["seed_start"]), []).extend(r["ranks"][p] for p in side_seats(r, side))
    return [statistics.fmean(v) for v in by_set.values()]


def ratio(num, den):
    return num / den if den else None


def decision_times(records):
    times = sorted(t for r in records for t in r["decision_ms"])
    if not times:
        return {"decisions": 0}
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    return {"decisions": len(times), "median_ms": statistics.median(times), "p99_ms": p99, "max_ms": times[-1]}


def duplicate_check(records):
    """Sets whose four games dealt the same first-kyoku hands and dora."""
    by_set = {}
    for r in records:
        by_set.setdefault(tuple(r["seed_start"]), []).append(json.dumps(r["first_hands"], sort_keys=True))
    same = sum(1 for v in by_set.values() if len(v) == 4 and len(set(v)) == 1)
    return {"sets": len(by_set), "identical_first_kyoku": same}


# --------------------------------------------------------------------------
# Report.


def fmt(value, spec=".3f", suffix=""):
    return "–" if value is None else f"{value:{spec}}{suffix}"


def pct(value):
    return fmt(None if value is None else 100 * value, ".1f", "%")


def markdown(summary):
    c, o = summary["candidate"], summary["opponents"]
    rows = [
        ("hanchan (completed)", lambda s: str(s["hanchan"])),
        ("seat-games / hands", lambda s: f"{s['seat_games']} / {s['hands']}"),
        ("average rank (95% CI)", lambda s: f"{fmt(s['avg_rank'])} ± {fmt(s['avg_rank_ci95'])}"),
        ("1st / 2nd / 3rd / 4th", lambda s: " / ".join(fmt(x, ".1f", "%") for x in s["rank_pct"])),
        ("win rate / hand", lambda s: pct(s["win_rate"])),
        ("deal-in rate / hand", lambda s: pct(s["deal_in_rate"])),
        ("riichi rate / hand", lambda s: pct(s["riichi_rate"])),
        ("call rate / hand", lambda s: pct(s["call_rate"])),
        ("points per win", lambda s: fmt(s["points_per_win"], ".0f")),
        ("points per deal-in", lambda s: fmt(s["points_per_deal_in"], ".0f")),
        ("average final score", lambda s: fmt(s["avg_final_score"], ".0f")),
        ("illegal actions", lambda s: str(s["illegal_actions"])),
        ("aborted games (caused)", lambda s: str(s["aborted_games"])),
        ('answers with an "error" field', lambda s: str(s["error_answers"])),
    ]
    cfg, t, dup = summary["config"], summary["decision_time"], summary["duplicate_walls"]
    lines = [
        f"Candidate `{cfg['candidate']}`"
        + (f" (strategy {cfg['strategy']})" if cfg["strategy"] else "")
        + f" vs 3 × `{cfg['opponents']}`: {cfg['games']} hanchan, seed {cfg['seed']}, "
        f"{summary['aborted_games']} aborted.",
        "",
        "| | candidate | opponents (pooled) |",
        "|---|---|---|",
    ]
    lines += [f"| {name} | {cell(c)} | {cell(o)} |" for name, cell in rows]
    lines += [
        "",
        f"Candidate decision time over {t['decisions']} requests: median {fmt(t.get('median_ms'), '.2f')} ms, "
        f"p99 {fmt(t.get('p99_ms'), '.2f')} ms, max {fmt(t.get('max_ms'), '.2f')} ms.",
        f"Duplicate walls: {dup['identical_first_kyoku']}/{dup['sets']} seed sets dealt identical first-kyoku hands in all 4 seats.",
        f"Wall time {summary['wall_seconds']:.1f} s, {summary['seconds_per_hanchan']:.2f} s of play per hanchan, "
        f"--jobs {cfg['jobs']}.",
        "Rank CI: Student t over duplicate sets (4 games of one seed = 1 sample); "
        "points per win include honba and riichi sticks; aborted games are left out of the statistics.",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Main.


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--candidate", default="rulebase", help="rulebase | riichibot | stdio:CMD | http:URL")
    p.add_argument("--opponents", default="rulebase", choices=REFERENCE_BOTS)
    p.add_argument("--games", type=int, default=8, help="hanchan in all, a multiple of 4")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    p.add_argument("--strategy", help="passed to the candidate (stdio: --strategy NAME; http: body)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds per candidate answer")
    p.add_argument("--json", metavar="FILE", help="write the summary and per-game records as JSON")
    p.add_argument("--out-dir", default="target/mjai-arena", help="illegal_actions.jsonl goes here")
    p.add_argument("--keep-logs", action="store_true", help="copy each game's mjai log to OUT_DIR/logs")
    args = p.parse_args(argv)
    if args.games <= 0 or args.games % 4:
        p.error("--games must be a positive multiple of 4")
    if not (args.candidate in REFERENCE_BOTS or args.candidate.startswith(("stdio:", "http:"))):
        p.error("--candidate must be rulebase, riichibot, stdio:CMD or http:URL")
    return args


def make_tasks(args):
    log_dir = os.path.join(args.out_dir, "logs") if args.keep_logs else None
    return [
        {
            "game": game,
            "seed_start": [game // 4, args.seed],
            "candidate_seat": game % 4,
            "candidate": args.candidate,
            "opponents": args.opponents,
            "strategy": args.strategy,
            "timeout": args.timeout,
            "log_dir": log_dir,
        }
        for game in range(args.games)
    ]


def run_tasks(tasks, jobs):
    """Results in task order, whatever the number of processes."""
    if jobs <= 1:
        return [report_progress(play_game(t), len(tasks)) for t in tasks]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        return [report_progress(r, len(tasks)) for r in pool.map(play_game, tasks)]


def report_progress(record, total):
    status = "aborted" if record["aborted"] else f"rank {record['ranks'][record['candidate_seat']]}"
    print(
        f"game {record['game'] + 1}/{total}: candidate in seat {record['candidate_seat']}, {status}, "
        f"{record['hands']} hands, {record['seconds']:.1f} s",
        file=sys.stderr,
    )
    return record


def write_contexts(records, out_dir, key, name):
    """Moves records' `key` entries into OUT_DIR/name, one JSON object a line."""
    contexts = []
    for r in records:
        value = r.pop(key, None)
        contexts += value if isinstance(value, list) else [value] if value else []
    path = os.path.join(out_dir, name)
    if os.path.exists(path):
        os.remove(path)  # no stale contexts from an earlier run
    if not contexts:
        return None
    with open(path, "w") as f:
        for ctx in contexts:
            f.write(json.dumps(ctx) + "\n")
    return path


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    if args.keep_logs:
        os.makedirs(os.path.join(args.out_dir, "logs"), exist_ok=True)
    start = time.perf_counter()
    records = run_tasks(make_tasks(args), args.jobs)
    wall = time.perf_counter() - start
    context_file = write_contexts(records, args.out_dir, "context", "illegal_actions.jsonl")
    error_file = write_contexts(records, args.out_dir, "error_answer_context", "error_answers.jsonl")
    summary = {
        "config": {k: getattr(args, k) for k in ("candidate", "opponents", "games", "seed", "jobs", "strategy")},
        "candidate": summarize_side(records, "candidate"),
        "opponents": summarize_side(records, "opponents"),
        "aborted_games": sum(r["aborted"] for r in records),
        "decision_time": decision_times(records),
        "duplicate_walls": duplicate_check(records),
        "wall_seconds": wall,
        "seconds_per_hanchan": statistics.fmean(r["seconds"] for r in records),
        "illegal_actions_file": context_file,
        "error_answers_file": error_file,
    }
    print(markdown(summary))
    if context_file:
        print(f"\nContexts of the aborted games: {context_file}")
    if error_file:
        print(f"Candidate answers with an error field (first 5 a game): {error_file}")
    if args.json:
        games = [{k: v for k, v in r.items() if k != "decision_ms"} for r in records]
        with open(args.json, "w") as f:
            json.dump({**summary, "games": games}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
