#!/bin/sh
# Hostile-input regression suite (issue 7): every file in tests/hostile/cases goes
# through `BUILD_DIR/tinyaot convert FILE -o OUTDIR` and must be refused cleanly:
# non-zero exit within 5 s, exactly one stderr line "tinyaot: error: FILE: ...", no
# sanitizer report, nothing left in OUTDIR, and (non-ASan builds, when GNU time is
# installed) a peak RSS under 64 MiB + 10x the file size. tests/hostile/base_valid.tflite,
# the model the cases were derived from, must convert. Prints PASS/FAIL hostile:<name>
# per input and a closing "N passed, N failed" line.
# usage: tests/run_hostile_tests.sh BUILD_DIR
set -u
build=${1:?usage: run_hostile_tests.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cases="$here/hostile/cases"
bin="$build/tinyaot"
[ -x "$bin" ] || { echo "FAIL hostile: $bin not built"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-hostile-XXXXXX")
trap 'rm -rf "$work"' EXIT
timer=""
if grep -q __asan_init "$bin" 2>/dev/null; then :; elif [ -x /usr/bin/time ]; then timer=/usr/bin/time; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
passed=0
failed=0

check() { # $1 name, $2 file
  out="$work/out_$1"
  err="$work/err"
  rm -rf "$out"
  if [ -n "$timer" ]; then
    timeout 5 "$timer" -f '%M' -o "$work/rss" "$bin" convert "$2" -o "$out" >"$work/stdout" 2>"$err"
  else
    timeout 5 "$bin" convert "$2" -o "$out" >"$work/stdout" 2>"$err"
  fi
  rc=$?
  lines=$(wc -l <"$err")
  first=$(head -n 1 "$err")
  size=$(wc -c <"$2")
  if [ $rc -eq 124 ]; then echo "timed out after 5 s"
  elif grep -qE 'Sanitizer|runtime error:' "$err"; then echo "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "$err")"
  elif [ $rc -eq 0 ]; then echo "accepted (exit 0)"
  elif [ $rc -gt 2 ]; then echo "exit $rc (crash?): $first"
  elif [ "$lines" -ne 1 ]; then echo "$lines lines on stderr: $(tr '\n' '|' <"$err" | cut -c1-200)"
  else
    case "$first" in
      "tinyaot: error: $2: "?*) ;;
      *) echo "stderr is not 'tinyaot: error: $2: <problem>': $first"; return ;;
    esac
    if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then echo "files left in the output directory: $(ls -A "$out" | head -n 3 | tr '\n' ' ')"; return; fi
    if [ -n "$timer" ] && [ -s "$work/rss" ]; then
      rss_kb=$(tail -n 1 "$work/rss")
      if [ "$rss_kb" -gt $((65536 + 10 * size / 1024)) ]; then echo "peak RSS ${rss_kb} KiB for a ${size}-byte model"; return; fi
    fi
  fi
}

if [ -f "$here/hostile/base_valid.tflite" ]; then
  if "$bin" convert "$here/hostile/base_valid.tflite" -o "$work/base" >/dev/null 2>"$work/err"; then
    echo "PASS hostile:base_valid"; passed=$((passed + 1))
  else
    echo "FAIL hostile:base_valid: the unmodified model does not convert: $(head -n 1 "$work/err")"; failed=$((failed + 1))
  fi
fi
for f in "$cases"/*; do
  [ -f "$f" ] || continue
  name=$(basename "$f"); name=${name%.*}
  why=$(check "$name" "$f")
  if [ -z "$why" ]; then
    echo "PASS hostile:$name"; passed=$((passed + 1))
  else
    echo "FAIL hostile:$name: $why"; failed=$((failed + 1))
  fi
done
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
