#!/bin/sh
# int8 SVDF tiers (issue 32; docs/kernels.md): ta_svdf_s8_dsp on Cortex-M4, ta_svdf_s8_mve on
# Cortex-M55, bit-identical to TensorFlow Lite Micro's reference kernel:
# - converted for cortex-m4 / cortex-m55 an int8 SVDF with an int16 state takes its core's
#   tier; for the host it keeps the portable ta_svdf_s8, and the int8-state form keeps
#   ta_svdf_s8_state8 everywhere; the tier kernels compile warning-free with GCC and clang
#   at -O0/-Os/-O2/-O3, with and without a frame pointer;
# - generated SVDFs (tools/svdf_gen: batches 1-3, ranks 1-3, input sizes 1-64, odd and even
#   filter counts and rank x memory lengths across the DSP 4-byte / 2-half and MVE 16-byte /
#   8-half tails, random zero points, a non-zero state zero point in some, states and
#   outputs from small to saturated) on QEMU M4 and M55 equal the reference runner (shared/oracle/tflm_ref);
#   TEST_FULL=1 adds 4 models of 8 random SVDFs each;
# - bare metal on QEMU, both tiers equal the portable ta_svdf_s8 over 4 successive steps from
#   random states with the int16 extremes (300 random shapes per core);
# - the corpus's int8 SVDF operator cases (ops/, ops-new/) and keyword_svdf_int16in case 0
#   equal their goldens on both cores, and keyword_svdf_int16in's first SVDF (operator 1)
#   runs at most LIMIT instructions per core (the portable kernel: 45.9k on M4, 39.8k on M55).
# SKIP without the corpus, the oracle or the cross tools.
# usage: sh tests/suites/svdf_tiers.sh BUILD CORPUS WORKDIR [CORES]  (CORES default "m4 m55")
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup svdf_tiers "$@"
cores=${4:-m4 m55}

kws="$corpus/models/keyword_svdf_int16in"
suite_require "$kws"
tier_model_generator svdf_gen

# The quick set (b,r,i,u,m[,zp]): every tail of both tiers at least once.
quick="1,1,16,4,8 2,2,17,5,3,1 3,1,33,3,7,1 1,3,1,1,1,1 1,1,41,9,16 2,2,15,6,5,1 1,3,18,2,11,1 1,1,64,32,32"
# shellcheck disable=SC2086 # the specs are words
why=$(tier_model_case "$work/quick" 32 $quick) || { fail gen "$why"; exit 0; }

# Tier choice per platform (host: the portable kernel).
tier_kernel_choice "$work/quick/model.tflite" SVDF sq 8 host:ta_svdf_s8 cortex-m4:ta_svdf_s8_dsp cortex-m55:ta_svdf_s8_mve
for op in "$corpus"/ops-new/svdf_state8_int8_*; do
  [ -f "$op/model.tflite" ] || continue
  if ! "$build/tinyaot" convert "$op/model.tflite" --platform cortex-m55 -o "$work/conv_state8" --name s8 \
       >"$work/conv_state8.log" 2>&1; then
    fail choice_state8 "convert failed: $(grep -m1 error "$work/conv_state8.log")"
  elif ! grep -q "SVDF, kernel s8_ta_svdf_s8_state8\$" "$work/conv_state8/src/s8_model.c"; then
    fail choice_state8 "the int8-state SVDF does not keep ta_svdf_s8_state8"
  else
    pass choice_state8
  fi
  break
done

tier_need_cross skip qemu

# The tier kernels compile warning-free with GCC and clang at every level, frame pointer or not.
tier_compile_matrix compile_m4 m4 8 fp "" "$work/conv_cortex-m4/src/ta_svdf_dsp.c"
tier_compile_matrix compile_m55 m55 8 fp "" "$work/conv_cortex-m55/src/ta_svdf_mve.c"
tier_need_plugin "$build/target"

# Both tiers against the portable kernel over 4 successive steps from random states with the
# int16 extremes (tests/target/svdf_tier_check.c), bare metal on QEMU: the state shift and the
# sums that wrap, which one-step goldens cannot see.
case " $cores " in *" m4 "*)
  tier_image_check steps_m4 m4 "$work/check_m4" "outputs and states equal" "" tests/target/svdf_tier_check.c \
    runtime/kernels/ta_svdf_dsp.c runtime/kernels/ta_svdf.c ;;
esac
case " $cores " in *" m55 "*)
  tier_image_check steps_m55 m55 "$work/check_m55" "outputs and states equal" "-DSVDF_CHECK_MVE" \
    tests/target/svdf_tier_check.c runtime/kernels/ta_svdf_mve.c runtime/kernels/ta_svdf.c ;;
esac

# run_one CORE CASE_DIR MODEL OUT [run_case options]: PASS/FAIL line named by OUT's basename.
run_one() {
  ro_core=$1 ro_case=$2 ro_model=$3 ro_out=$4
  shift 4
  if why=$(tier_run "$ro_core" "$ro_case" "$ro_out" --name st --model "$ro_model" --tinyaot "$build/tinyaot" "$@"); then
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
      printf "%d,%d,%d,%d,%d,%d ", 1 + int(rand() * 3), 1 + int(rand() * 3), 1 + int(rand() * 80),
        1 + int(rand() * 40), 1 + int(rand() * 40), rand() < 0.5 }')
    # shellcheck disable=SC2086
    if why=$(tier_model_case "$work/full$seed" "$((seed + 100))" $specs); then full="$full $seed"; else fail "gen_full$seed" "$why"; fi
  done
fi

limit_m4=34000 limit_m55=20000
for core in $cores; do
  run_one "$core" "$work/quick/case_0" "$work/quick/model.tflite" "$work/gen_quick_$core"
  for op in "$corpus"/ops/svdf_int8_* "$corpus"/ops-new/svdf_*int8_*; do
    [ -d "$op/case_0" ] || continue
    run_one "$core" "$op/case_0" "$op/model.tflite" "$work/$(basename "$op" | sed 's/^svdf/op/')_$core"
  done
  if run_one "$core" "$kws/case_0" "$kws/model.tflite" "$work/keyword_svdf_$core" --plugin "$plugin" --layers; then
    eval "limit=\$limit_$core"
    tier_op_insns "keyword_svdf_insns_$core" "$work/keyword_svdf_$core/layers.txt" \
      "the portable kernel: 45.9k M4, 39.8k M55" 1 "$limit"
  fi
  for seed in $full; do
    run_one "$core" "$work/full$seed/case_0" "$work/full$seed/model.tflite" "$work/gen_full${seed}_$core"
  done
done
