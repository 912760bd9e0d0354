# Sourced by the .ci scripts that need Python tools: one pinned venv per script, in a cache dir
# that later runs reuse.
#
# Before sourcing, set REQUIREMENTS (pinned pip specs) and define log(). Sets CACHE and PYTHON;
# `setup_venv DIR CHECK` (re)builds the venv DIR unless bin/CHECK is there and was installed from
# exactly the current REQUIREMENTS.

CACHE="${CI_TOOL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/gamebot-ci}"
PYTHON="${PYTHON:-python3}"

setup_venv() {
  local venv="$1" check="$2" want have=""
  want="$(printf '%s\n' "${REQUIREMENTS[@]}")"
  [[ -f "$venv/.requirements" ]] && have="$(cat "$venv/.requirements")"
  if [[ -x "$venv/bin/$check" && "$have" == "$want" ]]; then
    return 0
  fi
  log "setting up $venv (${REQUIREMENTS[*]})"
  mkdir -p "$CACHE"
  "$PYTHON" -m venv --clear "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}"
  printf '%s\n' "$want" >"$venv/.requirements"
}
