#!/bin/sh
# int16x8 tiers on Cortex-M4 (ta_gemm_s16_dsp, ta_depthwise_conv_s16_dsp,
# ta_addsub_s16_dsp; docs/kernels.md):
# - every a16w8 model and every int16 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED /
#   ADD / SUB case of the corpus, case 0, converted for cortex-m4 and run on QEMU
#   mps2-an386: outputs byte-equal to the TFLite Micro golden; where the layer qualifies
#   (int64 bias; depthwise with multiplier 1 and an even channel count; ADD / SUB of
#   same-shape inputs) the module must call the DSP kernel;
# - the depth-8 stream (vww_a16w8) and the in-place windows (ic_a16w8) are named in the
#   module's TA_S16_DSP_VARIANTS where the layers take them (not in-place windows for
#   vww_a16w8), and the model stays exact and slower with that bit cleared;
# - kws_a16w8 names bit 11 (padded 3x3 depthwise border windows) and bit 21 (16-value
#   passes), exact and slower with either cleared;
# - the specialised loops against the general ones on random layers (tests/target/
#   s16_dsp_check.c: every border window shape, 16-value passes, in-place windows, forms);
# - vww_a16w8, ic_a16w8 and kws_a16w8 run in at most 1.15x the instructions of their int8
#   twins (issue 19), all six exact;
# - the kernels compile warning-free with GCC and clang at -O0/-Os/-O2/-O3, with and
#   without a frame pointer (their inline assembly fixes r8..r11);
# usage: sh tests/suites/s16_tiers_m4.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup s16_tiers_m4 "$@"
suite_require "$corpus/models"
tier_need_cross fail setup

# What the module must call for this case: the DSP kernel's name, or "" when the case
# has no qualifying layer (int32 bias, depth multiplier 2, odd channels).
expected_kernel() { # case name
  case "$1" in
    *_a16w8) echo "_s16_dsp(" ;;
    *bias32*) echo "" ;;
    conv_2d_int16_*) echo "ta_conv_s16_dsp(" ;;
    fully_connected_int16_*) echo "ta_gemm_s16_dsp(" ;;
    add_int16_*same*) echo "ta_add_s16_dsp(" ;;
    sub_int16_*same*) echo "ta_sub_s16_dsp(" ;;
    depthwise_conv_2d_int16_*_m1_*) # even channel counts only
      c=${1##*_c}
      [ $((c % 2)) -eq 0 ] && echo "ta_depthwise_conv_s16_dsp(" || echo "" ;;
    *) echo "" ;;
  esac
}

run_one() { # corpus dir
  name=$(basename "$1") want=$(expected_kernel "$(basename "$1")")
  tier_case_calls m4 "$1" "$want" DSP || return
  pass "$name${want:+ (DSP tier)}"
  rm -rf "${work:?}/$name"
}

tier_int16_cases | while read -r dir; do run_one "$dir"; done

# ---- the general loops: a module compiled with no specialised int16x8 loop --------------
# TA_S16_DSP_VARIANTS 0: depthwise runs its general loop (unaligned loads, the form read at
# run time, the generic clamp), the matrix kernel its generic-clamp loops; and a build with
# a frame pointer. kws_a16w8 (3x3 depthwise, 1x1 convs) and strww_a16w8 (one-tap-wide
# depthwise filters) must stay exact, the general loops slower than the tuned ones.
# Builds each of D's module variants (a "framepointer" one with -fno-omit-frame-pointer, the
# others at -O2), runs case 0 of CASE_DIR on QEMU M4 and compares with the golden; prints
# why and fails at the first variant that does not build, run or match.
variants_exact() { # NAME D CASE_DIR VARIANT...
  vname=$1 vd=$2 vcase=$3
  shift 3
  for v in "$@"; do
    flags=-O2
    [ "$v" = framepointer ] && flags="-O2 -fno-omit-frame-pointer"
    why=$(tier_module_run m4 "$vd/$v" "$vname" "$vcase" "$vd/$v.out" "$flags" --plugin "$plugin") ||
      { echo "$v: $why"; return 1; }
  done
}

