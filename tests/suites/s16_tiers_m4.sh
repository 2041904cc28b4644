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
# usage: sh tests/suites/s16-m4.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup s16-m4 "$@" || { echo "FAIL s16-m4: no work folder"; exit 0; }

if [ ! -d "$corpus/models" ]; then
  echo "SKIP s16-m4: corpus absent ($corpus)"
  exit 0
fi
ta_ensure_packages >/dev/null 2>&1 || { echo "FAIL s16-m4: cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"; exit 0; }

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
  dir=$1 name=$(basename "$1")
  label="s16-m4:$name"
  out="$work/$name"
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core m4 --name t16 --model "$dir/model.tflite" --case "$dir/case_0" \
    --out "$out" --tinyaot "$build/tinyaot" --build make >"$out.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $label: run_case.sh exit $rc ($(grep -m1 -i error "$out.log" "$out"/*.log 2>/dev/null | head -1))"
    return
  fi
  if bad=$(ta_golden_mismatch "$dir/case_0" "$out/run"); then :; else
    echo "FAIL $label: $bad differs from the golden"
    return
  fi
  want=$(expected_kernel "$name")
  if [ -n "$want" ] && ! grep -q "$want" "$out"/module/src/t16_model.c; then
    echo "FAIL $label: exact, but the module does not call the DSP kernel ($want)"
    return
  fi
  echo "PASS $label${want:+ (DSP tier)}"
  rm -rf "$out"
}

