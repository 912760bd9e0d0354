# Sourced by the .ci scripts that need Debian packages. `debian_install PKG...` installs
# them with apt (through sudo when not root), quietly.

debian_install() {
  local sudo_if_needed=()
  [[ "$(id -u)" == 0 ]] || sudo_if_needed=(sudo)
  "${sudo_if_needed[@]}" apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "$@" >/dev/null
}
