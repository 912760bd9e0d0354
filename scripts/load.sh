#!/usr/bin/env bash
# Throughput and latency of every endpoint, against the release binary on 127.0.0.1.
#
#   bash scripts/load.sh                      (about 5 minutes with the defaults)
#   DURATION=10 CONCURRENCY="1 16 64" bash scripts/load.sh
#
# For each endpoint and each concurrency:
#   max   closed loop, as fast as it answers: requests/s.
#   fixed open loop at RATE_FRACTION of that throughput (oha -q with
#         --latency-correction, so a slow answer delays no later send and the
#         wait it causes is counted): p50 / p99 / p99.9 latency.
# Then the light endpoints' latency at a fixed rate while every search worker is
# kept busy by whole-deal /doudizhu/endgame searches (and /gomoku/move when the
# server has that route and scripts/bodies/gomoku_move.json exists), with and
# without that saturation, checking that the pool really is saturated.
#
# Environment:
#   DURATION         seconds per run (default 5)
#   CONCURRENCY      connection counts (default "1 16 64")
#   ENDPOINTS        names from scripts/bodies/NAME.json (default: every file there)
#   LIGHT            endpoints measured under saturation (default "moves split discard")
#   RATE_FRACTION    open-loop rate as a fraction of the measured maximum (default 0.25)
#   SATURATED_RATE   requests/s of each light endpoint under saturation (default 1000)
#   BENCH_LOG_LEVEL  server log level (default warn: one log line per request at
#                    info costs throughput)
#   GAMEBOT_BIN      use this binary instead of building target/release/gamebot
# Tools: oha (pinned in scripts/common.sh), installed on first use with cargo install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DURATION="${DURATION:-5}"
CONCURRENCY="${CONCURRENCY:-1 16 64}"
RATE_FRACTION="${RATE_FRACTION:-0.25}"
SATURATED_RATE="${SATURATED_RATE:-1000}"
LIGHT="${LIGHT:-moves split discard}"

declare -A ROUTE=(
  [moves]=/doudizhu/moves [split]=/doudizhu/split [bid]=/doudizhu/bid [play]=/doudizhu/play
  [endgame_cached]=/doudizhu/endgame [discard]=/mahjong/discard [claim]=/mahjong/claim
  [gomoku_move]=/gomoku/move [healthz]=/healthz
)