for dir in "$corpus"/models/*_a16w8 "$corpus"/ops/conv_2d_int16_* "$corpus"/ops/depthwise_conv_2d_int16_* \
           "$corpus"/ops/fully_connected_int16_* "$corpus"/ops-new/conv_2d_int16_* \
           "$corpus"/ops-new/depthwise_conv_2d_int16_* "$corpus"/ops-new/fully_connected_int16_* \
           "$corpus"/ops/add_int16_* "$corpus"/ops/sub_int16_* "$corpus"/ops-new/add_int16_* \
           "$corpus"/ops-new/sub_int16_*; do
  [ -f "$dir/model.tflite" ] || continue
  run_one "$dir"
done

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
    if ! make -C "$vd/$v" TARGET=cortex-m4 CFLAGS="$flags" >"$vd/$v.build.log" 2>&1; then
      echo "$v module build"
      return 1
    fi
    if ! sh "$TA_ROOT/target/run_case.sh" --core m4 --name "$vname" --lib "$vd/$v/lib$vname.a" \
         --include "$vd/$v/include" --case "$vcase" --out "$vd/$v.out" --plugin "$plugin" >"$vd/$v.run.log" 2>&1; then
      echo "$v: run_case.sh failed (see $vd)"
      return 1
    fi
    if bad=$(ta_golden_mismatch "$vcase" "$vd/$v.out/run"); then :; else
      echo "$v: $bad differs from the golden"
      return 1
    fi
  done
}

general_check() { # model
  model=$1 dir="$corpus/models/$1"
  label="s16-m4:general-loops/$model"
  d="$work/general-$model"
  mkdir -p "$d"
  if ! "$build/tinyaot" convert "$dir/model.tflite" --platform cortex-m4 -o "$d/tuned" --name fb --prefix fb \
       >"$d/convert.log" 2>&1; then
    echo "FAIL $label: convert"
    return
  fi
  cp -R "$d/tuned" "$d/general"
  cp -R "$d/tuned" "$d/framepointer"
  printf '%s\n' '#ifndef FB_TA_CONFIG_H' '#define FB_TA_CONFIG_H' '#define FB_TA_S16_DSP_VARIANTS 0x0u' '#endif' \
    >"$d/general/src/ta_config.h"
  if ! why=$(variants_exact fb "$d" "$dir/case_0" tuned general framepointer); then
    echo "FAIL $label: $why"
    return
  fi
  tuned=$(ta_get "$d/tuned.out/run/count.txt" insns)
  general=$(ta_get "$d/general.out/run/count.txt" insns)
  if [ -z "$tuned" ] || [ -z "$general" ] || [ "$general" -le "$tuned" ]; then
    echo "FAIL $label: instructions with the general loops ${general:-?}, tuned ${tuned:-?}: expected more"
    return
  fi
  echo "PASS $label (exact, also with a frame pointer; $general instructions against $tuned)"
  rm -rf "$d"
}
plugin=$(ta_build_plugin "$work/plugin") || plugin=""
if [ -n "$plugin" ]; then
  general_check kws_a16w8
  general_check strww_a16w8
else
  echo "FAIL s16-m4:general-loops: the QEMU instruction-counting plugin does not build"
fi

# ---- the loops named per layer: the depth-8 stream (bit 9) and in-place windows (bit 10) --
# The compiler names bit 9 for vww_a16w8 (its 8-channel pointwise layer) and bit 10 for
# ic_a16w8 (3x3 layers of 16..64 channels), not bit 10 for vww_a16w8 (1x1 layers and a
# 3-channel first layer: nothing to read in place). With the bit cleared in the module's
# ta_config.h the model must stay exact and run more instructions.
variant_bit() { # model bit-name (ta_s16_dsp_contract.h) expect(1/0)
  model=$1 bit=$(contract_bit "$2") expect=$3 dir="$corpus/models/$1"
  label="s16-m4:variant-bit$bit/$model"
  d="$work/bit$bit-$model"
  mkdir -p "$d"
  if ! "$build/tinyaot" convert "$dir/model.tflite" --platform cortex-m4 -o "$d/tuned" --name vb --prefix vb \
       >"$d/convert.log" 2>&1; then
    echo "FAIL $label: convert"
    return
  fi
  mask=$(sed -n 's/^#define VB_TA_S16_DSP_VARIANTS \(0x[0-9a-f]*\)u$/\1/p' "$d/tuned/src/ta_config.h")
  if [ -z "$mask" ]; then
    echo "FAIL $label: no TA_S16_DSP_VARIANTS mask in ta_config.h"
    return
  fi
  has=$(( (mask >> bit) & 1 ))
  if [ "$has" -ne "$expect" ]; then
    echo "FAIL $label: mask $mask, bit $bit is $has, expected $expect"
    return
  fi
  if [ "$expect" -eq 0 ]; then
    echo "PASS $label (mask $mask leaves it out)"
    rm -rf "$d"
    return
  fi
  cp -R "$d/tuned" "$d/without"
  printf '%s\n' '#ifndef VB_TA_CONFIG_H' '#define VB_TA_CONFIG_H' \
    "#define VB_TA_S16_DSP_VARIANTS $(printf '0x%x' $((mask & ~(1 << bit))))u" '#endif' >"$d/without/src/ta_config.h"
  if ! why=$(variants_exact vb "$d" "$dir/case_0" tuned without); then
    echo "FAIL $label: $why"
    return
  fi
  with=$(ta_get "$d/tuned.out/run/count.txt" insns)
  without=$(ta_get "$d/without.out/run/count.txt" insns)
  if [ -z "$with" ] || [ -z "$without" ] || [ "$without" -le "$with" ]; then
    echo "FAIL $label: instructions without bit $bit ${without:-?}, with it ${with:-?}: expected more"
    return
  fi
  echo "PASS $label (exact with and without it; $with against $without instructions)"
  rm -rf "$d"
}

# ---- issue 19's Cortex-M4 target: a16w8 within 1.15x of its int8 twin -------------------
# vww, ic and kws (the three furthest from their twins), case 0 of both variants on QEMU M4
# with the instruction counter, outputs exact.
twin_ratio() { # model
  label="s16-m4:twin-ratio/$1"
  for m in "$1" "$1_a16w8"; do
    if ! suite_qemu_exact "$label" m4 "$corpus/models/$m" "$work/twin-$m" --tinyaot "$build/tinyaot" \
         --plugin "$plugin"; then
      return
    fi
  done
  i8=$(ta_get "$work/twin-$1/run/count.txt" insns)
  i16=$(ta_get "$work/twin-$1_a16w8/run/count.txt" insns)
  if [ -z "$i8" ] || [ -z "$i16" ]; then
    echo "FAIL $label: no instruction counts"
    return
  fi
  if [ $((i16 * 100)) -gt $((i8 * 115)) ]; then
    echo "FAIL $label: $1_a16w8 $i16 instructions against $1 $i8: above 1.15x"
    return
  fi
  echo "PASS $label ($1_a16w8 $i16 against $1 $i8 instructions, both exact)"
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
  echo "FAIL s16-m4:variant-bits: the QEMU instruction-counting plugin does not build"
fi

# ---- the specialised loops against the general ones, bare metal on QEMU M4 -------------
# tests/target/s16_dsp_check.c: the matrix, CONV_2D and depthwise kernels built with every
# TA_S16_DSP_VARIANTS bit (border windows: bit 11, 16-value passes: bit 21, in-place
# windows: bit 10, every form) against the same files built with the mask 0, renamed ref_*;
# again without bit 22 (the 8-value loops left out: such layers take the general ones).
# shellcheck disable=SC2086
dsp_check() { # [LABEL-SUFFIX EXTRA-CFLAGS]: the specialised side also built with those flags
  label="s16-m4:dsp-kernels$1"
  d="$work/dspcheck$1" common="$TA_ROOT/target/common" kernels="$TA_ROOT/runtime/kernels"
  mkdir -p "$d"
  arch="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb"
  cflags="-O2 -std=c99 -Wall -Wextra -Werror -ffreestanding -ffunction-sections -fdata-sections -I$common -I$kernels"
  ren="-DTA_S16_DSP_VARIANTS=0u -Dta_conv_s16_dsp=ref_conv_s16_dsp -Dta_gemm_s16_dsp=ref_gemm_s16_dsp"
  ren="$ren -Dta_depthwise_conv_s16_dsp=ref_depthwise_conv_s16_dsp"
  if ! {
    arm-none-eabi-gcc $arch -I"$common" -c "$common/startup.S" -o "$d/startup_s.o" &&
    (for f in "$common/startup.c" "$common/semihost.c" "$TA_ROOT/tests/target/s16_dsp_check.c" \
              "$kernels/ta_gemm_s16_dsp.c" "$kernels/ta_depthwise_conv_s16_dsp.c"; do
      arm-none-eabi-gcc $arch $cflags $2 -c "$f" -o "$d/$(basename "$f" .c).o" || exit 1
      case "$f" in
        */ta_*_s16_dsp.c) arm-none-eabi-gcc $arch $cflags $ren -c "$f" -o "$d/ref_$(basename "$f" .c).o" || exit 1 ;;
      esac
    done) &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" \
      -T"$TA_ROOT/target/mps2-an386.ld" "$d"/*.o -lm -o "$d/image.elf"
  } >"$d/build.log" 2>&1; then
    echo "FAIL $label: build ($(grep -m1 error "$d/build.log"))"
    return
  fi
  suite_check_image "$label" "$d" mps2-an386 "outputs equal" && rm -rf "$d"
}
dsp_check
dsp_check "-no-bit22" "-DTA_S16_DSP_VARIANTS=$(printf 0x%xu $(((1 << $(contract_bit TA_S16_DSP_BIT_U8)) - 1)))"

