#!/bin/sh
# int16x8 tiers on Cortex-M55 (ta_gemm_s16_mve, ta_depthwise_conv_s16_mve; docs/kernels.md):
# - every a16w8 model and every int16 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED case
#   of the corpus, case 0, converted for cortex-m55 and run on QEMU mps3-an547: outputs
#   byte-equal to the TFLite Micro golden; where the layer qualifies (int64 bias; depthwise
#   with multiplier 1) the module must call the MVE kernel, and an int32-bias case must not;
#   int16 ADD / SUB cases likewise: same-shape inputs call ta_add_s16_mve / ta_sub_s16_mve,
#   broadcasting ones must not;
# - ta_add_s16_mve / ta_sub_s16_mve against the portable ta_add_s16 / ta_sub_s16 on QEMU
#   (tests/target/addsub_s16_mve_check.c: random descriptors and inputs, every tail length);
# - the MVE loops of ta_conv_s16_mve / ta_gemm_s16_mve / ta_depthwise_conv_s16_mve against
#   the same files built without MVE (tests/target/gemm_s16_mve_check.c: random geometries
#   (windows gathered inside and across the border, depthwise 3x3 / 2x2 / one-column),
#   fold / wide / fix / int64 tables), with the assembly loops and again with a frame
#   pointer (TA_NO_WIDE_ASM: their C equivalents);
# - the kernel files compile warning-free with GCC and clang at -O0/-Os/-O2/-O3 as C99.
# S16_M55_CASES="pattern ..." limits the corpus directories run (shell patterns on the name).
# usage: sh tests/suites/s16-m55.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup s16-m55 "$@" || { echo "FAIL s16-m55: no work folder"; exit 0; }

if [ ! -d "$corpus/models" ]; then
  echo "SKIP s16-m55: corpus absent ($corpus)"
  exit 0
fi
ta_ensure_packages >/dev/null 2>&1 || { echo "FAIL s16-m55: cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"; exit 0; }

# What the module must (or, with a leading !, must not) call for this case.
expected_kernel() { # case name
  case "$1" in
    *_a16w8) echo "_s16_mve(" ;;
    conv_2d_int16_*bias32*) echo "!ta_conv_s16_mve(" ;;
    fully_connected_int16_*bias32*) echo "!ta_gemm_s16_mve(" ;;
    conv_2d_int16_*) echo "ta_conv_s16_mve(" ;;
    fully_connected_int16_*) echo "ta_gemm_s16_mve(" ;;
    depthwise_conv_2d_int16_*_m1_*) echo "ta_depthwise_conv_s16_mve(" ;;
    add_int16_*same*) echo "ta_add_s16_mve(" ;;
    sub_int16_*same*) echo "ta_sub_s16_mve(" ;;
    add_int16_*|sub_int16_*) echo "!dd_s16_mve(" ;;
    *) echo "" ;;
  esac
}

selected() { # case name
  [ -z "$S16_M55_CASES" ] && return 0
  for p in $S16_M55_CASES; do
    # shellcheck disable=SC2254
    case "$1" in $p) return 0 ;; esac
  done
  return 1
}

run_one() { # corpus dir
  dir=$1 name=$(basename "$1")
  label="s16-m55:$name"
  out="$work/$name"
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core m55 --name t16 --model "$dir/model.tflite" --case "$dir/case_0" \
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
  case "$want" in
    "") ;;
    !*) if grep -q "${want#!}" "$out"/module/src/t16_model.c; then
          echo "FAIL $label: exact, but the module calls the MVE kernel (${want#!}) it must not use"
          return
        fi ;;
    *) if ! grep -q "$want" "$out"/module/src/t16_model.c; then
         echo "FAIL $label: exact, but the module does not call the MVE kernel ($want)"
         return
       fi ;;
  esac
  form=""
  grep -q "gemm16m_bias\|dw16m_rq" "$out"/module/src/t16_model.c && form=" fold"
  grep -q "gemm16m_rq\|dw16m_general" "$out"/module/src/t16_model.c && form="$form int64"
  case "$want" in ""|!*) form="" ;; esac
  echo "PASS $label${form:+ (MVE tier,$form)}"
  rm -rf "$out"
}

