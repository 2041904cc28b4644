#!/bin/sh
# int8 DEPTHWISE_CONV_2D on Cortex-M4, the DSP tier's row-pair form (ta_depthwise_conv_dsp.h,
# docs/kernels.md): 3x3 layers with stride 1 down and at least 6 output columns widen their
# input rows in pairs into scratch and run SMLAD on (row, row + 1) pairs.
# - converted for cortex-m4, vww's operator 1 (48x48x8, stride 1) takes the row-pair form;
#   vww's operator 3 (stride 2) and operator 25 (3 columns) keep the classic one;
# - kws's operator 1 (25x5x64: 5 columns) takes the row-pair form with its widened rows on
#   the kernel's stack (NULL scratch): kws's scratch arena stays at its layer-by-layer bound,
#   and its variant mask leaves the classic form's code out (bit 4) and has bit 5 (the
#   widening set up once per group, layers narrower than 6 columns; vww's mask lacks it);
#   with --memory.optimize max it runs in place in the classic form (form 0, the in-place
#   entry, no row-pair code compiled); vww's 6-wide operator 13, on the stack too, keeps the
#   row-pair form in max mode (no contract: in place it would save no byte);
# - on QEMU Cortex-M4, vww case 0 equals the golden and operator 1 runs at most 2.5
#   instructions per MAC (the classic form: 3.04); kws case 0 equals the golden and its
#   operator 1 runs at most 2.65 instructions per MAC (the classic form: 2.88; the row-pair
#   form before its widening loop was asm: 2.67);
# - kws's average pool (operator 9) compiles only ta_avg_pool_s8's channel-group loop
#   (TA_POOLING_VARIANTS 0x2), vww's 3x3 one only the generic loop (0x1); on QEMU kws's
#   runs at most 15000 instructions (the generic loop: 67.6k);
# - on QEMU Cortex-M4, strww case 0 equals the golden (its H x 1 layers run the classic
#   form's tall-column asm, two filter rows per loop pass: operator 2 has 5 taps, an even
#   count of loop rows, operator 4 has 10, an odd one) and operators 2 and 4 run at most
#   4.0 and 3.26 instructions per MAC (one row per pass and a counted pair loop: 4.21, 3.40);
# - generated layers (fuzz_diff_gen dwconv, TFLite Micro goldens): the row-pair form with
#   its zero-point padding and, on odd heights, the lone-row body (bit 6), exact (below);
# (Its C loops, CLAMP and without the asm body, are run on vww by run_target_tests.sh's
# fallback-loops checks.)
# SKIP without the corpus or the cross tools.
# usage: sh tests/suites/depthwise_tiers_m4.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup depthwise_tiers_m4 "$@"

vww="$corpus/models/vww"
kws="$corpus/models/kws"
strww="$corpus/models/strww"
suite_require "$vww" "$kws"

# form_of MODULE_C OP -> the .form of operator OP's DSP depthwise descriptor
form_of() {
  sed -n "/op$2_depthwise_conv_2d_params = {/,/^};/p" "$1" | sed -n 's/^ *\.form = \([0-9]*\),.*/\1/p'
}

if ! "$build/tinyaot" convert "$vww/model.tflite" -o "$work/vww" --platform cortex-m4 >"$work/vww.log" 2>&1; then
  fail vww_rowpair_chosen "convert failed: $(tail -n 1 "$work/vww.log")"
else
  f1=$(form_of "$work/vww/src/vww_model.c" 1)
  f3=$(form_of "$work/vww/src/vww_model.c" 3)
  f25=$(form_of "$work/vww/src/vww_model.c" 25)
  if [ "$f1" != 1 ]; then
    fail vww_rowpair_chosen "operator 1 (48x48x8, stride 1) has form '$f1', not 1 (row pair)"
  elif [ "$f3" != 0 ]; then
    fail vww_rowpair_chosen "operator 3 (stride 2) has form '$f3', not 0 (classic)"
  elif [ "$f25" != 0 ]; then
    fail vww_rowpair_chosen "operator 25 (3 columns) has form '$f25', not 0 (classic)"
  elif ! tier_mask_has "$work/vww/src/ta_config.h" DEPTHWISE_CONV_DSP TA_DW_DSP_NARROW_BIT 0; then
    fail vww_rowpair_chosen "variant bit TA_DW_DSP_NARROW_BIT (narrow layers' widening set-up) set, no layer is narrow"
  else
    pass vww_rowpair_chosen
  fi
fi
if ! "$build/tinyaot" convert "$kws/model.tflite" -o "$work/kws" --platform cortex-m4 >"$work/kws.log" 2>&1; then
  fail kws_rowpair_on_stack "convert failed: $(tail -n 1 "$work/kws.log")"
