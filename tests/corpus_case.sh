#!/bin/sh
# Runs every case of one corpus directory through `tinyaot run` and compares the
# outputs as its manifest says. Prints one line: PASS/FAIL/SKIP <name> [reason].
# usage: tests/corpus_case.sh CORPUS_DIR [BUILD_DIR] [WORK_DIR]
# Every corpus case (models/, ops/ and ops-new/) must convert and match: tinyaot covers
# every operator and dtype of the corpus, so a refusal, including "unsupported operator",
# is a FAIL ("FAIL <kind>/<case>: not supported: <reason>").
# $TINYAOT_RUN_ARGS is appended to `tinyaot run` (e.g. a placement --config).
dir=${1%/}
build=${2:-build}
work=${3:-${TMPDIR:-/tmp}/tinyaot-case-$$}
name=$(basename "$dir")
kind=$(basename "$(dirname "$dir")")
out="$work/$kind/$name"
rm -rf "$out"
mkdir -p "$out"
compare=exact
grep -q '"compare": *"float32' "$dir/manifest.json" && compare=float32
cases=""
for c in "$dir"/case_*; do
  [ -d "$c" ] && cases="$cases --case $c"
done
if [ -z "$cases" ]; then
  echo "FAIL $kind/$name: no cases"
  exit 1
fi
# shellcheck disable=SC2086
if ! "$build/tinyaot" run "$dir/model.tflite" $cases --out-dir "$out" ${TINYAOT_RUN_ARGS:-} >"$out/log" 2>&1; then
  reason=$(grep -m1 'error' "$out/log" | sed 's/^tinyaot: error: [^:]*: //')
  [ -n "$reason" ] || reason=$(tail -n 3 "$out/log" | tr '\n' ' ')
  case "$reason" in
    *"unsupported operator"*|"operator "[0-9]*" ("*"): "*) echo "FAIL $kind/$name: not supported: $reason" ;;
    *) echo "FAIL $kind/$name: $reason" ;;
  esac
  exit 1
fi
status=0
for c in "$dir"/case_*; do
  cn=$(basename "$c")
  for g in "$c"/out*.bin; do
    o="$out/$cn/$(basename "$g")"
    if ! msg=$("$build/compare" "$compare" "$g" "$o" 2>&1); then
      echo "FAIL $kind/$name: $cn/$(basename "$g"): $msg"
      status=1
      break 2
    fi
  done
done
[ $status -eq 0 ] && echo "PASS $kind/$name"
rm -rf "$out"
exit $status
