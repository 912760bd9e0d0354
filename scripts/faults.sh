#!/usr/bin/env bash
# Faults against live processes (complements tests/api/search_pool.rs and shutdown.rs):
#
#   bash scripts/faults.sh              (about half a minute)
#
#   disconnect  (release binary, 1 worker) a client sends a 10 s whole-deal endgame
#               search and closes its connection 0.3 s later: the worker must be
#               free again (gamebot_searches_in_flight = 0) within milliseconds,
#               and the next search is served.
#   panic       (examples/fault_server.rs: the same app plus two routes that panic,
#               in a handler and in a search; the release binary has no such route)
#               each answers a 500 problem, and the process keeps serving.
#   drain       (release binary) CLIENTS clients send mixed requests (30% searches),
#               each on a fresh connection, for DRAIN_SECONDS; SIGTERM arrives after
#               TERM_AFTER seconds. Every request whose connection was accepted must
#               get a complete answer; clients stop once connections are refused;
#               the process must exit 0.
#
# Environment: CLIENTS (16), DRAIN_SECONDS (8), TERM_AFTER (2), GAMEBOT_BIN.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CLIENTS="${CLIENTS:-16}"
DRAIN_SECONDS="${DRAIN_SECONDS:-8}"
TERM_AFTER="${TERM_AFTER:-2}"
status=0

build_release

printf '\n== disconnect\n'
start_server GAMEBOT_WORKERS=1
"$PYTHON" "$SCRIPTS/traffic.py" disconnect --url "$BASE_URL" || status=1
stop_server || status=1

printf '\n== panic\n'
log "cargo build --release --locked --example fault_server"
(cd "$ROOT" && cargo build --release --locked --quiet --example fault_server) || die "build failed"
start_server GAMEBOT_LOG_LEVEL=error -- "${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/fault_server"
"$PYTHON" "$SCRIPTS/traffic.py" panic --url "$BASE_URL" || status=1
stop_server || status=1

printf '\n== drain\n'
start_server GAMEBOT_WORKERS=2
pid="$SERVER_PID"
"$PYTHON" "$SCRIPTS/traffic.py" drain --url "$BASE_URL" --pid "$pid" --clients "$CLIENTS" \
  --seconds "$DRAIN_SECONDS" --term-after "$TERM_AFTER" --budget-ms 300 || status=1
rc=0
wait "$pid" || rc=$?
SERVER_PID=""
if ((rc == 0)); then
  echo "PASS the server exited 0 after SIGTERM"
else
  echo "FAIL the server exited with status $rc after SIGTERM"
  tail -n 20 "$SERVER_LOG"
  status=1
fi
exit "$status"