for dir in "$corpus"/models/*_a16w8 "$corpus"/ops/conv_2d_int16_* "$corpus"/ops/depthwise_conv_2d_int16_* \
           "$corpus"/ops/fully_connected_int16_* "$corpus"/ops-new/conv_2d_int16_* \
           "$corpus"/ops-new/depthwise_conv_2d_int16_* "$corpus"/ops-new/fully_connected_int16_* \
           "$corpus"/ops/add_int16_* "$corpus"/ops/sub_int16_* "$corpus"/ops-new/add_int16_* \
           "$corpus"/ops-new/sub_int16_*; do
  [ -f "$dir/model.tflite" ] || continue
  selected "$(basename "$dir")" || continue
  run_one "$dir"
done

# ---- ta_add_s16_mve / ta_sub_s16_mve against the portable kernels, bare metal on QEMU ----
# shellcheck disable=SC2086
addsub_check() {
  label="s16-m55:addsub-kernel"
  d="$work/addsub" common="$TA_ROOT/target/common" kernels="$TA_ROOT/runtime/kernels"
  mkdir -p "$d"
  arch="-mcpu=cortex-m55 -mfloat-abi=hard -mthumb"
  cflags="$arch -O2 -std=c99 -Wall -Wextra -Werror -ffreestanding -ffunction-sections -fdata-sections"
  if ! {
    arm-none-eabi-gcc $arch -I"$common" -c "$common/startup.S" -o "$d/startup_s.o" &&
    (for f in "$common/startup.c" "$common/semihost.c" "$TA_ROOT/tests/target/addsub_s16_mve_check.c" \
              "$kernels/ta_addsub_s16_mve.c" "$kernels/ta_elementwise.c"; do
      # shellcheck disable=SC2086
      arm-none-eabi-gcc $cflags -I"$common" -I"$kernels" -c "$f" -o "$d/$(basename "$f" .c).o" || exit 1
    done) &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" \
      -T"$TA_ROOT/target/mps3-an547.ld" "$d"/*.o -lm \
      -o "$d/image.elf"
  } >"$d/build.log" 2>&1; then
    echo "FAIL $label: build ($(grep -m1 error "$d/build.log"))"
    return
  fi
  suite_check_image "$label" "$d" mps3-an547 "elements exact"
}
addsub_check

# ---- the int16x8 matrix and depthwise kernels' MVE loops against their plain-C paths ----
# shellcheck disable=SC2086
gemm_check() { # [LABEL-SUFFIX EXTRA-CFLAGS]: the MVE side also built with those flags
  label="s16-m55:gemm-kernels$1"
  d="$work/gemm$1" common="$TA_ROOT/target/common" kernels="$TA_ROOT/runtime/kernels"
  mkdir -p "$d"
  arch="-mcpu=cortex-m55 -mfloat-abi=hard -mthumb"
  cflags="-O2 -std=c99 -Wall -Wextra -Werror -ffreestanding -ffunction-sections -fdata-sections -I$common -I$kernels"
  ren="-Dta_conv_s16_mve=ref_conv_s16_mve -Dta_gemm_s16_mve=ref_gemm_s16_mve"
  ren="$ren -Dta_depthwise_conv_s16_mve=ref_depthwise_conv_s16_mve"
  if ! {
    arm-none-eabi-gcc $arch -I"$common" -c "$common/startup.S" -o "$d/startup_s.o" &&
    (for f in "$common/startup.c" "$common/semihost.c" "$TA_ROOT/tests/target/gemm_s16_mve_check.c" \
              "$kernels/ta_gemm_s16_mve.c" "$kernels/ta_depthwise_conv_s16_mve.c"; do
      arm-none-eabi-gcc $arch $cflags $2 -c "$f" -o "$d/$(basename "$f" .c).o" || exit 1
      case "$f" in
        */ta_*_s16_mve.c) arm-none-eabi-gcc -mcpu=cortex-m55+nomve -mfloat-abi=hard -mthumb $cflags $ren -c "$f" \
                            -o "$d/ref_$(basename "$f" .c).o" || exit 1 ;;
      esac
    done) &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" \
      -T"$TA_ROOT/target/mps3-an547.ld" "$d"/*.o -lm -o "$d/image.elf"
  } >"$d/build.log" 2>&1; then
    echo "FAIL $label: build ($(grep -m1 error "$d/build.log"))"
    return
  fi
  suite_check_image "$label" "$d" mps3-an547 "outputs equal"
}
gemm_check
# the C loops a build with a frame pointer takes instead of the assembly ones
gemm_check "-frame-pointer" "-fno-omit-frame-pointer -DTA_NO_WIDE_ASM"

# ---- compile flags: the kernel files at every usual level, both compilers, C99 -pedantic ----
flags() {
  label="s16-m55:compile-flags"
  m="$work/flags"
  if ! "$build/tinyaot" convert "$corpus/models/kws_a16w8/model.tflite" --platform cortex-m55 -o "$m" --prefix k16 \
       >"$work/flags.log" 2>&1; then
    echo "FAIL $label: convert kws_a16w8 for cortex-m55"
    return
  fi
  fails="" n=0
  for cc in arm-none-eabi-gcc clang; do
    command -v $cc >/dev/null 2>&1 || continue
    target=""
    [ $cc = clang ] && target="--target=arm-none-eabi -isystem /usr/lib/arm-none-eabi/include"
    for opt in -O0 -Os -O2 -O3; do
      for f in "$m"/src/k16_ta_gemm_s16_mve.c "$m"/src/k16_ta_depthwise_conv_s16_mve.c "$m"/src/ta_gemm_s16_mve.c \
               "$m"/src/ta_depthwise_conv_s16_mve.c "$TA_ROOT/runtime/kernels/ta_addsub_s16_mve.c"; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        $cc $target -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -std=c99 -pedantic -Wall -Wextra -Werror \
          $opt -I"$m/src" -I"$TA_ROOT/runtime/kernels" -c "$f" -o "$work/flags.o" >>"$work/flags.log" 2>&1 ||
          fails="$fails $cc$opt:$(basename "$f")"
      done
    done
  done
  if [ $n -lt 12 ]; then echo "FAIL $label: only $n compilations (kernel files not in the module?)"
  elif [ -n "$fails" ]; then echo "FAIL $label:$fails"
  else echo "PASS $label ($n compilations)"; fi
}
flags
