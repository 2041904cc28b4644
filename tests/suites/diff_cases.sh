#!/bin/sh
# Differential fuzzing (issue 16 item 3; docs/robustness.md, "Differential fuzzing"):
#  - every regression case fuzz-diff found (tests/diff_cases/<name>/, corpus layout, outputs
#    from TensorFlow Lite Micro's reference runner) through tests/corpus_case.sh;
#  - the generator is deterministic and its comparison catches a one-byte difference;
#  - a module of more than 64 files (many kernel families) converts;
#  - a short fuzz-diff run (50 random graphs) against the reference runner.
# usage: sh tests/suites/diff_cases.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup diff_cases "$@" || { fail setup "no work folder"; exit 0; }
oracle=${ORACLE:-$corpus/../oracle/tflm_ref}

# a case found on a target (manifest "target": "m4" / "m55") also runs there, on QEMU
case_target() { sed -n 's/.*"target": *"\(m4\|m55\)".*/\1/p' "$1/manifest.json" 2>/dev/null | head -n 1; }
for dir in "$TA_ROOT"/tests/diff_cases/*/; do
  [ -f "$dir/model.tflite" ] || continue
  n=$(basename "$dir")
  # tests/corpus_case.sh: one line "PASS|FAIL|SKIP <kind>/<name>[: why | (what)]"
  line=$(sh "$TA_ROOT/tests/corpus_case.sh" "$dir" "$build" "$work/cases")
  echo "$line" | sed "s#^\([A-Z]*\) [^ :]*/$n#\1 $suite_label:$n#"
  core=$(case_target "$dir")
  [ -n "$core" ] || continue
  if ! command -v qemu-system-arm >/dev/null 2>&1; then fail "$n:$core" "qemu-system-arm missing"; continue; fi
  rm -rf "$work/t_$n"
  if ! sh "$TA_ROOT/target/run_case.sh" --core "$core" --name fz --model "$dir/model.tflite" --case "$dir/case_0" \
       --out "$work/t_$n" --tinyaot "$build/tinyaot" >"$work/t_$n.log" 2>&1; then
    fail "$n:$core" "run_case.sh: $(tail -n 1 "$work/t_$n.log")"; continue
  fi
  ok=1 mode=exact
  grep -q '"compare": *"float32' "$dir/manifest.json" && mode=float32
  for g in "$dir"/case_0/out*.bin; do
    msg=$("$build/compare" "$mode" "$g" "$work/t_$n/run/$(basename "$g")" 2>&1) || { ok=0; break; }
  done
  if [ $ok = 1 ]; then pass "$n:$core"; else fail "$n:$core" "$msg"; fi
  rm -rf "$work/t_$n"
done

gen="$work/fuzz_diff_gen"
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
  "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen_build.log" 2>&1; then
  fail fuzz_diff_build "$(head -n 1 "$work/gen_build.log")"
  exit 0
fi

# Same arguments, same bytes; another seed, other bytes.
rm -rf "$work/d1" "$work/d2" "$work/d3"
"$gen" gen 5 3 10 "$work/d1" >/dev/null && "$gen" gen 5 3 10 "$work/d2" >/dev/null && "$gen" gen 6 3 10 "$work/d3" >/dev/null
if cmp -s "$work/d1/model.tflite" "$work/d2/model.tflite" && cmp -s "$work/d1/case_0/in0.bin" "$work/d2/case_0/in0.bin" &&
  ! cmp -s "$work/d1/model.tflite" "$work/d3/model.tflite"; then
  pass fuzz_diff_deterministic
else
  fail fuzz_diff_deterministic "the same seed gave different files, or another seed the same"
fi

# The comparison must see a single changed byte (and accept identical outputs).
mkdir -p "$work/d1/a" "$work/d1/b"
n=$(wc -l <"$work/d1/outputs.txt")
i=0
while [ $i -lt "$n" ]; do
  printf 'abcdefgh' >"$work/d1/a/out$i.bin"
  printf 'abcdefgh' >"$work/d1/b/out$i.bin"
  i=$((i + 1))
done
same=0
"$gen" compare "$work/d1" "$work/d1/a" "$work/d1/b" >/dev/null && same=1
printf 'abcdefgi' >"$work/d1/b/out$((n - 1)).bin"
if [ $same -eq 1 ] && ! "$gen" compare "$work/d1" "$work/d1/a" "$work/d1/b" >/dev/null; then
  pass fuzz_diff_compare_detects
