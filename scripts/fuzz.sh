#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets/) for a fixed time each.
#
#   bash scripts/fuzz.sh                  (4 targets x 120 s)
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh request
#
# Stable toolchain: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its -Z flags, and
# `-s none` builds without a sanitizer (Rust's own checks stay on: overflow and
# debug assertions, -a). A corpus per target lives in fuzz/corpus/NAME (not
# committed), started from the committed fuzz/seeds/NAME. A crash leaves its
# input in fuzz/artifacts/NAME/ and fails this script; reproduce it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -s none -a NAME fuzz/artifacts/NAME/crash-...
#
# Environment: FUZZ_SECONDS per target (default 120), FUZZ_JOBS parallel
# processes per target (default 1), FUZZ_MAX_LEN (default 8192).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

FUZZ_SECONDS="${FUZZ_SECONDS:-120}"
FUZZ_JOBS="${FUZZ_JOBS:-1}"
FUZZ_MAX_LEN="${FUZZ_MAX_LEN:-8192}"
ensure_cargo_fuzz
export RUSTC_BOOTSTRAP=1
cd "$ROOT"

targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(cargo fuzz list)
fi
log "building ${targets[*]}"
cargo fuzz build -s none -a >&2

status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  extra=()
  [[ "$t" == request ]] && extra+=(-dict=fuzz/fuzz.dict)
  # -jobs > 1 runs child processes that log to fuzz-N.log files instead.
  ((FUZZ_JOBS > 1)) && extra+=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
  log "$t: ${FUZZ_SECONDS} s"
  if cargo fuzz run -s none -a "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$FUZZ_SECONDS" -max_len="$FUZZ_MAX_LEN" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "${extra[@]}" \
    >"fuzz/$t.log" 2>&1; then
    summary="$(grep -E '^(#[0-9]+|stat::number_of_executed_units|stat::average_exec_per_sec)' "fuzz/$t.log" | tail -3 | tr '\n' ' ')"
    printf 'PASS %-8s %s s: %s corpus %s inputs\n' "$t" "$FUZZ_SECONDS" "$summary" "$(ls "fuzz/corpus/$t" | wc -l)"
  else
    printf 'FAIL %-8s see fuzz/%s.log and fuzz/artifacts/%s/\n' "$t" "$t" "$t"
    grep -E 'panicked|ERROR|SUMMARY' "fuzz/$t.log" | head -5
    status=1
  fi
done
exit "$status"
