#!/usr/bin/env bash
# The playground page in a real browser: Debian's Chromium and chromedriver,
# Selenium from PyPI, the release binary on a loopback port.
#
#   bash .ci/playground.sh [OUTPUT_DIR]
#
# Screenshots of every panel go to OUTPUT_DIR (default target/playground);
# docs/playground/ holds the ones the README links (copy them from there).
# A trap stops the server on every exit path.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
REQUIREMENTS=("selenium==4.51.0")
log() { printf 'playground: %s\n' "$*"; }
source "$ROOT/.ci/venv.sh"
source "$ROOT/.ci/debian.sh"
VENV="$CACHE/playground-venv"
OUT="${1:-${CARGO_TARGET_DIR:-$ROOT/target}/playground}"

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  log "installing chromium and chromium-driver (Debian)"
  debian_install chromium chromium-driver
fi
setup_venv "$VENV" python

source "$ROOT/.ci/serve.sh"
start_release_server

# Selenium is given the system driver, so it never looks for one online.
SE_OFFLINE=true timeout 600 "$VENV/bin/python" tests/browser/playground.py "$BASE_URL" "$OUT"
log "screenshots in $OUT"
