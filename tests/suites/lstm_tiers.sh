#!/bin/sh
# int8 UNIDIRECTIONAL_SEQUENCE_LSTM tiers (issue 32; docs/kernels.md): ta_lstm_s8_dsp on
# Cortex-M4, ta_lstm_s8_mve on Cortex-M55, bit-identical to TensorFlow Lite Micro's reference
# kernels:
# - converted for cortex-m4 / cortex-m55 an int8 LSTM takes its core's tier; for the host
#   it keeps the portable ta_lstm_s8; on M4 7 of them take the short requantisation
#   (small_sums), the one with int32 biases up to 2^30 the general one; the tier kernels
#   compile warning-free with GCC and clang at -O0/-Os/-O2/-O3, with and without a frame
#   pointer;
# - generated LSTMs (tools/lstm_gen: batch- and time-major, batches 1-3, 1-5 steps, input
#   sizes 1-40 and units 1-36 across the DSP 4-element and MVE 16-byte tails, random zero
#   points, scales from small gate sums to saturated ones, cell clip or not, one with biases
#   up to 2^30) on QEMU M4 and
#   M55 equal the reference runner (shared/oracle/tflm_ref); TEST_FULL=1 adds 4 models of
#   8 random LSTMs each;
# - the corpus's int8 LSTM operator cases and mnist_lstm_int8 case 0 equal their goldens
#   on both cores, and mnist_lstm_int8's LSTM runs at most LIMIT instructions per core
#   (the portable kernel: 966k on M4, 866k on M55).
# SKIP without the corpus, the oracle or the cross tools.
# usage: sh tests/suites/lstm_tiers.sh BUILD CORPUS WORKDIR [CORES]  (CORES default "m4 m55")
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup lstm_tiers "$@"
cores=${4:-m4 m55}

mnist="$corpus/models/mnist_lstm_int8"
suite_require "$mnist"
tier_model_generator lstm_gen

# The quick set: one model, every tail of both tiers at least once.
quick="0,1,3,7,6,0 1,2,4,9,10,0 0,2,2,16,16,3 1,3,2,33,5,0 0,1,5,1,1,0 0,2,3,18,17,0.5 1,1,2,40,3,0 0,1,2,2,36,0,1"
# shellcheck disable=SC2086 # the specs are words
why=$(tier_model_case "$work/quick" 32 $quick) || { fail gen "$why"; exit 0; }

# Tier choice per platform (host: the portable kernel).
for target in host:ta_lstm_s8 cortex-m4:ta_lstm_s8_dsp cortex-m55:ta_lstm_s8_mve; do
  plat=${target%%:*} kernel=${target#*:}
  opt=""
  [ "$plat" = host ] || opt="--platform $plat"
  # shellcheck disable=SC2086
  if ! "$build/tinyaot" convert "$work/quick/model.tflite" $opt -o "$work/conv_$plat" --name lq >"$work/conv_$plat.log" 2>&1; then
    fail "choice_$plat" "convert failed: $(grep -m1 error "$work/conv_$plat.log")"
  elif [ "$(grep -c "UNIDIRECTIONAL_SEQUENCE_LSTM, kernel lq_$kernel\$" "$work/conv_$plat/src/lq_model.c")" -ne 8 ]; then
    fail "choice_$plat" "the 8 LSTMs do not all call $kernel"
  elif [ "$plat" = cortex-m4 ] && { [ "$(grep -c "small_sums = 1," "$work/conv_$plat/src/lq_model.c")" -ne 7 ] ||
                                    [ "$(grep -c "small_sums = 0," "$work/conv_$plat/src/lq_model.c")" -ne 1 ]; }; then
    fail "choice_$plat" "not 7 LSTMs with the short requantisation and the last (biases up to 2^30) without"
  else
    pass "choice_$plat"
  fi
done

tier_need_cross skip qemu

# The tier kernels compile warning-free with GCC and clang at every level, frame pointer or not.
tier_compile_matrix compile_m4 m4 8 fp "" "$work/conv_cortex-m4/src/ta_lstm_dsp.c"
tier_compile_matrix compile_m55 m55 8 fp "" "$work/conv_cortex-m55/src/ta_lstm_mve.c"
tier_need_plugin "$build/target"

# run_one CORE CASE_DIR MODEL OUT [run_case options]: PASS/FAIL line named by OUT's basename.
run_one() {
  ro_core=$1 ro_case=$2 ro_model=$3 ro_out=$4
  shift 4
  if why=$(tier_run "$ro_core" "$ro_case" "$ro_out" --name lt --model "$ro_model" --tinyaot "$build/tinyaot" "$@"); then
    pass "$(basename "$ro_out")"
    return 0
  fi
  fail "$(basename "$ro_out")" "$why"
  return 1
}

full=""
if [ "${TEST_FULL:-}" = 1 ]; then
  for seed in 1 2 3 4; do
    specs=$(awk -v s="$seed" 'BEGIN { srand(s * 7919); for (i = 0; i < 8; i++)
      printf "%d,%d,%d,%d,%d,%s ", rand() < 0.5, 1 + int(rand() * 3), 1 + int(rand() * 5), 1 + int(rand() * 48),
        1 + int(rand() * 40), rand() < 0.3 ? sprintf("%.2f", 0.25 + rand() * 4) : "0" }')
    # shellcheck disable=SC2086
    if why=$(tier_model_case "$work/full$seed" "$((seed + 100))" $specs); then full="$full $seed"; else fail "gen_full$seed" "$why"; fi
  done
fi

limit_m4=480000 limit_m55=240000
for core in $cores; do
  run_one "$core" "$work/quick/case_0" "$work/quick/model.tflite" "$work/gen_quick_$core"
  for op in "$corpus"/ops/unidirectional_sequence_lstm_int8_*; do
    [ -d "$op/case_0" ] || continue
    run_one "$core" "$op/case_0" "$op/model.tflite" "$work/$(basename "$op" | sed 's/unidirectional_sequence_lstm/op/')_$core"
  done
  if run_one "$core" "$mnist/case_0" "$mnist/model.tflite" "$work/mnist_lstm_int8_$core" --plugin "$plugin" --layers; then
    eval "limit=\$limit_$core"
    tier_op_insns "mnist_insns_$core" "$work/mnist_lstm_int8_$core/layers.txt" "the portable kernel: 966k M4, 866k M55" \
      0 "$limit"
  fi
  for seed in $full; do
    run_one "$core" "$work/full$seed/case_0" "$work/full$seed/model.tflite" "$work/gen_full${seed}_$core"
  done
done
