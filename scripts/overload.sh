#!/usr/bin/env bash
# Overload: ten times more search requests than workers, against the release binary.
#
#   bash scripts/overload.sh            (about a minute)
#
# Two configurations of the same binary:
#   queue    the default max_queued (32): all 10 x workers searches are admitted;
#            each must answer within its budget (counted from arrival, so time
#            spent queued is part of it) + SLACK_MS.
#   shed     max_queued = 2: most of the burst is refused at once with 503 and
#            Retry-After; the admitted ones answer within budget + SLACK_MS.
# Each runs WAVES bursts of whole-deal /doudizhu/endgame searches (never solved
# within the budget, so every worker is held for the whole budget), then checks
# that cheap and search routes answer normally at once, and reports peak RSS
# (VmHWM of /proc/PID/status).
#
# Environment: WORKERS (default 2), FACTOR (10), BUDGET_MS (500), SLACK_MS (250),
# WAVES (3), GAMEBOT_BIN.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

WORKERS="${WORKERS:-2}"
FACTOR="${FACTOR:-10}"
BUDGET_MS="${BUDGET_MS:-500}"
SLACK_MS="${SLACK_MS:-250}"
WAVES="${WAVES:-3}"

build_release
status=0
for mode in queue shed; do
  settings=(GAMEBOT_WORKERS="$WORKERS")
  [[ "$mode" == shed ]] && settings+=(GAMEBOT_MAX_QUEUED=2)
  start_server "${settings[@]}"
  printf '\n== %s: workers %s, max_queued %s (pid %s; load average %s)\n' "$mode" "$WORKERS" \
    "$([[ $mode == shed ]] && echo 2 || echo 32)" "$SERVER_PID" "$(cut -d' ' -f1-3 /proc/loadavg)"
  "$PYTHON" "$SCRIPTS/traffic.py" overload --url "$BASE_URL" --pid "$SERVER_PID" \
    --workers "$WORKERS" --factor "$FACTOR" --budget-ms "$BUDGET_MS" --slack-ms "$SLACK_MS" \
    --waves "$WAVES" || status=1
  stop_server || { log "FAIL: the server exited with status $? on SIGTERM"; status=1; }
done
exit "$status"
