#!/usr/bin/env bash
# Soak: mixed traffic for a fixed time against the release binary (default config).
#
#   bash scripts/soak.sh                 (10 minutes)
#   SOAK_SECONDS=60 bash scripts/soak.sh (a quick look)
#
# RATE requests/s in all, open loop over CLIENTS clients: random valid requests to
# every route (random deals, so searches are new positions that fill the cache
# and evict from it), 10% endgame searches, 5% bot plays, 3% invalid requests
# that must get 422. Every SAMPLE_EVERY seconds: RSS (VmRSS) and the cache's
# entries and bytes from /metrics. Fails on any unexpected status or connection
# error, or when RSS grows by more than RSS_SLACK_MIB over the last third of the
# run: RSS rises while the cache's fixed-size table is first touched, then must
# stay flat.
#
# Environment: SOAK_SECONDS (600), RATE (200), CLIENTS (16), SAMPLE_EVERY (30),
# RSS_SLACK_MIB (32), GAMEBOT_BIN.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_release
start_server
log "server pid $SERVER_PID on $BASE_URL; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$PYTHON" "$SCRIPTS/traffic.py" soak --url "$BASE_URL" --pid "$SERVER_PID" \
  --seconds "${SOAK_SECONDS:-600}" --rate "${RATE:-200}" --clients "${CLIENTS:-16}" \
  --sample-every "${SAMPLE_EVERY:-30}" --rss-slack-mib "${RSS_SLACK_MIB:-32}"