else
  fail fuzz_diff_compare_detects "equal outputs rejected or a changed byte missed"
fi

# A file of 40 random graphs needs more than 64 module files (kernel families, a .c and a .h
# each): once refused ("the module has more than 64 files", found by fuzz-diff); it must convert.
rm -rf "$work/many"
if "$gen" gen 7000 0 40 "$work/many" >/dev/null && "$build/tinyaot" convert "$work/many/model.tflite" \
  -o "$work/many/out" >"$work/many.log" 2>&1; then
  n=$(find "$work/many/out" -type f ! -name .tinyaot-manifest | wc -l)
  if [ "$n" -gt 64 ]; then pass "fuzz_diff_many_module_files ($n files)"
  else fail fuzz_diff_many_module_files "only $n files (the test needs more than 64)"; fi
else
  fail fuzz_diff_many_module_files "$(tail -n 1 "$work/many.log")"
fi

if [ ! -x "$oracle" ]; then
  skip fuzz_diff_smoke "no reference runner at $oracle"
  skip fuzz_diff_finds_injected_bug "no reference runner at $oracle"
  exit 0
fi

# The driver must catch a wrong tinyaot: a test double that flips the first byte of
# case_0/out0.bin; the mismatch must be reported and written as a case, tinyaot's output in it.
fake="$work/fake"
rm -rf "$fake"
mkdir -p "$fake"
cp "$gen" "$fake/fuzz_diff_gen"
real=$(cd "$build" && pwd)/tinyaot
{
  echo '#!/bin/sh'
  echo "\"$real\" \"\$@\" || exit \$?"
  echo 'for a in "$@"; do [ "$prev" = --out-dir ] && dir=$a; prev=$a; done'
  echo 'f="$dir/case_0/out0.bin"'
  echo '[ -f "$f" ] || exit 0'
  echo 'b=$(od -An -tu1 -N1 "$f" | tr -d " ")'
  echo 'printf "\\$(printf %o $(( (b + 1) % 256 )))" | dd of="$f" bs=1 count=1 conv=notrunc 2>/dev/null'
} >"$fake/tinyaot"
chmod +x "$fake/tinyaot"
FUZZ_DIFF_MODELS=4 FUZZ_DIFF_GRAPHS=4 FUZZ_DIFF_JOBS=1 FUZZ_DIFF_SEED=5 FUZZ_DIFF_OUT="$fake/out" \
  sh "$TA_ROOT/tools/fuzz_diff/fuzz_diff.sh" "$fake" "$oracle" >"$work/fake.log" 2>&1
found=$(ls "$fake/out/cases" 2>/dev/null | head -n 1)
if grep -q '^FOUND s5_b0_g0 mismatch: out0 byte 0' "$work/fake.log" && [ -n "$found" ] &&
  ! cmp -s "$fake/out/cases/$found/case_0/out0.bin" "$fake/out/cases/$found/tinyaot_out/out0.bin" &&
  grep -q '"compare"' "$fake/out/cases/$found/manifest.json"; then
  pass fuzz_diff_finds_injected_bug
else
  fail fuzz_diff_finds_injected_bug "$(tail -n 1 "$work/fake.log")"
fi
# Smoke run: 50 graphs (two .tflite files) against the reference runner.
mkdir -p "$work/smoke"
cp "$gen" "$work/smoke/fuzz_diff_gen"
ln -sf "$(cd "$build" && pwd)/tinyaot" "$work/smoke/tinyaot"
if FUZZ_DIFF_MODELS=50 FUZZ_DIFF_GRAPHS=25 FUZZ_DIFF_JOBS=1 FUZZ_DIFF_SEED=16 FUZZ_DIFF_OUT="$work/smoke/out" \
  sh "$TA_ROOT/tools/fuzz_diff/fuzz_diff.sh" "$work/smoke" "$oracle" >"$work/smoke.log" 2>&1 &&
  [ "$(tail -n 1 "$work/smoke.log" | sed -n 's/.*: \([0-9]*\) graphs in.*/\1/p')" -ge 50 ]; then
  pass "fuzz_diff_smoke ($(tail -n 1 "$work/smoke.log" | sed 's/^fuzz-diff: //; s/, cases in.*//'))"
else
  fail fuzz_diff_smoke "$(grep -E '^(FOUND|INVALID|GENFAIL|BATCHFAIL)' "$work/smoke.log" | head -n 1) ($(tail -n 1 "$work/smoke.log"))"
fi
