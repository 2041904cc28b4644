# Generated DEPTHWISE_CONV_2D layers with a depth multiplier > 1 (fuzz_diff_gen dwconv,
# goldens from TFLite Micro's reference kernels, shared/oracle/tflm_ref) for the depthwise
# tier suites, sourced after tests/tier_suite_lib.sh's tier_setup.
# dw_mult_cases CORE KIND FALLBACK_FLAGS: each layer below converted for CORE must take
# ta_depthwise_conv_mult_KIND_s8 (its descriptor type in the module) and its case 0 must
# equal the golden on QEMU; the first also built with FALLBACK_FLAGS (the kernel's plain C:
# -D<PREFIX>_TA_DW_MULT_PLAIN_C, the module's prefix GM).
# Multipliers 2..8 and 10 (whole blocks of 4 channels, and 1..3 left over; MVE: one
# vector, two, predicated, and more than 8), one input channel and several, strides 1..3,
# SAME and VALID, dilation 2, odd widths, even and 10x8 windows, a window wider than the
# image, per-channel and per-tensor scales, ReLU and none (negative rounding ties).
dw_mult_cases() {
  dm_core=$1 dm_kind=$2 dm_fallback=$3
  tier_generator || return 0
  # name: H W IN_CH KH KW SH SW SAME ACT PER_CHANNEL DM DIL
  while read -r dm_name dm_shape; do
    dm_dir="$work/src_$dm_name"
    # shellcheck disable=SC2086 # dm_shape: the generator's arguments
    dm_why=$(tier_gen_case dwconv 11 "$dm_dir" $dm_shape) || { fail "$dm_name" "$dm_why"; continue; }
    dm_m="$work/$dm_name/m"
    if ! tier_convert "$dm_core" "$dm_dir/model.tflite" "$dm_m" gm >/dev/null; then
      fail "$dm_name" "convert failed"
      continue
    fi
    if ! grep -q "ta_depthwise_conv_mult_${dm_kind}_params_t" "$dm_m/src/gm_model.c"; then
      fail "$dm_name" "the layer does not take ta_depthwise_conv_mult_${dm_kind}_s8"
      continue
    fi
    for dm_flags in "-O2" ${dm_first:+"$dm_fallback"}; do
      if ! dm_why=$(tier_module_run "$dm_core" "$dm_m" gm "$dm_dir/case_0" "$work/$dm_name/out" "$dm_flags"); then
        fail "$dm_name" "$dm_why ($dm_flags)"
        continue 2
      fi
      rm -f "$dm_m"/src/*.o "$dm_m"/lib*.a
    done
    pass "$dm_name (exact${dm_first:+, also $dm_fallback})"
    dm_first=
    rm -rf "$work/$dm_name" "$dm_dir"
  done <<GEN
gen_dm8_ic1_s2 9 8 1 3 3 2 2 1 1 1 8 1
gen_dm8_ic1_10x8 13 11 1 10 8 2 2 1 0 1 8 1
gen_dm2_ic3 7 9 3 3 3 1 1 1 0 1 2 1
gen_dm3_ic2_valid 8 7 2 3 3 1 2 0 1 0 3 1
gen_dm5_ic1_dil2 9 9 1 3 3 1 1 1 0 1 5 2
gen_dm4_ic2_5x5 7 6 2 5 5 2 1 1 0 1 4 1
gen_dm6_ic1_2x3 5 11 1 2 3 1 1 0 0 1 6 1
gen_dm7_ic2_s3 10 9 2 3 3 3 3 1 1 1 7 1
gen_dm10_ic2 4 5 2 3 3 1 1 1 0 0 10 1
gen_dm4_ic1_wide 6 3 1 3 5 1 1 1 0 1 4 1
GEN
}
dm_first=1

# dw_mult_models CORE KIND MS_LIMIT PD_LIMIT: micro_speech's operator 1 and person_detect's
# operator 0 (multiplier 8 on one input channel, both run in place by default: 25x20x8 from 10x8 windows, 320,000 MACs;
# 48x48x8 from 3x3, 165,888 MACs) take ta_depthwise_conv_mult_KIND_s8, case 0 equals the
# golden on QEMU CORE, and the layer runs at most MS_LIMIT / PD_LIMIT instructions per 100
# MACs (the portable kernel: 1,340-1,500 and 2,600-2,800).
dw_mult_models() {
  dm_core=$1 dm_kind=$2
  set -- micro_speech 1 320000 "$3" person_detect 0 165888 "$4"
  while [ $# -ge 4 ]; do
    dm_dir="$corpus/models/$1" dm_out="$work/qemu_$1"
    if [ ! -d "$dm_dir" ]; then
      skip "$1_mult" "$dm_dir is absent"
    elif suite_qemu_exact "$1_mult" "$dm_core" "$dm_dir" "$dm_out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
      if ! grep -q "ta_depthwise_conv_mult_${dm_kind}_s8[_a-z]*(&" "$dm_out/module/src/$1_model.c"; then
        fail "$1_mult" "exact, but no layer calls ta_depthwise_conv_mult_${dm_kind}_s8"
      else
        tier_op_insns "$1_mult" "$dm_out/layers.txt" "$4 per 100 MACs" "$2" $(($3 * $4 / 100))
      fi
    fi
    shift 4
  done
}
