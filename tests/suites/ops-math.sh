#!/bin/sh
# ops-math (issue 16): the unary math operators and the new dtypes of the activations.
# Every ops-new case of ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN, COS, CEIL, FLOOR,
# ROUND, ELU, LOG_SOFTMAX, L2_NORMALIZATION, L2_POOL_2D and of the int16 / float32 /
# int32 / uint8 forms of RELU, RELU6, LEAKY_RELU, HARD_SWISH, QUANTIZE, DEQUANTIZE must
# convert and match TensorFlow Lite Micro's goldens (integers exact, float32 1e-5
# relative): here an "unsupported" answer is a failure, not a skip. Then one int8 and one
# int16 case are converted for Cortex-M4 and Cortex-M55 and their sources compiled with
# -std=c99 -pedantic -Werror (by arm-none-eabi-gcc when installed, else the host cc).
# usage: sh tests/suites/ops-math.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ops-math "$@" || { fail setup "no work folder"; exit 0; }

dir="$corpus/ops-new"
if [ ! -d "$dir" ]; then
  skip corpus "$dir is absent"
  exit 0
fi
pattern='^(abs|neg|sqrt|rsqrt|square|exp|log|sin|cos|ceil|floor|round|elu|log_softmax|l2_normalization|l2_pool_2d)_(float32|int8|int16)_'
pattern="$pattern|^(relu|relu6|leaky_relu|hard_swish)_(int16|float32)_|^(quantize|dequantize)_(int32|uint8)_"
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
[ "$count" -lt 0 ] || [ "$count" -gt 0 ] || fail cases "no ops-new case of these operators in $dir"

# The emitted kernels are C99 for the targets too.
cc_target=cc
flags_m4="" flags_m55=""
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  cc_target=arm-none-eabi-gcc
  flags_m4="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb"
  flags_m55="-mcpu=cortex-m55 -mfloat-abi=hard -mthumb"
fi
for c in log_softmax_int8_00_1x16 leaky_relu_int16_00_1x8x6x1_a0p1 l2_normalization_int8_00_4x10; do
  [ -d "$dir/$c" ] || { fail "strict_c99:$c" "case missing"; continue; }
  for p in cortex-m4 cortex-m55; do
    out="$work/module_${c}_$p"
    rm -rf "$out"
    if ! "$build/tinyaot" convert "$dir/$c/model.tflite" -o "$out" --name m --platform "$p" >"$out.log" 2>&1; then
      fail "strict_c99:$c:$p" "$(head -n 1 "$out.log")"
      continue
    fi
    flags=$flags_m4
    [ "$p" = cortex-m55 ] && flags=$flags_m55
    ok=1
    for f in "$out"/src/*.c; do
      # shellcheck disable=SC2086
      $cc_target $flags -std=c99 -pedantic -Wall -Wextra -Werror -O2 -c "$f" -I"$out/include" -I"$out/src" \
        -o "$work/obj.o" 2>>"$out.cc.log" || ok=0
    done
    if [ $ok -eq 1 ]; then pass "strict_c99:$c:$p"; else fail "strict_c99:$c:$p" "$(head -n 3 "$out.cc.log" | tr '\n' ' ')"; fi
  done
done