# ---- compile flags: the two kernel files at every usual level, both compilers ----------
flags() {
  label="s16-m4:compile-flags"
  m="$work/flags"
  if ! "$build/tinyaot" convert "$corpus/models/kws_a16w8/model.tflite" --platform cortex-m4 -o "$m" --prefix k16 \
       >"$work/flags.log" 2>&1; then
    echo "FAIL $label: convert kws_a16w8 for cortex-m4"
    return
  fi
  # ic_a16w8's ADDs: the ADD / SUB kernel file
  if ! "$build/tinyaot" convert "$corpus/models/ic_a16w8/model.tflite" --platform cortex-m4 -o "$m-ic" --prefix i16 \
       >>"$work/flags.log" 2>&1; then
    echo "FAIL $label: convert ic_a16w8 for cortex-m4"
    return
  fi
  fails="" n=0
  for cc in arm-none-eabi-gcc clang; do
    command -v $cc >/dev/null 2>&1 || continue
    target=""
    [ $cc = clang ] && target="--target=arm-none-eabi -I/usr/lib/arm-none-eabi/include"
    for opt in -O0 -Os -O2 -O3; do
      for fp in "" -fno-omit-frame-pointer; do
        for f in "$m"/src/k16_ta_gemm_s16_dsp.c "$m"/src/k16_ta_depthwise_conv_s16_dsp.c "$m"/src/ta_gemm_s16_dsp.c \
                 "$m"/src/ta_depthwise_conv_s16_dsp.c "$m-ic"/src/i16_ta_addsub_s16_dsp.c \
                 "$m-ic"/src/ta_addsub_s16_dsp.c; do
          [ -f "$f" ] || continue
          n=$((n + 1))
          # shellcheck disable=SC2086
          $cc $target -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -std=c99 -Wall -Wextra -Werror \
            $opt $fp -I"$(dirname "$f")" -c "$f" -o "$work/flags.o" >>"$work/flags.log" 2>&1 ||
            fails="$fails $cc$opt$fp:$(basename "$f")"
        done
      done
    done
  done
  if [ $n -lt 24 ]; then echo "FAIL $label: only $n compilations (kernel files not in the module?)"
  elif [ -n "$fails" ]; then echo "FAIL $label:$fails"
  else echo "PASS $label ($n compilations)"; fi
}
flags