ensure_oha
build_release
start_server
WORKERS="$(metric gamebot_search_workers)"
log "server pid $SERVER_PID on $BASE_URL, $WORKERS search workers; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ -z "${ENDPOINTS:-}" ]]; then
  ENDPOINTS="healthz"
  for f in "$SCRIPTS"/bodies/*.json; do
    name="$(basename "$f" .json)"
    [[ -n "${ROUTE[$name]:-}" ]] || continue
    if route_exists "${ROUTE[$name]}" "$f"; then
      ENDPOINTS+=" $name"
    else
      log "skipping $name: ${ROUTE[$name]} is not served by this binary"
    fi
  done
fi

RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/gamebot-load.XXXXXX")"
BACKGROUND_PIDS=()
trap 'cleanup; rm -rf "$RESULTS"' EXIT

# oha NAME CONCURRENCY [extra flags...]: one run, JSON summary on stdout.
oha_run() {
  local name="$1" c="$2"
  shift 2
  local args=(-z "${DURATION}s" -c "$c" --no-tui --output-format json "$@")
  if [[ "$name" == healthz ]]; then
    "$OHA" "${args[@]}" "$BASE_URL/healthz"
  else
    "$OHA" "${args[@]}" -m POST -H 'content-type: application/json' \
      -D "$SCRIPTS/bodies/$name.json" "$BASE_URL${ROUTE[$name]}"
  fi
}

# Fields of an oha JSON summary: rps p50 p99 p99.9 (ms) ok_share statuses
summarize() {
  "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d["summary"], d["latencyPercentiles"]
codes = d.get("statusCodeDistribution", {})
total = sum(codes.values()) or 1
ms = lambda v: (v or 0) * 1000
print("%.0f %.3f %.3f %.3f %.4f %s" % (s["requestsPerSec"], ms(p["p50"]), ms(p["p99"]), ms(p["p99.9"]),
      codes.get("200", 0) / total, ",".join("%s:%d" % kv for kv in sorted(codes.items())) or "-"))
' "$1"
}

printf '\n%-15s %4s  %10s  %9s %9s %9s  %10s  %s\n' endpoint c "max req/s" "p50 ms" "p99 ms" "p99.9 ms" "at req/s" "statuses (fixed-rate run)"
for name in $ENDPOINTS; do
  for c in $CONCURRENCY; do
    oha_run "$name" "$c" >"$RESULTS/$name-$c-max.json"
    read -r max _ _ _ _ _ < <(summarize "$RESULTS/$name-$c-max.json")
    rate="$("$PYTHON" -c "print(max(1, int($max * $RATE_FRACTION)))")"
    oha_run "$name" "$c" -q "$rate" --latency-correction >"$RESULTS/$name-$c-fixed.json"
    read -r _ p50 p99 p999 _ codes < <(summarize "$RESULTS/$name-$c-fixed.json")
    printf '%-15s %4s  %10s  %9s %9s %9s  %10s  %s\n' "$name" "$c" "$max" "$p50" "$p99" "$p999" "$rate" "$codes"
  done
done

# --- light endpoints while the search pool is saturated -------------------------------------
saturators=$((WORKERS * 2))
gomoku_args=()
if [[ -f "$SCRIPTS/bodies/gomoku_move.json" ]] && route_exists /gomoku/move "$SCRIPTS/bodies/gomoku_move.json"; then
  gomoku_args=(--gomoku-body "$(cat "$SCRIPTS/bodies/gomoku_move.json")")
fi
sat_seconds=$((DURATION * $(wc -w <<<"$LIGHT") * 2 + 30))
"$PYTHON" "$SCRIPTS/traffic.py" saturate --url "$BASE_URL" --concurrency "$saturators" \
  --budget-ms 2000 --seconds "$sat_seconds" "${gomoku_args[@]}" >"$RESULTS/saturate.txt" 2>&1 &
BACKGROUND_PIDS+=($!)
for _ in $(seq 1 100); do
  [[ "$(metric gamebot_searches_in_flight)" == "$WORKERS" ]] && break
  sleep 0.1
done

printf '\nlight endpoints at %s req/s (c=16), idle pool vs saturated pool (%s workers busy with %s outstanding searches%s)\n' \
  "$SATURATED_RATE" "$WORKERS" "$saturators" "${gomoku_args:+, gomoku mixed in}"
printf '%-15s  %-10s %9s %9s %9s  %s\n' endpoint pool "p50 ms" "p99 ms" "p99.9 ms" "in flight before/after"
for name in $LIGHT; do
  before="$(metric gamebot_searches_in_flight)"
  oha_run "$name" 16 -q "$SATURATED_RATE" --latency-correction >"$RESULTS/$name-sat.json"
  after="$(metric gamebot_searches_in_flight)"
  read -r _ p50 p99 p999 _ codes < <(summarize "$RESULTS/$name-sat.json")
  printf '%-15s  %-10s %9s %9s %9s  %s/%s  %s\n' "$name" saturated "$p50" "$p99" "$p999" "$before" "$after" "$codes"
done
kill -TERM "${BACKGROUND_PIDS[@]}" 2>/dev/null || true
wait "${BACKGROUND_PIDS[@]}" 2>/dev/null || true
BACKGROUND_PIDS=()
cat "$RESULTS/saturate.txt" >&2
for _ in $(seq 1 100); do
  [[ "$(metric gamebot_searches_in_flight)" == 0 ]] && break
  sleep 0.1
done
for name in $LIGHT; do
  oha_run "$name" 16 -q "$SATURATED_RATE" --latency-correction >"$RESULTS/$name-idle.json"
  read -r _ p50 p99 p999 _ codes < <(summarize "$RESULTS/$name-idle.json")
  printf '%-15s  %-10s %9s %9s %9s  %s  %s\n' "$name" idle "$p50" "$p99" "$p999" "0/0" "$codes"
done

printf '\nserver: %s; load average after: %s\n' "$(rss_line)" "$(cut -d' ' -f1-3 /proc/loadavg)"
