#!/usr/bin/env bash
# Capacity per core: requests/s of every route at its default budget with the server on one
# core, and the latency of an endgame solved, read from the shared cache (Redis) by another
# replica, and read from the replica's own cache. The numbers the capacity model in
# docs/benchmarks.md uses.
#
#   bash scripts/capacity.sh                  (about 3 minutes)
#
# The server runs with workers = 1 pinned to CPU 1 (taskset), the load generator (oha, closed
# loop, 8 connections; 1 for the gomoku search, so that it runs its whole budget) on CPU 0,
# so "requests/s" is what one core serves. A private
# redis-server (Debian's package, installed if missing) backs the shared cache.
#
# Environment:
#   DURATION    seconds per route (default 5)
#   ROUTES      names from the table below (default: all)
#   POSITIONS   distinct endgames for the shared-cache latencies (default 200)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DURATION="${DURATION:-5}"
POSITIONS="${POSITIONS:-200}"
declare -A ROUTE=(
  [moves]=/doudizhu/moves [split]=/doudizhu/split [bid]=/doudizhu/bid [play]=/doudizhu/play
  [double]=/doudizhu/double [endgame_cached]=/doudizhu/endgame [discard]=/mahjong/discard
  [claim]=/mahjong/claim [mjai]=/mahjong/mjai [table]=/mahjong/table
  [position]=/gomoku/position [gomoku_default]=/gomoku/move
)
ROUTES="${ROUTES:-moves split bid play double endgame_cached discard claim mjai table position gomoku_default}"

command -v taskset >/dev/null || die "taskset (util-linux) is needed"
if ! command -v redis-server >/dev/null; then
  log "installing redis-server (Debian)"
  sudo_if_needed=()
  [[ "$(id -u)" == 0 ]] || sudo_if_needed=(sudo)
  "${sudo_if_needed[@]}" apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq redis-server >/dev/null
fi
ensure_oha
build_release

REDIS_PORT="$(free_port)"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
  --maxmemory 256mb --maxmemory-policy allkeys-lru >/dev/null &
BACKGROUND_PIDS+=($!)
CACHE_URL="redis://127.0.0.1:$REDIS_PORT/0"
SERVE=(taskset -c 1 "$BIN" serve --log-format json --listen)
start_server GAMEBOT_WORKERS=1 GAMEBOT_LOG_LEVEL=warn GAMEBOT_CACHE_URL="$CACHE_URL" -- "${SERVE[@]}"
log "commit $(git -C "$SCRIPTS/.." rev-parse --short HEAD), server pid $SERVER_PID on CPU 1, load average $(cut -d' ' -f1-3 /proc/loadavg)"

printf '\n%-16s %-20s %10s %9s %9s  %s\n' route path "req/s" "p50 ms" "p99 ms" statuses
for name in $ROUTES; do
  # A search that waits in the queue spends its budget waiting: one connection
  # keeps the gomoku search at its full default budget.
  c=8
  [[ "$name" == gomoku_default ]] && c=1
  out="$(taskset -c 0 "$OHA" -z "${DURATION}s" -c "$c" --no-tui --output-format json -m POST \
    -H 'content-type: application/json' -D "$SCRIPTS/bodies/$name.json" "$BASE_URL${ROUTE[$name]}")"
  "$PYTHON" -c '
import json, sys
d = json.loads(sys.argv[1]); s, p = d["summary"], d["latencyPercentiles"]
codes = ",".join("%s:%d" % kv for kv in sorted(d.get("statusCodeDistribution", {}).items()))
print("%-16s %-20s %10.1f %9.2f %9.2f  %s" % (sys.argv[2], sys.argv[3], s["requestsPerSec"],
      (p["p50"] or 0) * 1000, (p["p99"] or 0) * 1000, codes))
' "$out" "$name" "${ROUTE[$name]}"
done
FIRST_URL="$BASE_URL"
FIRST_PID="$SERVER_PID"

# A second replica on the same Redis, for the shared-cache latencies.
SERVER_PID=""
start_server GAMEBOT_WORKERS=1 GAMEBOT_LOG_LEVEL=warn GAMEBOT_CACHE_URL="$CACHE_URL" -- "${SERVE[@]}"
BACKGROUND_PIDS+=("$FIRST_PID")
printf '\n'
taskset -c 0 "$PYTHON" "$SCRIPTS/shared_cache_latency.py" --first "$FIRST_URL" --second "$BASE_URL" \
  --positions "$POSITIONS"
