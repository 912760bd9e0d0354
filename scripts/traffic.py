#!/usr/bin/env python3
"""Traffic for gamebot's load, overload, fault and soak scripts (stdlib only).

Every subcommand talks to one server on 127.0.0.1, is bounded in requests and
time, prints what it measured and exits non-zero when a property fails:

  overload   N concurrent search requests (N = factor x workers): each answer is
             a result within budget + slack or a 503 with Retry-After; the
             service answers normally right after; peak RSS (VmHWM).
  disconnect a client drops its connection mid-search: the worker is free again
             (gamebot_searches_in_flight back to 0) within a bound.
  panic      a panicking route answers a 500 problem and the server keeps serving.
  drain      SIGTERM to the server under load: every request whose connection
             the server accepted gets a complete answer; the process exits 0.
  saturate   keeps every search worker busy for a while (background load).
  soak       mixed traffic for a fixed time: no unexpected status, RSS sampled.

Request bodies are random but valid games (random deals), so searches are not
answered from the cache, plus a share of invalid ones that must get 422.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import sys
import threading
import time

RANKS = "3456789TJQKA2"
DECK = [r for r in RANKS for _ in range(4)] + ["B", "R"]
SEATS = ["landlord", "landlord_down", "landlord_up"]
ORDER = {c: i for i, c in enumerate("3456789TJQKA2BR")}
TILE_KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def cards(hand):
    return "".join(sorted(hand, key=ORDER.get))


def deal(rng, sizes):
    deck = DECK[:]
    rng.shuffle(deck)
    out, at = [], 0
    for n in sizes:
        out.append(cards(deck[at : at + n]))
        at += n
    return out


def endgame_body(rng, seats, per_seat, budget_ms):
    """A random endgame with `seats` hands of `per_seat` cards."""
    hands = deal(rng, [per_seat] * seats)
    names = ["landlord", "landlord_down"] if seats == 2 else SEATS
    return {
        "hands": dict(zip(names, hands)),
        "to_move": rng.choice(names),
        "budget_ms": budget_ms,
    }


def hard_endgame_body(rng, budget_ms):
    """A whole deal (20/17/17): never solved within a budget of seconds, so
    the search holds its worker for the full budget."""
    landlord, down, up = deal(rng, [20, 17, 17])
    return {
        "hands": {"landlord": landlord, "landlord_down": down, "landlord_up": up},
        "to_move": "landlord",
        "budget_ms": budget_ms,
    }


def play_body(rng):
    landlord, down, up = deal(rng, [20, 17, 17])
    seat = rng.choice(SEATS)
    if seat == "landlord":
        return {"seat": seat, "hand": landlord, "history": [], "seed": rng.randrange(1 << 31)}
    # The landlord led its lowest card; landlord_up also saw landlord_down pass.
    history = [landlord[0]] if seat == "landlord_down" else [landlord[0], ""]
    hand = down if seat == "landlord_down" else up
    return {"seat": seat, "hand": hand, "history": history, "seed": rng.randrange(1 << 31)}


def mahjong_hand(rng, n, variant="riichi"):
    # Red Dragon's wall: the suits and the red dragon (7z) only.
    kinds = [k for k in TILE_KINDS if variant != "red_dragon" or k[1] != "z" or k == "7z"]
    wall = [k for k in kinds for _ in range(4)]
    rng.shuffle(wall)
    return wall[:n]


def tenhou(tiles):
    out = []
    for suit in "mpsz":
        digits = sorted(t[0] for t in tiles if t[1] == suit)
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


def light_request(rng):
    """A random valid request to one of the inline (non-pool) routes."""
    kind = rng.randrange(6)
    if kind == 0:
        (hand,) = deal(rng, [rng.randint(1, 20)])
        return "/doudizhu/moves", {"hand": hand}
    if kind == 1:
        hand, last = deal(rng, [rng.randint(1, 20), 1])
        return "/doudizhu/moves", {"hand": hand, "last": last}
    if kind == 2:
        (hand,) = deal(rng, [rng.randint(1, 20)])
        return "/doudizhu/split", {"hand": hand}
    if kind == 3:
        (hand,) = deal(rng, [17])
        return "/doudizhu/bid", {"hand": hand, "bids": []}
    if kind == 4:
        variant = rng.choice(["riichi", "hong_kong", "red_dragon"])
        tiles = mahjong_hand(rng, 14, variant)
        return "/mahjong/discard", {
            "variant": variant,
            "hand": tenhou(tiles),
            "drawn": tiles[-1],
            "min_fan": 0,
        }
    tiles = mahjong_hand(rng, 14)
    return "/mahjong/claim", {
        "variant": rng.choice(["riichi", "hong_kong"]),
        "hand": tenhou(tiles[:13]),
        "tile": tiles[13],
        "from": rng.choice(["left", "across", "right"]),
        "min_fan": 0,
    }


def bad_request(rng):
    """Invalid content: must be answered 422."""
    return rng.choice(
        [
            ("/doudizhu/moves", {"hand": "33333"}),
            ("/doudizhu/split", {"hand": "XYZ"}),
            ("/doudizhu/endgame", {"hands": {"landlord": "BB"}, "to_move": "landlord"}),
            ("/mahjong/discard", {"variant": "riichi", "hand": "1m"}),
            ("/doudizhu/play", {"seat": "landlord_up", "hand": "345", "history": []}),
        ]
    )


class Reply:
    def __init__(self, status, headers, body, seconds):
        self.status, self.headers, self.body, self.seconds = status, headers, body, seconds


def request(host, port, method, path, body=None, timeout=30.0):
    """One request on a fresh connection. Raises on connection errors."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    started = time.monotonic()
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json", "connection": "close"} if data else {}
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        payload = r.read()
        return Reply(r.status, dict(r.getheaders()), payload, time.monotonic() - started)
    finally:
        conn.close()


