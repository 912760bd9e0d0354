#!/usr/bin/env bash
# Dou Dizhu arena on RLCard's own engine: gamebot against RLCard's rule agent,
# RLCard's engine as referee. See the docstring of scripts/rlcard_arena.py.
#
#   bash scripts/rlcard_arena.sh --deals 200 --seed 1 [--objective score]
#   bash scripts/rlcard_arena.sh --deals 200 --seed 1 --bidding --doubling [--bidders baseline]
#
# Builds the release binary, starts it on a free port of 127.0.0.1 (stopped
# on exit), and runs the arena against it. The first run makes a venv under
# target/rlcard-venv (RLCARD_VENV overrides) with rlcard==1.2.0 and numpy.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
VENV="${RLCARD_VENV:-target/rlcard-venv}"

if [[ ! -f "$VENV/.rlcard-arena-ready" ]]; then
  log "setting up $VENV"
  "$PYTHON" -m venv --clear "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check rlcard==1.2.0 numpy
  touch "$VENV/.rlcard-arena-ready"
fi
build_release
trap stop_server EXIT
start_server
"$VENV/bin/python" scripts/rlcard_arena.py --url "$BASE_URL" "$@"