else
  f=$(form_of "$work/kws/src/kws_model.c" 1)
  arena=$(sed -n 's/.*"scratch_arena_bytes": *\([0-9]*\).*/\1/p' "$work/kws/report.json" | head -n 1)
  bound=$(sed -n 's/.*"activation_lower_bound": *\([0-9]*\).*/\1/p' "$work/kws/report.json" | head -n 1)
  # operator 1's arguments (a row of the shared body's table or a direct call): scratch NULL
  null_scratch=$(grep -cE 'op1_depthwise_conv_2d_params, [^,]+, [^,]+, NULL,' "$work/kws/src/kws_model.c")
  mask=$(tier_mask "$work/kws/src/ta_config.h" DEPTHWISE_CONV_DSP)
  if [ "$f" != 1 ]; then
    fail kws_rowpair_on_stack "operator 1 (25x5x64) has form '$f', not 1 (row pair)"
  elif [ "$null_scratch" != 1 ]; then
    fail kws_rowpair_on_stack "operator 1 is not called with a NULL scratch"
  elif [ -z "$arena" ] || [ "$arena" != "$bound" ]; then
    fail kws_rowpair_on_stack "scratch arenas '$arena' bytes, layer-by-layer bound '$bound'"
  elif [ -z "$mask" ] || [ $(( mask & $(contract_mask TA_DW_DSP_CLASSIC_BIT) )) -ne 0 ]; then
    fail kws_rowpair_on_stack "variant mask '$mask' compiles the classic form (no layer takes it)"
  elif [ $(( mask & $(contract_mask TA_DW_DSP_NARROW_BIT) )) -eq 0 ]; then
    fail kws_rowpair_on_stack "variant mask '$mask' lacks TA_DW_DSP_NARROW_BIT (the narrow layers' widening set-up)"
  else
    pass "kws_rowpair_on_stack (arena $arena bytes, its bound)"
  fi
  # the average pool (25x5 window, 64 channels) compiles only the channel-group loop;
  # vww's 3x3 window only the generic one (TA_POOLING_VARIANTS, ta_pooling.h)
  pk=$(tier_mask "$work/kws/src/ta_config.h" POOLING)
  pv=$(tier_mask "$work/vww/src/ta_config.h" POOLING)
  pk_want=$(contract_mask TA_POOL_AVG_WORDS_BIT) pv_want=$(contract_mask TA_POOL_AVG_GENERIC_BIT)
  if [ "$((${pk:--1}))" != "$pk_want" ] || [ "$((${pv:--1}))" != "$pv_want" ]; then
    fail avg_pool_mask "kws's pooling mask '$pk' (expected $pk_want), vww's '$pv' (expected $pv_want)"
  else
    pass avg_pool_mask
  fi
fi
if ! "$build/tinyaot" convert "$kws/model.tflite" -o "$work/kws_max" --platform cortex-m4 --memory.optimize max \
  >"$work/kws_max.log" 2>&1; then
  fail kws_max_classic_in_place "convert failed: $(tail -n 1 "$work/kws_max.log")"
else
  src="$work/kws_max/src/kws_model.c"
  f=$(form_of "$src" 1)
  variants=$(tier_mask "$work/kws_max/src/ta_config.h" DEPTHWISE_CONV_DSP)
  if [ "$f" != 0 ]; then
    fail kws_max_classic_in_place "operator 1 has form '$f' in max mode, not 0 (classic)"
  elif ! grep -q 'kws_ta_depthwise_conv_dsp_s8_inplace(' "$src"; then
    fail kws_max_classic_in_place "no depthwise runs in place"
  elif [ -z "$variants" ] || [ $(( variants & $(contract_mask TA_DW_DSP_ROWPAIR_BIT) )) -ne 0 ] ||
       [ $(( variants & $(contract_mask TA_DW_DSP_CLASSIC_BIT) )) -eq 0 ]; then
    fail kws_max_classic_in_place "variant mask '$variants': the row-pair form's code, or not the classic's"
  else
    pass kws_max_classic_in_place
  fi
fi
if ! "$build/tinyaot" convert "$vww/model.tflite" -o "$work/vww_max" --platform cortex-m4 --memory.optimize max \
  >"$work/vww_max.log" 2>&1; then
  fail vww_max_rowpair_kept "convert failed: $(tail -n 1 "$work/vww_max.log")"
else
  f=$(form_of "$work/vww_max/src/vww_model.c" 13)
  if [ "$f" != 1 ]; then
    fail vww_max_rowpair_kept "operator 13 (6 columns) has form '$f' in max mode, not 1 (row pair)"
  else
    pass vww_max_rowpair_kept
  fi
fi

tier_need_cross skip vww_qemu
tier_need_plugin "$build/target"

