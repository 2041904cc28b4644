#!/bin/sh
# Differential fuzzing on the targets (issue 29; docs/robustness.md, "Differential fuzzing"):
#  - the same random graphs (fuzz_diff_gen gen, fixed seed 29: about 80 graphs in 2 files)
#    through tools/fuzz_diff/fuzz_diff.sh on the host, on QEMU Cortex-M4 (--platform
#    cortex-m4: the DSP tier) and on QEMU Cortex-M55 (cortex-m55: the MVE tier), each
#    against TensorFlow Lite Micro's reference kernels: every graph exact on every target,
#    and the three agree on every verdict;
#  - the driver catches a wrong target: a test double of tinyaot whose Cortex-M55 modules
#    flip a bit of output 0 and whose Cortex-M4 modules trap in model_run; the M55 graphs
#    must be counted wrong, the M4 ones crashed, the host's exact, the targets reported as
#    disagreeing, and the cases written with the core in their name and manifest.
#  TEST_FULL=1: a long run instead (600 graphs' budget per target, FUZZ_DIFF_MODELS) with a
#  fresh seed (date +%s; FUZZ_DIFF_SEED repeats one), printed in every PASS/FAIL line.
# usage: sh tests/suites/fuzz_diff_targets.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup fuzz_diff_targets "$@" || { fail setup "no work folder"; exit 0; }

oracle=${ORACLE:-$corpus/../oracle/tflm_ref}
if [ ! -x "$oracle" ]; then
  skip oracle "no reference runner at $oracle"
  exit 0
fi
ta_ensure_packages >/dev/null 2>&1 ||
  { fail setup "cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"; exit 0; }

# the driver takes a folder holding fuzz_diff_gen and tinyaot: the generator is built here
# (suites may run side by side: no make in the build folder)
bin="$work/bin"
mkdir -p "$bin"
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
  "$TA_ROOT/tools/fbwriter.c" -o "$bin/fuzz_diff_gen" -lm >"$work/gen.log" 2>&1; then
  fail setup "cannot build the generator: $(tail -n 1 "$work/gen.log")"
  exit 0
fi
ln -sf "$build/tinyaot" "$bin/tinyaot"

seed=29 models=60
if [ "${TEST_FULL:-}" = 1 ]; then
  seed=${FUZZ_DIFF_SEED:-$(date +%s)} models=${FUZZ_DIFF_MODELS:-600}
  echo "fuzz_diff_targets: TEST_FULL seed $seed, $models graphs per target (repeat: TEST_FULL=1 FUZZ_DIFF_SEED=$seed)"
fi
log="$work/run.log"
FUZZ_DIFF_TARGET="host m4 m55" FUZZ_DIFF_MODELS=$models FUZZ_DIFF_GRAPHS=40 FUZZ_DIFF_SEED=$seed \
  FUZZ_DIFF_OUT="$work/run" sh "$TA_ROOT/tools/fuzz_diff/fuzz_diff.sh" "$bin" "$oracle" >"$log" 2>&1
for t in host m4 m55; do
  line=$(grep "^fuzz-diff: seed $seed: .* on $t," "$log")
  n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) graphs in.*/\1/p')
  exact=$(echo "$line" | sed -n 's/.* s: \([0-9]*\) exact,.*/\1/p')
  if [ -z "$n" ] || [ "$n" -lt 40 ]; then
    fail "$t" "seed $seed: ${n:-no} graphs checked ($(tail -n 1 "$work/run/$t/log.txt" 2>/dev/null))"
  elif [ "$exact" != "$n" ] || grep -q -E '^(FOUND|INVALID|BATCHFAIL|GENFAIL)' "$work/run/$t/log.txt"; then
    fail "$t" "seed $seed: $(grep -m1 -E '^(FOUND|INVALID|BATCHFAIL|GENFAIL)' "$work/run/$t/log.txt") ($(echo "$line" | sed 's/.* s: //; s/;.*//'); cases in $work/run/$t/cases)"
  else
    pass "$t (seed $seed: $n graphs, all exact)"
  fi
