#!/usr/bin/env bash
# Idle and half-open connections against the light routes.
#
#   scripts/slow_clients.sh [CONNECTIONS] [REQUESTS]
#
# Measures GET /healthz and POST /doudizhu/moves latency (REQUESTS each, one
# keep-alive connection, sequential) on a quiet server, then again while
# CONNECTIONS other connections are open (half of them idle, half having sent
# half a request head), and reports the server's open descriptors. The server
# runs with header_read_timeout_ms=5000 so the run also shows the half-open
# connections being cut off (gamebot_connections_timed_out_total). Bounded:
# about 15 s.
set -euo pipefail
source "$(dirname "$0")/common.sh"

CONNECTIONS="${1:-1000}"
REQUESTS="${2:-2000}"

build_release
trap stop_server EXIT
start_server GAMEBOT_HEADER_READ_TIMEOUT_MS=5000 GAMEBOT_IDLE_TIMEOUT_MS=60000

"$PYTHON" - "$PORT" "$CONNECTIONS" "$REQUESTS" "$SERVER_PID" <<'PY'
import http.client, os, socket, sys, time
port, n, requests, pid = (int(a) for a in sys.argv[1:])

def fds():
    return len(os.listdir(f"/proc/{pid}/fd"))

def metric(name):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/metrics")
    text = c.getresponse().read().decode()
    c.close()
    return next(float(l.split()[1]) for l in text.splitlines() if l.startswith(name + " "))

def latencies():
    out = {}
    for name, method, path, body in [
        ("GET /healthz", "GET", "/healthz", None),
        ("POST /doudizhu/moves", "POST", "/doudizhu/moves", b'{"hand": "3334445566KKKK", "last": "777J"}'),
    ]:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        samples = []
        for _ in range(requests):
            t = time.perf_counter()
            c.request(method, path, body=body, headers={"content-type": "application/json"})
            r = c.getresponse()
            r.read()
            assert r.status == 200, r.status
            samples.append((time.perf_counter() - t) * 1000)
        c.close()
        samples.sort()
        out[name] = (samples[len(samples) // 2], samples[int(len(samples) * 0.99)])
    return out

def show(label, lat):
    for name, (p50, p99) in lat.items():
        print(f"{label:>32} | {name:<22} | p50 {p50:.3f} ms | p99 {p99:.3f} ms")

base_fds = fds()
show("quiet", latencies())
held = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    if i % 2:
        s.sendall(b"POST /doudizhu/moves HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
deadline = time.time() + 10
while metric("gamebot_connections_open") < n and time.time() < deadline:
    time.sleep(0.05)
print(f"server descriptors: {base_fds} quiet, {fds()} with {n} connections held; "
      f"gamebot_connections_open {metric('gamebot_connections_open'):.0f}")
show(f"{n} idle/half-open held", latencies())
time.sleep(6)
print(f"after the 5 s header timeout: gamebot_connections_timed_out_total "
      f"{metric('gamebot_connections_timed_out_total'):.0f}, "
      f"gamebot_connections_open {metric('gamebot_connections_open'):.0f}, descriptors {fds()}")
for s in held:
    s.close()
PY
