#!/bin/sh
# Resource bound on the corpus (issue 7, docs/robustness.md): every corpus model
# (CORPUS/models/* and CORPUS/ops/*) goes through `BUILD_DIR/tinyaot convert --stats`
# into a temporary directory and must convert with a peak heap of at most
# 10 x its size + MEMORY_FIXED_BYTES (tests/memory_bound.sh) within 5 s. Prints
# PASS/FAIL memory:<kind>/<name> per model, the largest use of the fixed allowance, and a closing
# "memory: N passed, N failed" line. (The hostile cases are checked the same way by
# tests/run_hostile_tests.sh.)
# usage: tests/run_memory_bound_tests.sh BUILD_DIR CORPUS_DIR
set -u
build=${1:?usage: run_memory_bound_tests.sh BUILD_DIR CORPUS_DIR}
corpus=${2:?usage: run_memory_bound_tests.sh BUILD_DIR CORPUS_DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/memory_bound.sh"
bin="$build/tinyaot"
[ -x "$bin" ] || { echo "FAIL memory: $bin not built"; echo "memory: 0 passed, 1 failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-memory-XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
worst=""
for d in "$corpus"/models/* "$corpus"/ops/*; do
  m="$d/model.tflite"
  [ -f "$m" ] || continue
  name="$(basename "$(dirname "$d")")/$(basename "$d")"
  rm -rf "$work/out"
  if ! timeout 10 "$bin" convert "$m" -o "$work/out" --stats >"$work/stdout" 2>"$work/err"; then
    echo "FAIL memory:$name: convert failed: $(head -n 1 "$work/err")"; failed=$((failed + 1)); continue
  fi
  line=$(grep '^tinyaot: stats:' "$work/stdout")
  why=$(stats_violation "$m" "$line")
  if [ -n "$why" ]; then
    echo "FAIL memory:$name: $why"; failed=$((failed + 1))
  else
    echo "PASS memory:$name"; passed=$((passed + 1))
  fi
  peak=$(echo "$line" | sed -n 's/.*peak heap \([0-9]*\) B.*/\1/p')
  excess=$((${peak:-0} - 10 * $(wc -c <"$m")))
  worst=$(printf '%s\n%s B (%s)\n' "$worst" "$excess" "$name" | sort -g | tail -n 1)
done
echo "memory: largest peak heap - 10 x model size: ${worst:-none} of the $MEMORY_FIXED_BYTES B allowed"
echo "memory: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
