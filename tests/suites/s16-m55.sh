#!/bin/sh
# int16x8 tiers on Cortex-M55 (ta_gemm_s16_mve, ta_depthwise_conv_s16_mve; docs/kernels.md):
# - every a16w8 model and every int16 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED case
#   of the corpus, case 0, converted for cortex-m55 and run on QEMU mps3-an547: outputs
#   byte-equal to the TFLite Micro golden; where the layer qualifies (int64 bias; depthwise
#   with multiplier 1) the module must call the MVE kernel, and an int32-bias case must not;
# - the kernel files compile warning-free with GCC and clang at -O0/-Os/-O2/-O3 as C99.
# S16_M55_CASES="pattern ..." limits the corpus directories run (shell patterns on the name).
# usage: sh tests/suites/s16-m55.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
build=$1 corpus=$2 work=$3
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac
work="$work/s16-m55"
rm -rf "$work"
mkdir -p "$work"

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
  for g in "$dir"/case_0/out*.bin; do
    if ! cmp -s "$g" "$out/run/$(basename "$g")"; then
      echo "FAIL $label: $(basename "$g") differs from the golden"
      return
    fi
  done
  want=$(expected_kernel "$name")
  case "$want" in
    "") ;;
    !*) if grep -q "${want#!}" "$out"/module/src/t16_model.c; then
          echo "FAIL $label: exact, but an int32 bias took the MVE kernel (${want#!})"
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
           "$corpus"/ops-new/depthwise_conv_2d_int16_* "$corpus"/ops-new/fully_connected_int16_*; do
  [ -f "$dir/model.tflite" ] || continue
  selected "$(basename "$dir")" || continue
  run_one "$dir"
done

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
               "$m"/src/ta_depthwise_conv_s16_mve.c; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        $cc $target -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -std=c99 -pedantic -Wall -Wextra -Werror \
          $opt -I"$m/src" -c "$f" -o "$work/flags.o" >>"$work/flags.log" 2>&1 ||
          fails="$fails $cc$opt:$(basename "$f")"
      done
    done
  done
  if [ $n -lt 8 ]; then echo "FAIL $label: only $n compilations (kernel files not in the module?)"
  elif [ -n "$fails" ]; then echo "FAIL $label:$fails"
  else echo "PASS $label ($n compilations)"; fi
}
flags
