#!/bin/sh
# ops-state (issue 16): several subgraphs, control flow and state.
# 1. Every ops-new case of IF, WHILE, resource variables (VAR_HANDLE / READ_VARIABLE /
#    ASSIGN_VARIABLE with a CALL_ONCE init subgraph), int8 SVDF with int8 state, float32
#    TRANSPOSE_CONV and int16 UNIDIRECTIONAL_SEQUENCE_LSTM must convert and match
#    TensorFlow Lite Micro's goldens ("unsupported" is a failure here).
# 2. State across inferences, which the corpus (one inference per case) cannot show: a
#    module of the float32 resource-variable accumulator is compiled with a harness that
#    runs twice (the second output must be the first plus the input again: the variable
#    kept the first result), then calls model_init and runs again (the output must be
#    the first one: init restored the CALL_ONCE value).
# 3. The control-flow models tests/hostile/make_hostile.c writes as valid (an IF with an
#    ADD branch and a pass-through branch, a WHILE, a resource variable with a constant
#    init) give the outputs of the TensorFlow Lite Micro reference runner for both
#    conditions (skipped when ../shared/oracle is absent).
#    Also int8-state SVDF with its state zero point patched to 100 against the runner.
# 4. The IF, WHILE and resource modules compile with -std=c99 -pedantic -Werror for
#    Cortex-M4 and Cortex-M55 (arm-none-eabi-gcc, else the host compiler).
# usage: sh tests/suites/ops-state.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ops-state "$@" || { fail setup "no work folder"; exit 0; }
here=$(cd "$(dirname "$0")" && pwd)
root=$TA_ROOT
oracle=${TINYAOT_ORACLE:-$(dirname "$corpus")/oracle/tflm_ref}

dir="$corpus/ops-new"
if [ ! -d "$dir" ]; then
  skip corpus "$dir is absent"
  exit 0
fi

# 1. corpus cases
pattern='^(if|while|resource_variable|svdf_state8)_|^transpose_conv_float32_|^unidirectional_sequence_lstm_int16_'
count=0
for c in $(ls "$dir" | grep -E "$pattern"); do
  count=$((count + 1))
  line=$(sh "$here/../corpus_case.sh" "$dir/$c" "$build" "$work" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "$c" ;;
    *) fail "$c" "${line#* * }" ;;
  esac
done
[ "$count" -ge 18 ] || fail cases "only $count ops-new cases of these operators in $dir"

# 2. state across inferences and reset by init
acc="$dir/resource_variable_float32_00_accumulate_c17"
if [ -d "$acc" ]; then
  out="$work/state_acc"
  rm -rf "$out"
  if "$build/tinyaot" convert "$acc/model.tflite" -o "$out" --name acc >"$out.log" 2>&1; then
    cat >"$out/harness.c" <<'HARNESS'