def metrics(host, port):
    r = request(host, port, "GET", "/metrics", timeout=5)
    out = {}
    for line in r.body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                out[name] = float(value)
            except ValueError:
                pass
    return out


def proc_status(pid, field):
    """A memory field of /proc/PID/status in MiB (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def alive(pid):
    """Running (a zombie waiting for its parent's wait counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def run_parallel(jobs):
    """Runs callables at once (released together by a barrier); returns results."""
    results = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def worker(i, job):
        barrier.wait()
        try:
            results[i] = job()
        except Exception as e:  # a connection error is a result too
            results[i] = e

    threads = [threading.Thread(target=worker, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


class Failures:
    def __init__(self):
        self.items = []

    def check(self, ok, what):
        print(("PASS " if ok else "FAIL ") + what, flush=True)
        if not ok:
            self.items.append(what)

    def exit(self):
        print(f"{len(self.items) == 0 and 'all checks passed' or str(len(self.items)) + ' check(s) failed'}")
        sys.exit(1 if self.items else 0)


# ----------------------------------------------------------------- overload


def cmd_overload(a, fails):
    rng = random.Random(a.seed)
    n = a.factor * a.workers
    print(f"overload: {n} concurrent searches ({a.factor} x {a.workers} workers), "
          f"budget {a.budget_ms} ms, slack {a.slack_ms} ms, {a.waves} wave(s)")
    all_latencies = []
    for wave in range(a.waves):
        bodies = [hard_endgame_body(rng, a.budget_ms) for _ in range(n)]
        replies = run_parallel(
            [lambda b=b: request(a.host, a.port, "POST", "/doudizhu/endgame", b, timeout=a.budget_ms / 1000 + 30)
             for b in bodies]
        )
        ok = [r for r in replies if isinstance(r, Reply) and r.status == 200]
        shed = [r for r in replies if isinstance(r, Reply) and r.status == 503]
        other = [r for r in replies if not (isinstance(r, Reply) and r.status in (200, 503))]
        late = [r for r in ok if r.seconds * 1000 > a.budget_ms + a.slack_ms]
        no_retry = [r for r in shed if "retry-after" not in {k.lower() for k in r.headers}]
        slow_shed = [r for r in shed if r.seconds * 1000 > a.slack_ms]
        lat = [r.seconds * 1000 for r in ok]
        all_latencies += lat
        print(f"  wave {wave + 1}: {len(ok)} answered (max {max(lat, default=0):.0f} ms, "
              f"p50 {percentile(lat, 50):.0f} ms), {len(shed)} x 503 "
              f"(max {max((r.seconds * 1000 for r in shed), default=0):.0f} ms), {len(other)} other")
        fails.check(not other, f"wave {wave + 1}: every answer is 200 or 503 ({[getattr(r, 'status', r) for r in other][:3]})")
        fails.check(not late, f"wave {wave + 1}: every 200 within budget + slack ({a.budget_ms + a.slack_ms} ms)")
        fails.check(not no_retry, f"wave {wave + 1}: every 503 carries Retry-After")
        fails.check(not slow_shed, f"wave {wave + 1}: every 503 is immediate (< {a.slack_ms} ms)")
    # Right after the burst: cheap and search routes answer at once.
    after = request(a.host, a.port, "POST", "/doudizhu/moves", {"hand": "3334445566KKKK", "last": "777J"})
    fails.check(after.status == 200 and after.seconds < 0.5,
                f"right after: /doudizhu/moves 200 in {after.seconds * 1000:.1f} ms")
    easy = endgame_body(rng, 2, 6, 2000)
    after = request(a.host, a.port, "POST", "/doudizhu/endgame", easy)
    fails.check(after.status == 200 and after.seconds < 2.5,
                f"right after: a small /doudizhu/endgame 200 in {after.seconds * 1000:.1f} ms")
    m = metrics(a.host, a.port)
    fails.check(m.get("gamebot_searches_in_flight", -1) == 0 and m.get("gamebot_searches_queued", -1) == 0,
                "right after: no search in flight or queued")
    if a.pid:
        print(f"  peak RSS (VmHWM): {proc_status(a.pid, 'VmHWM'):.0f} MiB; "
              f"RSS now {proc_status(a.pid, 'VmRSS'):.0f} MiB")
    print(f"  rejections so far: {m.get('gamebot_overload_rejections_total', 0):.0f}")


# --------------------------------------------------------------- disconnect


def wait_metric(a, name, predicate, seconds):
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if predicate(metrics(a.host, a.port).get(name, -1)):
            return time.monotonic() - started
        time.sleep(0.002)
    return None


def cmd_disconnect(a, fails):
    rng = random.Random(a.seed)
    body = json.dumps(hard_endgame_body(rng, 10_000)).encode()
    s = socket.create_connection((a.host, a.port))
    s.sendall(b"POST /doudizhu/endgame HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
              + f"content-length: {len(body)}\r\n\r\n".encode() + body)
    busy = wait_metric(a, "gamebot_searches_in_flight", lambda v: v >= 1, 5)
    fails.check(busy is not None, "a 10 s search is running")
    time.sleep(0.3)
    closed = time.monotonic()
    s.close()
    freed = wait_metric(a, "gamebot_searches_in_flight", lambda v: v == 0, 5)
    fails.check(freed is not None,
                f"client closed after 0.3 s: worker free again {(freed or 0) * 1000:.1f} ms later "
                f"(the budget had {10 - 0.3 - (time.monotonic() - closed):.1f} s left)")
    r = request(a.host, a.port, "POST", "/doudizhu/endgame", endgame_body(rng, 2, 6, 2000))
    fails.check(r.status == 200, f"next search answered {r.status} in {r.seconds * 1000:.1f} ms")


# -------------------------------------------------------------------- panic


def cmd_panic(a, fails):
    for path, method in (("/fault/panic", "GET"), ("/fault/search-panic", "POST")):
        r = request(a.host, a.port, method, path, {} if method == "POST" else None)
        problem = r.headers.get("content-type", r.headers.get("Content-Type", ""))
        fails.check(r.status == 500 and "problem+json" in problem,
                    f"{path}: {r.status} {problem} {r.body[:90].decode(errors='replace')}")
        after = request(a.host, a.port, "POST", "/doudizhu/moves", {"hand": "33345"})
        fails.check(after.status == 200, f"after {path}: /doudizhu/moves {after.status}")
    m = metrics(a.host, a.port)
    fails.check(m.get("gamebot_searches_in_flight", -1) == 0, "no search left running")


# -------------------------------------------------------------------- drain


def cmd_drain(a, fails):
    """Clients send new requests on fresh connections until the listener is
    gone; SIGTERM arrives mid-way. Each request either fails to connect (the
    server no longer accepts: fine) or must get a complete answer."""
    rng = random.Random(a.seed)
    stop_at = time.monotonic() + a.seconds
    lock = threading.Lock()
    stats = {"answered": 0, "refused": 0, "dropped": [], "statuses": {}, "after_term": 0}
    term_at = [None]

    def client(i):
        r = random.Random(rng.random())
        while time.monotonic() < stop_at:
            if r.random() < 0.3:
                path, body = "/doudizhu/endgame", endgame_body(r, 3, r.randint(4, 7), a.budget_ms)
            else:
                path, body = light_request(r)
            try:
                conn = socket.create_connection((a.host, a.port), timeout=5)
            except OSError:
                with lock:
                    stats["refused"] += 1
                if term_at[0] is not None:
                    return  # the listener is closed: this client is done
                time.sleep(0.01)
                continue
            sent = time.monotonic()
            try:
                data = json.dumps(body).encode()
                conn.sendall(f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                             f"connection: close\r\ncontent-length: {len(data)}\r\n\r\n".encode() + data)
                conn.settimeout(a.budget_ms / 1000 + 15)
                raw = b""
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    raw += chunk
                head, _, payload = raw.partition(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else None
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), None)
                complete = status is not None and (length is None or len(payload) == length)
            except OSError as e:
                complete, status = False, repr(e)
            finally:
                conn.close()
            with lock:
                if complete:
                    stats["answered"] += 1
                    stats["statuses"][status] = stats["statuses"].get(status, 0) + 1
                    if term_at[0] is not None and sent > term_at[0]:
                        stats["after_term"] += 1
                else:
                    stats["dropped"].append((path, status, round(sent - (term_at[0] or sent), 3)))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
    for t in threads:
        t.start()
    time.sleep(a.term_after)
    m = metrics(a.host, a.port)
    print(f"  at SIGTERM: {m.get('gamebot_searches_in_flight', 0):.0f} searches in flight, "
          f"{m.get('gamebot_searches_queued', 0):.0f} queued")
    term_at[0] = time.monotonic()
    os.kill(a.pid, signal.SIGTERM)
    exited = None
    while time.monotonic() - term_at[0] < 30:
        if not alive(a.pid):
            exited = time.monotonic() - term_at[0]
            break
        time.sleep(0.01)
    for t in threads:
        t.join()
    print(f"  {stats['answered']} answered {dict(sorted(stats['statuses'].items()))}, "
          f"{stats['refused']} connection(s) refused, {len(stats['dropped'])} dropped; "
          f"{stats['after_term']} of the answered were sent after SIGTERM")
    fails.check(exited is not None, f"the server exited {(exited or 0) * 1000:.0f} ms after SIGTERM")
    fails.check(not stats["dropped"], f"no accepted request dropped {stats['dropped'][:5]}")
    unexpected = {s: n for s, n in stats["statuses"].items() if s not in (200, 503)}
    fails.check(not unexpected, f"answers are 200 (or 503 when shed): {unexpected or 'yes'}")


# ----------------------------------------------------------------- saturate


def cmd_saturate(a, fails):
    """Keeps `concurrency` hard searches outstanding for `seconds` (or until SIGTERM)."""
    rng = random.Random(a.seed)
    stop_at = time.monotonic() + a.seconds
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    counts = {}
    lock = threading.Lock()

    def loop():
        r = random.Random(rng.random())
        while time.monotonic() < stop_at and not stopping.is_set():
            if a.gomoku_body and r.random() < 0.5:
                path, body = "/gomoku/move", json.loads(a.gomoku_body)
            else:
                path, body = "/doudizhu/endgame", hard_endgame_body(r, a.budget_ms)
            try:
                status = request(a.host, a.port, "POST", path, body, timeout=60).status
            except OSError as e:
                status = type(e).__name__
            with lock:
                counts[(path, status)] = counts.get((path, status), 0) + 1

    threads = [threading.Thread(target=loop) for _ in range(a.concurrency)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        stopping.wait(0.1)
        for t in threads:
            t.join(timeout=0.01)
    print("saturate: " + ", ".join(f"{p} {s}: {n}" for (p, s), n in sorted(counts.items(), key=str)))


# --------------------------------------------------------------------- soak


def cmd_soak(a, fails):
    rng = random.Random(a.seed)
    started = time.monotonic()
    stop_at = started + a.seconds
    lock = threading.Lock()
    counts = {"ok": 0, "bad_ok": 0, "searches": 0}
    errors = []
    latencies = {}

    def client(i):
        r = random.Random(rng.random())
        # Open loop per client: requests are due at a fixed rate.
        interval = a.clients / a.rate
        due = time.monotonic() + r.random() * interval
        while True:
            now = time.monotonic()
            if now >= stop_at:
                return
            if due > now:
                time.sleep(due - now)
            due += interval
            x = r.random()
            expect = 200
            if x < 0.03:
                (path, body), expect = bad_request(r), 422
            elif x < 0.13:
                path, body = "/doudizhu/endgame", endgame_body(r, r.choice([2, 3]), r.randint(3, 7), 1000)
            elif x < 0.18:
                path, body = "/doudizhu/play", play_body(r)
            else:
                path, body = light_request(r)
            try:
                reply = request(a.host, a.port, "POST", path, body, timeout=30)
                status, secs = reply.status, reply.seconds
            except OSError as e:
                status, secs = repr(e), 0
            with lock:
                latencies.setdefault(path, []).append(secs * 1000)
                if status == expect:
                    counts["ok" if expect == 200 else "bad_ok"] += 1
                    counts["searches"] += path == "/doudizhu/endgame"
                else:
                    errors.append((round(time.monotonic() - started, 1), path, status, json.dumps(body)[:200]))

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(a.clients)]
    for t in threads:
        t.start()
    samples = []
    print(f"soak: {a.seconds} s, {a.rate} requests/s over {a.clients} clients; "
          "t(s)  RSS MiB  cache entries  cache MiB  requests  errors", flush=True)
    while time.monotonic() < stop_at:
        time.sleep(min(a.sample_every, max(0.0, stop_at - time.monotonic())))
        t = time.monotonic() - started
        rss = proc_status(a.pid, "VmRSS")
        m = metrics(a.host, a.port)
        with lock:
            done, errs = counts["ok"] + counts["bad_ok"], len(errors)
        samples.append((t, rss))
        print(f"  {t:6.0f}  {rss:7.0f}  {m.get('gamebot_cache_entries', 0):13.0f}  "
              f"{m.get('gamebot_cache_bytes', 0) / 2**20:9.1f}  {done:8d}  {errs:6d}", flush=True)
    for th in threads:
        th.join(timeout=40)
    m = metrics(a.host, a.port)
    print(f"  totals: {counts['ok']} answered 200 ({counts['searches']} endgame searches), "
          f"{counts['bad_ok']} invalid requests answered 422, {len(errors)} errors")
    for path in sorted(latencies):
        v = latencies[path]
        print(f"  {path:20s} n={len(v):7d}  p50 {percentile(v, 50):7.2f} ms  p99 {percentile(v, 99):8.2f} ms"
              f"  max {max(v):8.1f} ms")
    for e in errors[:10]:
        print(f"  error: {e}")
    fails.check(not errors, f"no unexpected status or connection error ({len(errors)})")
    # RSS rises while the cache's fixed table is touched for the first time
    # (and allocator arenas warm up), then must stay flat: the last third of
    # the run may not grow by more than the slack.
    last = [r for t, r in samples if t >= a.seconds * 2 / 3]
    cap = m.get("gamebot_cache_capacity_bytes", 0) / 2**20
    peak = proc_status(a.pid, "VmHWM")
    print(f"  RSS first sample {samples[0][1] if samples else 0:.0f} MiB, last third {min(last, default=0):.0f}"
          f"-{max(last, default=0):.0f} MiB, peak (VmHWM) {peak:.0f} MiB; cache "
          f"{m.get('gamebot_cache_bytes', 0) / 2**20:.1f} of {cap:.0f} MiB")
    if last:
        fails.check(max(last) <= last[0] + a.rss_slack_mib,
                    f"RSS flat over the last third: grows at most {a.rss_slack_mib} MiB")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["overload", "disconnect", "panic", "drain", "saturate", "soak"])
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--pid", type=int, default=0, help="server process (for RSS and SIGTERM)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--factor", type=int, default=10)
    p.add_argument("--waves", type=int, default=3)
    p.add_argument("--budget-ms", type=int, default=500)
    p.add_argument("--slack-ms", type=int, default=250)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--concurrency", type=int, default=4)
    p.add_argument("--rate", type=float, default=100, help="soak: requests per second in all")
    p.add_argument("--term-after", type=float, default=2.0)
    p.add_argument("--sample-every", type=float, default=10.0)
    p.add_argument("--rss-slack-mib", type=float, default=32)
    p.add_argument("--gomoku-body", default="", help="saturate: a /gomoku/move body to mix in")
    a = p.parse_args()
    hostport = a.url.split("//", 1)[-1].rstrip("/")
    a.host, _, port = hostport.partition(":")
    a.port = int(port or 80)
    fails = Failures()
    globals()["cmd_" + a.command](a, fails)
    if a.command != "saturate":
        fails.exit()


if __name__ == "__main__":
    main()
