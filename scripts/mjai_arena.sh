#!/usr/bin/env bash
# A seeded 4-player Riichi arena on Mortal's rules engine (the mjai package on
# PyPI): a candidate against three reference bots on duplicate walls. See the
# docstring of scripts/mjai_arena.py for what it measures.
#
#   bash scripts/mjai_arena.sh --candidate rulebase --opponents rulebase --games 8
#   bash scripts/mjai_arena.sh --candidate riichibot --games 8 --jobs 2
#   cargo build --release --locked &&
#   bash scripts/mjai_arena.sh --candidate "stdio:target/release/gamebot mjai {seat}" --games 40 --jobs 2
#
# The first run makes a venv under target/mjai-venv (MJAI_VENV overrides) with
# mjai==0.2.1 (its declared dependencies are not needed, hence --no-deps),
# loguru and requests. Runs from the repository root.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${MJAI_VENV:-target/mjai-venv}"
PYTHON="${PYTHON:-python3}"

if [[ ! -f "$VENV/.mjai-arena-ready" ]]; then
  echo "mjai_arena: setting up $VENV" >&2
  "$PYTHON" -m venv --clear "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps mjai==0.2.1
  "$VENV/bin/pip" install --quiet --disable-pip-version-check loguru requests
  touch "$VENV/.mjai-arena-ready"
fi
exec "$VENV/bin/python" scripts/mjai_arena.py "$@"