done
if tail -n 1 "$log" | grep -q ' 0 with verdicts differing' && ! grep -q '^DISAGREE' "$log"; then
  pass "agree ($(tail -n 1 "$log" | sed 's/^fuzz-diff: //'))"
else
  fail agree "$(grep -m1 '^DISAGREE' "$log") ($(tail -n 1 "$log"))"
fi

# ---- the driver catches a wrong or crashing target module -----------------------------------
fake="$work/fake"
mkdir -p "$fake"
cp "$bin/fuzz_diff_gen" "$fake/"
# (printf '%s\n': the \n of the sed script must reach sed, which GNU sed reads as a newline)
{
  printf '%s\n' '#!/bin/sh' "\"$build/tinyaot\" \"\$@\" || exit \$?" '[ "$1" = convert ] || exit 0' \
    'for a in "$@"; do case "$prev" in -o) dir=$a ;; --platform) plat=$a ;; esac; prev=$a; done' \
    'src="$dir/src/fz_model.c"' '[ -f "$src" ] || exit 0' \
    'head="int32_t fz_model_run(fz_model_context_t \*ctx) {"' 'case "$plat" in' \
    '  cortex-m4) sed -i "s/^$head\$/& __builtin_trap();/" "$src" ;;' \
    '  cortex-m55) sed -i "s/^$head\$/static int32_t fz_run_x(fz_model_context_t *ctx);\n& int32_t r = fz_run_x(ctx); ((unsigned char *)ctx->outputs[0].data)[0] ^= 1u; return r; }\nstatic int32_t fz_run_x(fz_model_context_t *ctx) {/" "$src" ;;' \
    'esac'
} >"$fake/tinyaot"
chmod +x "$fake/tinyaot"
FUZZ_DIFF_TARGET="host m4 m55" FUZZ_DIFF_MODELS=2 FUZZ_DIFF_GRAPHS=2 FUZZ_DIFF_JOBS=1 FUZZ_DIFF_SEED=5 \
  FUZZ_DIFF_OUT="$fake/out" sh "$TA_ROOT/tools/fuzz_diff/fuzz_diff.sh" "$fake" "$oracle" >"$work/fake.log" 2>&1
fake_rc=$?
m55_case="$fake/out/m55/cases/s5_b0_g0_m55"
m4_case=$(ls -d "$fake"/out/m4/cases/s5_b0_g*_m4 2>/dev/null | head -n 1)
why=""
[ $fake_rc -ne 0 ] || why="$why exit 0;"
grep -q ' on host, .* 2 exact, 0 wrong, 0 refused, 0 crashed' "$work/fake.log" || why="$why host not all exact;"
grep -q ' on m4, .* 0 exact, 0 wrong, 0 refused, 2 crashed' "$work/fake.log" || why="$why m4 not 2 crashed;"
grep -q ' on m55, .* 1 exact, 1 wrong, 0 refused, 0 crashed' "$work/fake.log" || why="$why m55 not 1 wrong;"
grep -q '^DISAGREE file 0: host' "$work/fake.log" || why="$why no DISAGREE line;"
grep -q '"target": "m55"' "$m55_case/manifest.json" 2>/dev/null && grep -q 'Cortex-M55.*mismatch: out0 byte 0' "$m55_case/manifest.json" ||
  why="$why no m55 case with its core and the difference;"
cmp -s "$m55_case/case_0/out0.bin" "$m55_case/tinyaot_out/out0.bin" 2>/dev/null && why="$why the m55 case's outputs are equal;"
grep -q '"found": "on Cortex-M4.*crashed: error: QEMU run failed' "$m4_case/manifest.json" 2>/dev/null || why="$why no m4 case of the crash;"
if [ -z "$why" ]; then
  pass "finds_injected_bugs (M55 wrong output, M4 fault, verdicts disagreeing)"
else
  fail finds_injected_bugs "${why# } (see $work/fake.log)"
fi
