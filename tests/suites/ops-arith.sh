#!/bin/sh
# ops-arith (issue 16): binary arithmetic, reductions and data movement on the new
# dtypes. Every ops-new case of DIV, FLOOR_DIV, FLOOR_MOD, ADD_N, CUMSUM, ARG_MIN,
# REDUCE_MIN, of int32 ADD/SUB/MUL, of the float32/int16/int32/int64 MAXIMUM/MINIMUM,
# SQUARED_DIFFERENCE, PRELU, BATCH_MATMUL, SUM, MEAN, REDUCE_MAX, ARG_MAX, and of the
# data-movement operators (SLICE, STRIDED_SLICE, CONCATENATION, PACK, UNPACK, SPLIT,
# SPLIT_V, TRANSPOSE, DEPTH_TO_SPACE, SPACE_TO_DEPTH, GATHER, PAD, PADV2,
# MIRROR_PAD, RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR) must convert and match TensorFlow Lite Micro's
# goldens (integers exact, float32 1e-5 relative): "unsupported" is a failure here.
# Then an int8 DIV, an int8 CUMSUM and an int16 BATCH_MATMUL module compile with
# -std=c99 -pedantic -Werror for Cortex-M4 and Cortex-M55.
# usage: sh tests/suites/ops-arith.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ops-arith "$@" || { fail setup "no work folder"; exit 0; }

dir="$corpus/ops-new"
if [ ! -d "$dir" ]; then
  skip corpus "$dir is absent"
  exit 0
fi
pattern='^(add|sub|mul)_int32_|^(div|floor_div|floor_mod|add_n|cumsum|arg_min|reduce_min)_'
pattern="$pattern|^(maximum|minimum)_(float32|int16|int32|int64)_|^squared_difference_(float32|int16|int32)_"
pattern="$pattern|^prelu_(float32|int16)_|^batch_matmul_(float32|int16)_|^(sum|reduce_max|arg_max)_float32_"
pattern="$pattern|^(sum|mean)_int16_|^(pad|padv2|mirror_pad|resize_nearest_neighbor|resize_bilinear)_"
pattern="$pattern|^(slice|strided_slice|concatenation|pack|unpack|split|split_v|depth_to_space)_"
pattern="$pattern|^transpose_(int|uint|bool|float)|^space_to_depth_|^gather_(float32|int8|int16|int32|int64|bool)_"
# make test's host and ASan corpus passes already run every ops-new case (a refusal is a FAIL
# there); this per-operator loop repeats them only for TEST_FULL=1.
count=0
[ "${TEST_FULL:-0}" = 1 ] || pattern='^$'
for c in $(ls "$dir" | grep -E "$pattern"); do
  count=$((count + 1))
  line=$(sh "$(dirname "$0")/../corpus_case.sh" "$dir/$c" "$build" "$work" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "$c" ;;
    *) fail "$c" "${line#* * }" ;;
  esac
done
[ "${TEST_FULL:-0}" = 1 ] || count=-1
[ "$count" -lt 0 ] || [ "$count" -ge 150 ] || fail cases "only $count ops-new cases of these operators in $dir"

# The emitted kernels are C99 for the targets too.
cc_target=cc
flags_m4="" flags_m55=""
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  cc_target=arm-none-eabi-gcc
  flags_m4="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
  flags_m55="-mcpu=cortex-m55 -mthumb -mfloat-abi=hard"
fi
for c in div_int8_02_bc_hw1_relu cumsum_int8_03_axis0_excl_rev_5x16 batch_matmul_int16_01_b2_adjy_m6k10n4; do
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
