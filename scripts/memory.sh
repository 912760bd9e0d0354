#!/usr/bin/env bash
# Peak memory with every worker solving a hard endgame at once.
#
#   scripts/memory.sh [WORKERS] [SEARCH_MEMORY_MIB] [BUDGET_MS]
#
# Starts the release server with WORKERS workers (default 2) and the given
# search-table budget (default 512 MiB, the default setting), sends WORKERS
# different three-seat endgames with whole hands (17/17/20 cards: never solved
# in time, so each search's table wants its 256 MiB maximum) at once with a
# BUDGET_MS budget (default 10000), and prints the process's peak RSS
# (VmHWM), its RSS at rest before the searches, and the budget's own peak
# (gamebot_search_memory_peak_bytes). Bounded: one round of searches.
set -euo pipefail
source "$(dirname "$0")/common.sh"

WORKERS="${1:-2}"
MIB="${2:-512}"
BUDGET="${3:-10000}"

build_release
trap stop_server EXIT
start_server GAMEBOT_WORKERS="$WORKERS" GAMEBOT_SEARCH_MEMORY_MIB="$MIB" GAMEBOT_MAX_BUDGET_MS="$BUDGET"
status_kib() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$SERVER_PID/status"; }
rest_kib="$(status_kib VmRSS)"

"$PYTHON" - "$BASE_URL" "$WORKERS" "$BUDGET" <<'PY'
import json, random, sys, threading, urllib.request
base, workers, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
deck = list("3456789TJQKA2") * 4 + ["B", "R"]
def deal(seed):
    cards = deck[:]
    random.Random(seed).shuffle(cards)
    return {"landlord": "".join(cards[:20]), "landlord_down": "".join(cards[20:37]),
            "landlord_up": "".join(cards[37:])}
def solve(seed, out):
    body = json.dumps({"hands": deal(seed), "to_move": "landlord", "budget_ms": budget}).encode()
    req = urllib.request.Request(base + "/doudizhu/endgame", data=body,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=budget / 1000 + 30) as r:
        out[seed] = json.load(r)
out = {}
threads = [threading.Thread(target=solve, args=(seed, out)) for seed in range(workers)]
for t in threads: t.start()
for t in threads: t.join()
for seed, r in sorted(out.items()):
    print(f"search {seed}: result {r['result']}, complete {r['complete']}, "
          f"{r['nodes']} nodes in {r['elapsed_ms']:.0f} ms", file=sys.stderr)
PY

peak_kib="$(status_kib VmHWM)"
budget_peak="$(http_get /metrics | awk '$1 == "gamebot_search_memory_peak_bytes" { print $2 }')"
refusals="$(http_get /metrics | awk '$1 == "gamebot_search_memory_refusals_total" { print $2 }')"
echo "workers=$WORKERS search_memory_mib=$MIB budget_ms=$BUDGET"
echo "rss_at_rest_mib=$((rest_kib / 1024)) peak_rss_mib=$((peak_kib / 1024))"
echo "search_tables_peak_mib=$((budget_peak / 1048576)) refusals=$refusals"