# layers.txt: "op instructions ..."; the limits are instructions per MAC times the layer's MACs
out="$work/qemu"
if suite_qemu_exact vww_qemu_exact m4 "$vww" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
  pass vww_qemu_exact
  tier_op_insns vww_rowpair_speed "$out/layers.txt" "2.5 per MAC" 1 $((48 * 48 * 8 * 9 * 25 / 10))
fi
out="$work/qemu_kws"
if suite_qemu_exact kws_qemu_exact m4 "$kws" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
  pass kws_qemu_exact
  tier_op_insns kws_rowpair_speed "$out/layers.txt" "2.65 per MAC" 1 $((25 * 5 * 64 * 9 * 265 / 100))
  # operator 9, the average pool over 25x5x64 (8000 inputs): the SXTAB16 loop, exact above
  tier_op_insns kws_avg_pool_speed "$out/layers.txt" "the generic loop: 67.6k" 9 15000
fi
out="$work/qemu_strww"
if [ ! -d "$strww" ]; then
  skip strww_qemu_exact "corpus model absent ($strww)"
elif suite_qemu_exact strww_qemu_exact m4 "$strww" "$out" --tinyaot "$build/tinyaot" --plugin "$plugin" --layers; then
  pass strww_qemu_exact
  # MACs: operator 2 24 x 128 x 5, operator 4 15 x 128 x 10
  tier_op_insns strww_tall_speed "$out/layers.txt" "4.0 and 3.26 per MAC" 2 $((24 * 128 * 5 * 400 / 100)) \
    4 $((15 * 128 * 10 * 326 / 100))
fi

# The row-pair form on generated layers (fuzz_diff_gen dwconv, goldens from TFLite Micro's
# reference kernels): its padding is the input zero point (one bias per channel, one asm
# loop per output row); odd heights end on a lone row (its own body, bit 6, both parities of
# the scratch slots: 7 and 9 rows); SAME and VALID, NEGFIX and SIMPLE, on the stack and in the
# arena. The first also at -O0 and with a frame pointer (the C loops) and with the fallback
# mask (CLAMP's C loops: bits 2, 3, 4 only).
dw_gen_one() { # src dir, check, flags, [fallback]
  d="$work/$2"
  if ! tier_convert m4 "$1/model.tflite" "$d/m" g4 >/dev/null; then
    fail "$2" "convert failed"
    return
  fi
  f=$(form_of "$d/m/src/g4_model.c" 0)
  mask=$(tier_mask "$d/m/src/ta_config.h" DEPTHWISE_CONV_DSP)
  oh=$(sed -n 's/^ *\.out_h = \([0-9]*\),.*/\1/p' "$d/m/src/g4_model.c" | head -n 1)
  if [ "$f" != 1 ] || [ -z "$mask" ] || [ $(( (mask >> $(contract_bit TA_DW_DSP_LONE_BIT)) & 1 )) -ne $(( oh % 2 )) ]; then
    fail "$2" "form '$f', variant mask '$mask' (want the row-pair form, TA_DW_DSP_LONE_BIT iff the height $oh is odd)"
    return
  fi
  [ "${4:-}" = fallback ] && tier_config "$d/m/src/ta_config.h" G4 DEPTHWISE_CONV_DSP \
    "$(contract_mask TA_DW_DSP_CLAMP TA_DW_DSP_ROWPAIR_BIT TA_DW_DSP_CLASSIC_BIT)"
  if ! why=$(tier_module_run m4 "$d/m" g4 "$1/case_0" "$d/out" "$3"); then
    fail "$2" "$why"
    return
  fi
  pass "$2 (exact, $3${4:+, $4})"
  rm -rf "$d"
}
if tier_generator; then
  # name: H W CH KH KW SH SW SAME ACT PER_CHANNEL (ACT 0 none: NEGFIX here, 1 ReLU: SIMPLE)
  while read -r name shape; do
    dir="$work/src_$name"
    # shellcheck disable=SC2086 # shape: the generator's arguments
    why=$(tier_gen_case dwconv 7 "$dir" $shape) || { fail "$name" "$why"; continue; }
    dw_gen_one "$dir" "$name" "-O2"
    if [ "$name" = gen_dw_7x6_neg ]; then
      dw_gen_one "$dir" "$name-O0" "-O0"
      dw_gen_one "$dir" "$name-fp" "-O2 -fno-omit-frame-pointer"
      dw_gen_one "$dir" "$name-fallback" "-O2" fallback
    fi
  done <<GEN
gen_dw_7x6_neg 7 6 8 3 3 1 1 1 0 1
gen_dw_9x5_relu 9 5 12 3 3 1 1 1 1 1
gen_dw_11x10_valid 11 10 8 3 3 1 1 0 1 0
gen_dw_8x9_neg 8 9 16 3 3 1 1 1 0 1
GEN
fi
