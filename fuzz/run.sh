#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS each (default 10), from its committed seeds, with a
# 10-second limit per input and 2 GiB of memory; fails on the first crash, timeout or
# out-of-memory (libFuzzer leaves the input in fuzz/artifacts/TARGET/). Prints each target's
# executions. The targets are built with debug assertions and overflow checks (which also check
# the preconditions of `get_unchecked` in the unsafe kernels) and without AddressSanitizer, which
# would make each run several times slower; SANITIZER=address puts it back. Needs the nightly toolchain and cargo-fuzz:  fuzz/run.sh [SECONDS] [TARGET...]
# With RUNS=N in the environment each target runs N inputs instead, however long that takes.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-10}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-O -a -s "${SANITIZER:-none}")
cargo +nightly fuzz build "${flags[@]}" >/dev/null 2>&1 || cargo +nightly fuzz build "${flags[@]}"
total=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  if [ -n "${RUNS:-}" ]; then budget=(-runs="$RUNS"); else budget=(-max_total_time="$secs"); fi
  # new inputs go to the first directory (a scratch one): the committed seeds stay as they are
  if ! cargo +nightly fuzz run "${flags[@]}" "$t" "$work/$t" "corpus/$t" -- \
      "${budget[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      >"$work/$t.log" 2>&1; then
    tail -40 "$work/$t.log"
    echo "fuzz target $t failed (the input is in fuzz/artifacts/$t/)"
    exit 1
  fi
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
  total=$((total + n))
  echo "fuzz $t: $n executions ($(sed -n 's/^Done .* in \([0-9]*\) second.*/\1 s/p' "$work/$t.log")), no crash, timeout or out-of-memory"
done
echo "fuzz: $total executions in all"
