"""Latency of a Dou Dizhu endgame solved by one replica, asked of it again
(answered from its own cache), and asked of a second replica that shares its
Redis (answered from the shared cache).

    python scripts/shared_cache_latency.py --first URL --second URL [--positions N] [--seed S]

The positions are seeded three-seat deals of 5 to 7 cards a seat, landlord to
lead; each is asked once per step, one request at a time. Prints p50, p90 and
p99 per step and checks that the answers agree. Standard library only.
"""

import argparse
import json
import random
import time
import urllib.request

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"


def post(url, body):
    req = urllib.request.Request(url + "/doudizhu/endgame", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(req, timeout=30) as r:
        answer = json.load(r)
    return (time.perf_counter() - started) * 1000, answer


def metric(url, name):
    with urllib.request.urlopen(url + "/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[-1])
    return 0.0


def percentiles(xs):
    xs = sorted(xs)
    at = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]
    return at(0.5), at(0.9), at(0.99)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", required=True)
    ap.add_argument("--second", required=True)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    bodies = []
    for _ in range(a.positions):
        deck = list(DECK)
        rng.shuffle(deck)
        n = [rng.randint(5, 7) for _ in range(3)]
        hands = ["".join(deck[sum(n[:i]):sum(n[:i + 1])]) for i in range(3)]
        bodies.append({"hands": {"landlord": hands[0], "landlord_down": hands[1], "landlord_up": hands[2]},
                       "to_move": "landlord", "budget_ms": 10000})
    steps = {"solved (first replica)": [], "own cache (first replica)": [], "shared cache (second replica)": []}
    truth = []
    for body in bodies:
        ms, answer = post(a.first, body)
        assert not answer["cached"] and answer["complete"], answer
        steps["solved (first replica)"].append(ms)
        truth.append(answer)
    for body in bodies:
        ms, answer = post(a.first, body)
        assert answer["cached"], answer
        steps["own cache (first replica)"].append(ms)
    # The first replica's writes go out in the background: let them land.
    time.sleep(1)
    for body, want in zip(bodies, truth):
        ms, answer = post(a.second, body)
        assert answer["cached"], answer
        assert answer["pv"] == want["pv"] and answer["winning_moves"] == want["winning_moves"], (answer, want)
        steps["shared cache (second replica)"].append(ms)
    print(f"{a.positions} endgames, one request at a time; latency seen by the client, ms")
    print(f"{'step':32} {'mean':>8} {'p50':>8} {'p90':>8} {'p99':>8}")
    for step, xs in steps.items():
        p50, p90, p99 = percentiles(xs)
        print(f"{step:32} {sum(xs) / len(xs):8.2f} {p50:8.2f} {p90:8.2f} {p99:8.2f}")
    lookups = metric(a.second, "gamebot_cache_l2_hits_total") + metric(a.second, "gamebot_cache_l2_misses_total")
    micros = metric(a.second, "gamebot_cache_l2_lookup_microseconds_total")
    print(f"second replica: {metric(a.second, 'gamebot_cache_l2_hits_total'):.0f} shared-cache hits, "
          f"mean lookup {micros / max(lookups, 1):.0f} us inside the server")


if __name__ == "__main__":
    main()