general_check() { # model
  model=$1 dir="$corpus/models/$1"
  check="general-loops/$model"
  d="$work/general-$model"
  if ! tier_convert m4 "$dir/model.tflite" "$d/tuned" fb >/dev/null; then
    fail "$check" "convert"
    return
  fi
  cp -R "$d/tuned" "$d/general"
  cp -R "$d/tuned" "$d/framepointer"
  tier_config "$d/general/src/ta_config.h" FB S16_DSP 0
  if ! why=$(variants_exact fb "$d" "$dir/case_0" tuned general framepointer); then
    fail "$check" "$why"
    return
  fi
  tuned=$(ta_get "$d/tuned.out/run/count.txt" insns)
  general=$(ta_get "$d/general.out/run/count.txt" insns)
  if [ -z "$tuned" ] || [ -z "$general" ] || [ "$general" -le "$tuned" ]; then
    fail "$check" "instructions with the general loops ${general:-?}, tuned ${tuned:-?}: expected more"
    return
  fi
  pass "$check (exact, also with a frame pointer; $general instructions against $tuned)"
  rm -rf "$d"
}
plugin=$(ta_build_plugin "$work/plugin") || plugin=""
if [ -n "$plugin" ]; then
  general_check kws_a16w8
  general_check strww_a16w8
else
  fail general-loops "the QEMU instruction-counting plugin does not build"
fi

# ---- the loops named per layer: the depth-8 stream (bit 9) and in-place windows (bit 10) --
# The compiler names bit 9 for vww_a16w8 (its 8-channel pointwise layer) and bit 10 for
# ic_a16w8 (3x3 layers of 16..64 channels), not bit 10 for vww_a16w8 (1x1 layers and a
# 3-channel first layer: nothing to read in place). With the bit cleared in the module's
# ta_config.h the model must stay exact and run more instructions.
variant_bit() { # model bit-name (ta_s16_dsp_contract.h) expect(1/0)
  model=$1 bit=$(contract_bit "$2") expect=$3 dir="$corpus/models/$1"
  check="variant-bit$bit/$model"
  d="$work/bit$bit-$model"
  if ! tier_convert m4 "$dir/model.tflite" "$d/tuned" vb >/dev/null; then
    fail "$check" "convert"
    return
  fi
  mask=$(tier_mask "$d/tuned/src/ta_config.h" S16_DSP)
  if [ -z "$mask" ]; then
    fail "$check" "no TA_S16_DSP_VARIANTS mask in ta_config.h"
    return
  fi
  has=$(( (mask >> bit) & 1 ))
  if [ "$has" -ne "$expect" ]; then
    fail "$check" "mask $mask, bit $bit is $has, expected $expect"
    return
  fi
  if [ "$expect" -eq 0 ]; then
    pass "$check (mask $mask leaves it out)"
    rm -rf "$d"
    return
  fi
  cp -R "$d/tuned" "$d/without"
  tier_config "$d/without/src/ta_config.h" VB S16_DSP $((mask & ~(1 << bit)))
  if ! why=$(variants_exact vb "$d" "$dir/case_0" tuned without); then
    fail "$check" "$why"
    return
  fi
  with=$(ta_get "$d/tuned.out/run/count.txt" insns)
  without=$(ta_get "$d/without.out/run/count.txt" insns)
  if [ -z "$with" ] || [ -z "$without" ] || [ "$without" -le "$with" ]; then
    fail "$check" "instructions without bit $bit ${without:-?}, with it ${with:-?}: expected more"
    return
  fi
  pass "$check (exact with and without it; $with against $without instructions)"
  rm -rf "$d"
}

