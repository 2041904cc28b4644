#!/bin/sh
# int8 DEPTHWISE_CONV_2D on Cortex-M55 (ta_depthwise_conv_mve_s8, docs/kernels.md): layers of
# 8 channels or fewer with stride_w 1 run neighbouring pixels together in the 16-channel
# loops (pack). vww's first depthwise layer (48x48x8, 3x3, stride 1) is such a layer:
# - converted for cortex-m55, its descriptor packs 2 pixels per group;
# - on QEMU Cortex-M55, case 0 equals the golden and the layer runs at most 1.6
#   instructions per MAC (2.01 with 8-channel groups, before packing);
# - strww (no ReLU: the negative-tie fix, no left shift) on QEMU Cortex-M55 equals the golden;
#   its one-pixel-wide layers take the layer form (lanes16 2) with the sign-only negative fix
#   (negative_fix 2: every channel shifts right), and operator 2 (24x1x128, 5 taps) runs at
#   most 1.55 instructions per MAC (1.75 before the layer form); its unpadded column layers
#   run group after group down the column: operator 0 (28x1x40, 3 taps) at most 2.4 (3.01);
# - kws (25x5x64, 3x3) takes the layer form: its mask compiles only the layer form's loops
#   (0x13000000: bits 24 and 25, the whole and clipped 3x3 windows, and 28, simple
#   requantisation; none of the run loops 0-23), case 0 equals the golden and operator 1
#   runs at most 0.97 instructions per MAC (1.06 with one call per run of pixels);
# - person_detect (the same 48x48x8 layer) with --memory.optimize max: operator 1 packed
#   and in place, case 0 equal to the golden.
# SKIP without the corpus or the cross tools.
# usage: sh tests/suites/depthwise_tiers_m55.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup depthwise_tiers_m55 "$@"

dir="$corpus/models/vww"
suite_require "$dir"

if ! "$build/tinyaot" convert "$dir/model.tflite" -o "$work/conv" --platform cortex-m55 >"$work/conv.log" 2>&1; then
  fail vww_pack_chosen "convert failed: $(tail -n 1 "$work/conv.log")"
elif ! sed -n '/op1_depthwise_conv_2d_params = {/,/^};/p' "$work/conv/src/vww_model.c" | grep -q '\.pack = 2,'; then
  fail vww_pack_chosen "operator 1 (48x48x8, stride 1) does not pack 2 pixels per group"
else
  pass vww_pack_chosen
fi

tier_need_cross skip vww_qemu
tier_need_plugin "$build/target"

# The 16-channel MVE loops (layer form and run loops) against the kernel built without MVE,
# random geometries and tables (tests/target/dw_mve_check.c), bare metal on QEMU.
ren="-Dta_depthwise_conv_mve_s8=ref_depthwise_conv_mve_s8"
ren="$ren -Dta_depthwise_conv_mve_s8_inplace=ref_depthwise_conv_mve_s8_inplace"
dw=runtime/kernels/ta_depthwise_conv_mve.c
tier_image_check random_shapes m55 "$work/dwcheck" "outputs exact" "" tests/target/dw_mve_check.c "$dw" \
  --ref m55-nomve "$ren" "$dw"

# Default mode, with per-operator counts.
out="$work/qemu"
if suite_qemu_exact vww_qemu_exact m55 "$dir" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
  pass vww_qemu_exact
  # layers.txt: "op instructions mve loop_ends"; operator 1 has 48*48*8*9 MACs
  tier_op_insns vww_pack_speed "$out/layers.txt" "1.6 per MAC" 1 $((48 * 48 * 8 * 9 * 16 / 10))
fi

# strww: depthwise layers without ReLU (TFLite's rounding of negative ties) and no left
# shift, which the 16-channel general loops requantise without the shift.
sw="$corpus/models/strww"
if [ -d "$sw" ]; then
  out="$work/qemu_strww"
  if ! suite_qemu_exact strww_qemu_exact m55 "$sw" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
    : # the FAIL line is printed
  elif ! sed -n '/op2_depthwise_conv_2d_params = {/,/^};/p' "$out/module/src/strww_model.c" |
       tr -d '\n' | grep -q 'negative_fix = 2, *\.simple = 0, *\.no_left_shift = 1,.*\.lanes16 = 2,'; then
    fail strww_qemu_exact "exact, but operator 2 is not a layer-form layer with the sign-only fix and no left shifts"
  else
    pass strww_qemu_exact
    tier_op_insns strww_layer_speed "$out/layers.txt" "1.55 per MAC" 2 $((24 * 128 * 5 * 155 / 100))
    # operator 0 (28x1x40, 3 taps, no padding): the column layer, group after group down
    # the column (3.01 per MAC pixel after pixel)
    tier_op_insns strww_column_speed "$out/layers.txt" "2.4 per MAC" 0 $((28 * 40 * 3 * 240 / 100))
  fi
else
  skip strww_qemu_exact "$sw is absent"
fi

# kws: the layer form, alone in the module's mask.
kw="$corpus/models/kws"
if [ -d "$kw" ]; then
  out="$work/qemu_kws"
  if suite_qemu_exact kws_layer_exact m55 "$kw" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
    mask=$(tier_mask "$out/module/src/ta_config.h" DEPTHWISE_CONV_MVE)
    insns=$(awk '$1 == 1 { print $2 }' "$out/layers.txt")
    limit=$((25 * 5 * 64 * 9 * 97 / 100))
    want=$(contract_mask "TA_DW_MVE_BIT_LAYER(0)" "TA_DW_MVE_BIT_LAYER(1)" TA_DW_MVE_BIT_LAYER_S)
    if [ "$((${mask:--1}))" != "$want" ]; then
      fail kws_layer_exact "exact, but the mask is ${mask:-absent} (expected $(printf 0x%x "$want"): the layer form only)"
    elif [ -z "$insns" ] || [ "$insns" -gt "$limit" ]; then
      fail kws_layer_exact "exact, but operator 1 ran ${insns:-no count} instructions (limit $limit, 0.97 per MAC)"
    else
      pass "kws_layer_exact ($insns instructions)"
    fi
  fi
else
  skip kws_layer_exact "$kw is absent"
fi

# In place (--memory.optimize max): person_detect's first depthwise layer (48x48x8, stride 1,
# packed like vww's) runs in place; case 0 must equal the golden.
pd="$corpus/models/person_detect"
if [ ! -d "$pd" ]; then
  skip person_detect_qemu_inplace "$pd is absent"
  exit 0
fi
wrap="$work/tinyaot_max"
printf '#!/bin/sh\nexec "%s" "$@" --memory.optimize max\n' "$build/tinyaot" >"$wrap"
chmod +x "$wrap"
out="$work/qemu_max"
if ! suite_qemu_exact person_detect_qemu_inplace m55 "$pd" "$out" --tinyaot "$wrap"; then
  : # the FAIL line is printed
elif ! grep -q '"in_place": {"enabled": true, "operators": \[\(1\|[0-9, ]*, 1\)[],]' "$out/module/report.json"; then
  fail person_detect_qemu_inplace "exact, but operator 1 did not run in place"
elif ! sed -n '/op1[a-z0-9_]*_depthwise_conv_2d_params = {/,/^};/p' "$out/module/src/person_detect_model.c" | grep -q '\.pack = 2,'; then
  fail person_detect_qemu_inplace "exact and in place, but operator 1 does not pack pixels"
else
  pass person_detect_qemu_inplace
fi