#include <stdio.h>
#include <string.h>
#include "acc_model.h"
static acc_model_context_t ctx;
int main(void) {
  float x[64], y1[64], y2[64], y3[64];
  size_t n, i;
  if (acc_model_init(&ctx) != 0) return 10;
  n = ctx.inputs[0].size / sizeof(float);
  if (n > 64 || ctx.outputs[0].size != n * sizeof(float)) return 11;
  for (i = 0; i < n; i++) x[i] = 0.25f * (float)i - 1.5f;
  memcpy(ctx.inputs[0].data, x, n * sizeof(float));
  if (acc_model_run(&ctx) != 0) return 12;
  memcpy(y1, ctx.outputs[0].data, n * sizeof(float));
  memcpy(ctx.inputs[0].data, x, n * sizeof(float));
  if (acc_model_run(&ctx) != 0) return 13;
  memcpy(y2, ctx.outputs[0].data, n * sizeof(float));
  for (i = 0; i < n; i++)
    if (y2[i] != y1[i] + x[i]) { printf("second run [%u]: %g, expected %g\n", (unsigned)i, y2[i], y1[i] + x[i]); return 1; }
  if (acc_model_init(&ctx) != 0) return 14;
  memcpy(ctx.inputs[0].data, x, n * sizeof(float));
  if (acc_model_run(&ctx) != 0) return 15;
  memcpy(y3, ctx.outputs[0].data, n * sizeof(float));
  for (i = 0; i < n; i++)
    if (y3[i] != y1[i]) { printf("after init [%u]: %g, expected %g\n", (unsigned)i, y3[i], y1[i]); return 2; }
  for (i = 0; i < n; i++)
    if (y1[i] != x[i]) break;
  if (i == n) { printf("the init value is all zeros: the test cannot see it\n"); return 3; }
  return 0;
}
HARNESS
    if cc -std=c99 -O1 -I"$out/include" -I"$out/src" "$out/harness.c" "$out"/src/*.c -lm -o "$out/harness" >>"$out.log" 2>&1; then
      msg=$("$out/harness" 2>&1); rc=$?
      [ $rc -eq 0 ] && pass state_kept_and_reset_by_init || fail state_kept_and_reset_by_init "exit $rc $msg"
    else
      fail state_kept_and_reset_by_init "harness does not build: $(grep -m1 error "$out.log")"
    fi
  else
    fail state_kept_and_reset_by_init "$(head -n 1 "$out.log")"
  fi
fi

# 3. valid control-flow models against the reference runner
gen="$work/make_hostile"
models="$work/cf_valid"
rm -rf "$models"
mkdir -p "$models"
if ! cc -std=c11 -I"$root/src" -I"$root/tools" "$root/tests/hostile/make_hostile.c" "$root/tools/fbwriter.c" \
  "$root/src/load/flatbuffer.c" -lm -o "$gen" >"$work/gen.log" 2>&1 || ! "$gen" --control-flow-valid "$models" >>"$work/gen.log" 2>&1; then
  fail cf_valid:generate "$(grep -m1 error "$work/gen.log")"
elif [ ! -x "$oracle" ]; then
  skip cf_valid "the reference runner $oracle is absent"
else
  # inputs: bool condition / flag, float32 [1,4]
  printf '\001' >"$work/true.bin"
  printf '\000' >"$work/false.bin"
  printf '\000\000\300\077\000\000\040\300\000\000\200\076\000\000\000\101' >"$work/x.bin" # 1.5 -2.5 0.25 8
  for run in if_valid:true if_valid:false while_valid:false resource_valid:; do
    m=${run%%:*} flag=${run#*:}
    case_dir="$work/cf_$m$flag"
    rm -rf "$case_dir"
    mkdir -p "$case_dir/in"
    if [ -n "$flag" ]; then
      cp "$work/$flag.bin" "$case_dir/in/in0.bin"
      cp "$work/x.bin" "$case_dir/in/in1.bin"
      set -- --in "$case_dir/in/in0.bin" --in "$case_dir/in/in1.bin"
    else
      cp "$work/x.bin" "$case_dir/in/in0.bin"
      set -- --in "$case_dir/in/in0.bin"
    fi
    if ! "$oracle" "$models/cf_$m.tflite" "$@" --out-dir "$case_dir/ref" --quiet >"$case_dir/ref.log" 2>&1; then
      fail "cf_$m$flag" "reference runner: $(tail -n 1 "$case_dir/ref.log")"
      continue
    fi
    if ! "$build/tinyaot" run "$models/cf_$m.tflite" --case "$case_dir/in" --out-dir "$case_dir/ours" >"$case_dir/ours.log" 2>&1; then
      fail "cf_$m$flag" "$(grep -m1 error "$case_dir/ours.log")"
      continue
    fi
    if "$build/compare" float32 "$case_dir/ref/out0.bin" "$case_dir/ours/in/out0.bin" >"$case_dir/cmp.log" 2>&1; then
      pass "cf_$m$flag"
    else
      fail "cf_$m$flag" "$(head -n 1 "$case_dir/cmp.log")"
    fi
  done
fi

# 3b. int8-state SVDF with a non-zero state zero point (the corpus's are 0): the state
#    zero point of svdf_state8_int8_00 (int64 at byte 584 of the file, checked first) is
#    set to 100, and saturating inputs must give the reference runner's bytes. This is
#    what shows TFLite Micro's order: saturate, then add the zero point with wrap-around.
svdf="$dir/svdf_state8_int8_00_b1_r1_i8_u4_m8/model.tflite"
if [ -f "$svdf" ] && [ -x "$oracle" ]; then
  zp="$work/svdf_zp100"
  rm -rf "$zp"
  mkdir -p "$zp"
  if [ "$(od -A n -t x1 -j 580 -N 12 "$svdf" | tr -d ' \n')" != 010000000000000000000000 ]; then
    fail svdf_state8_zero_point "$svdf changed: no state zero point vector at byte 580"
  else
    cp "$svdf" "$zp/model.tflite"
    printf '\144' | dd of="$zp/model.tflite" bs=1 seek=584 conv=notrunc 2>/dev/null
    for pat in 7f 80 7f80 0080 11; do
      mkdir -p "$zp/$pat"
      case $pat in
        7f) printf '\177\177\177\177\177\177\177\177' ;;
        80) printf '\200\200\200\200\200\200\200\200' ;;
        7f80) printf '\177\200\177\200\177\200\177\200' ;;
        0080) printf '\000\200\000\200\000\200\000\200' ;;
        11) printf '\021\021\021\021\021\021\021\021' ;;
      esac >"$zp/$pat/in0.bin"
      if ! "$oracle" "$zp/model.tflite" --in "$zp/$pat/in0.bin" --out-dir "$zp/$pat/ref" --quiet >"$zp/ref.log" 2>&1; then
        fail "svdf_state8_zero_point_$pat" "reference runner: $(tail -n 1 "$zp/ref.log")"
      elif ! "$build/tinyaot" run "$zp/model.tflite" --case "$zp/$pat" --out-dir "$zp/$pat/ours" >"$zp/ours.log" 2>&1; then
        fail "svdf_state8_zero_point_$pat" "$(grep -m1 error "$zp/ours.log")"
      elif cmp -s "$zp/$pat/ref/out0.bin" "$zp/$pat/ours/$pat/out0.bin"; then
        pass "svdf_state8_zero_point_$pat"
      else
        fail "svdf_state8_zero_point_$pat" "output differs from the reference"
      fi
    done
  fi
fi

# 4. C99 for the targets
cc_target=cc
flags_m4="" flags_m55=""
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  cc_target=arm-none-eabi-gcc
  flags_m4="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
  flags_m55="-mcpu=cortex-m55 -mthumb -mfloat-abi=hard"
fi
for c in if_int8_01_relu_4x10 while_float32_00_damped_n3_3x8 resource_variable_int8_01_shift_c16_t4 \
  svdf_state8_int8_01_b2_r2_i16_u16_m10 transpose_conv_float32_01_k4x4_s1_same_bias_relu_c3to16 \
  unidirectional_sequence_lstm_int16_01_timemajor_b2_t4_i11_s6; do
  [ -d "$dir/$c" ] || { fail "c99_$c" "case missing"; continue; }
  for target in cortex-m4 cortex-m55; do
    out="$work/c99_${c}_$target"
    rm -rf "$out"
    flags=$flags_m4
    [ "$target" = cortex-m55 ] && flags=$flags_m55
    if ! "$build/tinyaot" convert "$dir/$c/model.tflite" -o "$out" --name m --platform "$target" >"$out.log" 2>&1; then
      fail "c99_${c}_$target" "$(head -n 1 "$out.log")"
      continue
    fi
    ok=1
    for f in "$out"/src/*.c; do
      # shellcheck disable=SC2086
      $cc_target -std=c99 -pedantic -Wall -Wextra -Werror $flags -I"$out/include" -I"$out/src" -c "$f" \
        -o "$out/$(basename "$f").o" >>"$out.log" 2>&1 || ok=0
    done
    [ $ok -eq 1 ] && pass "c99_${c}_$target" || fail "c99_${c}_$target" "$(grep -m1 error "$out.log")"
  done
done