# ---- issue 19's Cortex-M4 target: a16w8 within 1.15x of its int8 twin -------------------
# vww, ic and kws (the three furthest from their twins), case 0 of both variants on QEMU M4
# with the instruction counter, outputs exact.
twin_ratio() { # model
  check="twin-ratio/$1"
  for m in "$1" "$1_a16w8"; do
    if ! suite_qemu_exact "$check" m4 "$corpus/models/$m" "$work/twin-$m" --tinyaot "$build/tinyaot" \
         --plugin "$plugin"; then
      return
    fi
  done
  i8=$(ta_get "$work/twin-$1/run/count.txt" insns)
  i16=$(ta_get "$work/twin-$1_a16w8/run/count.txt" insns)
  if [ -z "$i8" ] || [ -z "$i16" ]; then
    fail "$check" "no instruction counts"
    return
  fi
  if [ $((i16 * 100)) -gt $((i8 * 115)) ]; then
    fail "$check" "$1_a16w8 $i16 instructions against $1 $i8: above 1.15x"
    return
  fi
  pass "$check ($1_a16w8 $i16 against $1 $i8 instructions, both exact)"
  rm -rf "$work/twin-$1" "$work/twin-$1_a16w8"
}
if [ -n "$plugin" ]; then
  variant_bit vww_a16w8 TA_S16_DSP_BIT_STREAM 1
  variant_bit vww_a16w8 TA_S16_DSP_BIT_WINDOW 0
  variant_bit ic_a16w8 TA_S16_DSP_BIT_WINDOW 1
  variant_bit kws_a16w8 TA_S16_DSP_BIT_DW_EDGE 1
  variant_bit kws_a16w8 TA_S16_DSP_BIT_U16 1
  twin_ratio vww
  twin_ratio ic
  twin_ratio kws
else
  fail variant-bits "the QEMU instruction-counting plugin does not build"
fi

# ---- the specialised loops against the general ones, bare metal on QEMU M4 -------------
# tests/target/s16_dsp_check.c: the matrix, CONV_2D and depthwise kernels built with every
# TA_S16_DSP_VARIANTS bit (border windows: bit 11, 16-value passes: bit 21, in-place
# windows: bit 10, every form) against the same files built with the mask 0, renamed ref_*;
# again without bit 22 (the 8-value loops left out: such layers take the general ones).
dsp_check() { # [CHECK-SUFFIX EXTRA-CFLAGS]: the specialised side also built with those flags
  ren="-DTA_S16_DSP_VARIANTS=0u -Dta_conv_s16_dsp=ref_conv_s16_dsp -Dta_gemm_s16_dsp=ref_gemm_s16_dsp"
  ren="$ren -Dta_depthwise_conv_s16_dsp=ref_depthwise_conv_s16_dsp"
  g=runtime/kernels/ta_gemm_s16_dsp.c dw=runtime/kernels/ta_depthwise_conv_s16_dsp.c
  tier_image_check "dsp-kernels${1:-}" m4 "$work/dspcheck${1:-}" "outputs equal" "${2:-}" tests/target/s16_dsp_check.c \
    "$g" "$dw" --ref m4 "$ren" "$g" "$dw" && rm -rf "$work/dspcheck${1:-}"
}
dsp_check
dsp_check "-no-bit22" "-DTA_S16_DSP_VARIANTS=$(printf 0x%xu $(((1 << $(contract_bit TA_S16_DSP_BIT_U8)) - 1)))"

# ---- compile flags: the two kernel files at every usual level, both compilers ----------
flags() {
  m="$work/flags"
  if ! tier_convert m4 "$corpus/models/kws_a16w8/model.tflite" "$m" k16 >/dev/null; then
    fail compile-flags "convert kws_a16w8 for cortex-m4"
    return
  fi
  # ic_a16w8's ADDs: the ADD / SUB kernel file
  if ! tier_convert m4 "$corpus/models/ic_a16w8/model.tflite" "$m-ic" i16 >/dev/null; then
    fail compile-flags "convert ic_a16w8 for cortex-m4"
    return
  fi
  tier_compile_matrix compile-flags m4 24 fp "" "$m"/src/k16_ta_gemm_s16_dsp.c \
    "$m"/src/k16_ta_depthwise_conv_s16_dsp.c "$m"/src/ta_gemm_s16_dsp.c "$m"/src/ta_depthwise_conv_s16_dsp.c \
    "$m-ic"/src/i16_ta_addsub_s16_dsp.c "$m-ic"/src/ta_addsub_s16_dsp.c
}
flags
