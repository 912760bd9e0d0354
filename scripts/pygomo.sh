#!/usr/bin/env bash
# The Gomocup brain driven by a protocol client we did not write: pygomo-lib
# (PyPI), the manager's side of the piskvork protocol, plays pbrain-gamebot
# against itself and referees with its own board (scripts/pygomo_match.py).
#
#   bash scripts/pygomo.sh                       (10 games per rule, 200 ms a move)
#   bash scripts/pygomo.sh --games 4 --ms 100
#
# Installs pygomo-lib (pinned) into a venv under the bench tools directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PYGOMO_VERSION="${PYGOMO_VERSION:-0.1.1}"
VENV="$TOOLS/pygomo-venv"
if ! "$VENV/bin/python" -c "import pygomo, sys; sys.exit(pygomo.__version__ != '$PYGOMO_VERSION')" 2>/dev/null; then
  log "setting up $VENV (pygomo-lib==$PYGOMO_VERSION)"
  mkdir -p "$TOOLS"
  "$PYTHON" -m venv --clear "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "pygomo-lib==$PYGOMO_VERSION"
fi
cargo build --release --quiet --bin pbrain-gamebot --manifest-path "$ROOT/Cargo.toml"
exec "$VENV/bin/python" "$SCRIPTS/pygomo_match.py" "$ROOT/target/release/pbrain-gamebot" "$@"
