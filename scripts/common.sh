# Shared by the scripts in scripts/ (sourced, not run): building, tools, starting and
# stopping a server on 127.0.0.1. Everything here is bounded in time and stops
# what it starts.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRIPTS="$ROOT/scripts"
# Tools (oha, cargo-fuzz) go into a cache directory, never into ~/.cargo/bin.
TOOLS="${GAMEBOT_BENCH_TOOLS:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/gamebot-bench}"
PYTHON="${PYTHON:-python3}"
# Pinned so that numbers are comparable between runs; bump deliberately.
OHA_VERSION="${OHA_VERSION:-1.16.0}"
CARGO_FUZZ_VERSION="${CARGO_FUZZ_VERSION:-0.13.2}"

log() { printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# cargo install NAME@VERSION into $TOOLS unless that version is there already.
install_tool() {
  local name="$1" version="$2" bin="$3"
  if [[ -x "$TOOLS/bin/$bin" ]] && grep -qs "^$name $version" "$TOOLS/.installed"; then
    return 0
  fi
  log "installing $name $version into $TOOLS (cargo install --locked; first time only)"
  mkdir -p "$TOOLS"
  cargo install --locked --quiet --root "$TOOLS" "$name@$version" >&2
  sed -i "/^$name /d" "$TOOLS/.installed" 2>/dev/null || true
  echo "$name $version" >>"$TOOLS/.installed"
}

ensure_oha() {
  install_tool oha "$OHA_VERSION" oha
  OHA="$TOOLS/bin/oha"
}

ensure_cargo_fuzz() {
  install_tool cargo-fuzz "$CARGO_FUZZ_VERSION" cargo-fuzz
  export PATH="$TOOLS/bin:$PATH"
}

# Builds the release binary (a no-op when up to date) unless GAMEBOT_BIN is set.
build_release() {
  if [[ -n "${GAMEBOT_BIN:-}" ]]; then
    BIN="$GAMEBOT_BIN"
  else
    log "cargo build --release --locked --bin gamebot"
    (cd "$ROOT" && cargo build --release --locked --quiet --bin gamebot) || die "build failed"
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/gamebot"
  fi
}

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# GET a path of the running server; prints the body, fails unless 200.
http_get() {
  "$PYTHON" - "$BASE_URL$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    sys.stdout.buffer.write(r.read())
PY
}

# HTTP status of POST path with a JSON body file (000 when the connection fails).
http_post_status() {
  "$PYTHON" - "$BASE_URL$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[1], data=open(sys.argv[2], "rb").read(),
                             headers={"content-type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        print(r.status)
except urllib.error.HTTPError as e:
    print(e.code)
except OSError:
    print("000")
PY
}

SERVER_PID=""
SERVER_LOG=""
# start_server [VAR=value ...] [-- command...]: starts $BIN serve (or the given
# command, which must take the listen address as its last argument) on a free
# port with the defaults plus the given GAMEBOT_* settings, and waits for
# /healthz. Sets PORT, BASE_URL, SERVER_PID.
start_server() {
  local settings=() cmd=()
  while (($#)); do
    if [[ "$1" == "--" ]]; then
      shift
      cmd=("$@")
      break
    fi
    settings+=("$1")
    shift
  done
  PORT="$(free_port)"
  BASE_URL="http://127.0.0.1:$PORT"
  SERVER_LOG="$(mktemp "${TMPDIR:-/tmp}/gamebot-bench-server.XXXXXX")"
  # The defaults plus what the script asks for: none of the caller's GAMEBOT_*.
  local unset_env=()
  while IFS= read -r name; do unset_env+=(-u "$name"); done < <(compgen -e | grep '^GAMEBOT_' || true)
  if ((${#cmd[@]})); then
    env "${unset_env[@]}" "${settings[@]}" "${cmd[@]}" "127.0.0.1:$PORT" >"$SERVER_LOG" 2>&1 &
  else
    env "${unset_env[@]}" GAMEBOT_LOG_LEVEL="${BENCH_LOG_LEVEL:-warn}" "${settings[@]}" \
      "$BIN" serve --listen "127.0.0.1:$PORT" --log-format json >"$SERVER_LOG" 2>&1 &
  fi
  SERVER_PID=$!
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    kill -0 "$SERVER_PID" 2>/dev/null || {
      cat "$SERVER_LOG" >&2
      die "the server exited before answering /healthz"
    }
    http_get /healthz >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  die "no /healthz answer within 60 s"
}

# SIGTERM, then up to 20 s for the drain, then SIGKILL. Prints the exit status.
stop_server() {
  [[ -n "$SERVER_PID" ]] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 1 200); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  local rc=0
  wait "$SERVER_PID" 2>/dev/null || rc=$?
  SERVER_PID=""
  return "$rc"
}

BACKGROUND_PIDS=()
cleanup() {
  local pid
  for pid in "${BACKGROUND_PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  stop_server || true
  if [[ -n "$SERVER_LOG" ]]; then rm -f "$SERVER_LOG"; fi
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Peak and current RSS of the server, in MiB.
rss_line() {
  awk '/^VmHWM|^VmRSS/ {printf "%s %.0f MiB  ", $1, $2 / 1024}' "/proc/$SERVER_PID/status"
  echo
}

# One metric's value from /metrics.
metric() {
  http_get /metrics | awk -v name="$1" '$1 == name {print $2}'
}

# The routes of the running server that answer something other than 404:
# a route from a later version (e.g. /gomoku/move) joins in when present.
route_exists() {
  local status
  status="$(http_post_status "$1" "$2")"
  [[ "$status" != 404 && "$status" != 000 ]]
}
