#!/usr/bin/env bash
# The client examples (examples/clients/: Python with requests, Node with fetch, Go with
# net/http) run against the real release binary; each asserts what it gets back.
#
#   bash .ci/clients.sh
#
# Installs what is missing: requests into a pinned venv (cached like the other .ci tools),
# Debian's golang-go when `go` is not on PATH. Node is the machine's own (18+ for fetch).
# A trap stops the server on every exit path.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
REQUIREMENTS=("requests==2.32.3")
log() { printf 'clients: %s\n' "$*"; }
source "$ROOT/.ci/venv.sh"
source "$ROOT/.ci/debian.sh"
VENV="$CACHE/clients-venv"

source "$ROOT/.ci/serve.sh"
setup_venv "$VENV" python
if ! command -v go >/dev/null 2>&1; then
  log "installing golang-go (Debian)"
  debian_install golang-go
fi

start_release_server

status=0
run() {
  local name="$1"
  shift
  if "$@"; then log "PASS $name"; else log "FAIL $name"; status=1; fi
}
run python "$VENV/bin/python" examples/clients/python_client.py "$BASE_URL"
run node node examples/clients/node_client.mjs "$BASE_URL"
run go env GOCACHE="${CACHE}/go-build" GOPATH="${CACHE}/go" GO111MODULE=off \
  go run examples/clients/go_client.go "$BASE_URL"
exit "$status"
