# Sourced by the .ci scripts that test the release binary over HTTP: builds it, starts it on a
# free loopback port with the defaults (none of the caller's GAMEBOT_* settings but the log
# level), waits for /healthz, and stops it on every exit path.
#
# Before sourcing, set PYTHON (from .ci/venv.sh). `start_release_server` sets BASE_URL and
# SERVER_PID.

start_release_server() {
  cargo build --release --locked --quiet --bin gamebot
  local bin="${CARGO_TARGET_DIR:-$ROOT/target}/release/gamebot" port
  port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  BASE_URL="http://127.0.0.1:$port"
  env -u GAMEBOT_CONFIG GAMEBOT_LOG_LEVEL=warn "$bin" serve --listen "127.0.0.1:$port" &
  SERVER_PID=$!
  trap 'kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT
  for _ in $(seq 1 300); do
    "$PYTHON" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" \
      "$BASE_URL/healthz" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the release binary did not answer /healthz within 30 s" >&2
  return 1
}
