#!/bin/sh
# `make test-full`, last part: the differential sweeps of issue 29 at their long budgets
# (TEST_FULL=1): rounding ties, the kernel tiers' coverage matrix, rewrite chains, the int16
# elementwise operators and fuzz-diff on the host and QEMU Cortex-M4/M55 (the fuzzer's seed
# is random there and printed). make test runs the same suites at their short budgets.
# usage: tests/run_full_sweeps.sh BUILD CORPUS
build=${1:-build}
corpus=${2:-../shared/corpus}
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-sweeps-XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/results"
for s in ties tier_matrix rewrite_chains s16_elementwise fuzz_diff_targets; do
  suite="tests/suites/$s.sh"
  [ -f "$suite" ] || continue
  echo "== $s (TEST_FULL=1)"
  mkdir -p "$work/$s"
  TEST_FULL=1 sh "$suite" "$build" "$corpus" "$work/$s" 2>&1 | tee "$work/$s.out" | grep -E '^(FAIL|SKIP) |seed'
  grep -E '^(PASS|FAIL|SKIP) ' "$work/$s.out" >>"$work/results"
done
passed=$(grep -c '^PASS' "$work/results")
failed=$(grep -c '^FAIL' "$work/results")
echo "sweeps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
