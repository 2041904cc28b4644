#!/bin/sh
# heliaAOT compatibility of the generated API (issue 15, items 2 and 3):
#  - application programs written in heliaAOT's documented style (tests/helia_apps, each
#    naming its public sources) compile unchanged against tinyaot modules and give the
#    corpus golden outputs exactly, on the host and on QEMU Cortex-M4 / Cortex-M55;
#    they also check that a callback set before <prefix>_model_init is kept; one of them
#    (layout_style) includes heliaAOT's layout headers (<prefix>_context/_operators/
#    _tensors/_platform.h), redirects <PREFIX>_PRINTF and sizes a table with
#    <PREFIX>_LAST_IDENTIFIER + 1;
#  - the default <PREFIX>_PRINTF (printf) and a size_t <prefix>_bind_arena compile for
#    host, M4 and M55 against every public header;
#  - a module compiled for another core than it was generated for stops at #error
#    naming that core; a host module compiles for any core;
#  - --test.enabled: <prefix>_test_case_init/run with the stimulus and expected outputs
#    of an .npz (input_<i>/output_<i>; stored and deflated members) pass on the host and
#    on QEMU M4/M55 for the MLPerf Tiny models; without an .npz, the expected outputs of
#    tinyaot's host run (kws, ic) are reproduced on M4/M55; a wrong expected value fails
#    (tolerance 0) and passes with a tolerance that covers it; malformed .npz files are
#    refused with one line.
# usage: sh tests/suites/helia_api.sh BUILD CORPUS WORKDIR
#   HELIA_MODELS="kws ad" limits the models (default: kws vww ic ad strww).
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup helia_api "$@" || { fail setup "no work folder"; exit 0; }
tinyaot="$build/tinyaot"
apps="$TA_ROOT/tests/helia_apps"
models=${HELIA_MODELS:-kws vww ic ad strww}
warn="-std=c99 -Wall -Wextra -Werror -O2"

suite_require "$corpus/models/kws"
for tool in arm-none-eabi-gcc qemu-system-arm python3; do
  command -v "$tool" >/dev/null 2>&1 || { fail setup "$tool is missing (tests/run_target_tests.sh installs the cross tools)"; exit 0; }
done

arch_of() {
  case "$1" in
    m4) echo "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb" ;;
    m55) echo "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb" ;;
  esac
}
platform_of() { case "$1" in host) echo host ;; m4) echo cortex-m4 ;; m55) echo cortex-m55 ;; esac; }

# convert MODEL CORE DIR [extra convert args]: a module with prefix "aot" (heliaAOT's apps use it)
convert() {
  model=$1 core=$2 dir=$3
  shift 3
  rm -rf "$dir"
  "$tinyaot" convert "$corpus/models/$model/model.tflite" -o "$dir" --name "$model" --module.prefix aot \
    --platform "$(platform_of "$core")" "$@" >"$dir.convert.log" 2>&1
}

# host_app DIR APP CASE OUT: builds APP (tests/helia_apps/APP.c or a module source) with
# the module in DIR and runs it on the case's inputs.
host_app() {
  dir=$1 app_src=$2 case_dir=$3 out=$4
  mkdir -p "$out"
  cc $warn -I"$dir/include" -I"$dir/src" -I"$apps" "$app_src" "$apps/host_main.c" "$dir"/src/*.c -o "$out/app" -lm \
    >"$out/build.log" 2>&1 || return 11
  "$out/app" "$case_dir" "$out" >"$out/run.log" 2>&1 || return 13
}

# qemu_app CORE DIR APP CASE OUT: the module's own Makefile for the core, the app with the
# bare-metal start-up of target/common, the case's inputs linked in, run under QEMU.
qemu_app() {
  core=$1 dir=$2 app_src=$3 case_dir=$4 out=$5
  arch=$(arch_of "$core")
  case "$core" in
    m4) machine=mps2-an386 ld=mps2-an386.ld ;;
    m55) machine=mps3-an547 ld=mps3-an547.ld ;;
  esac
  mkdir -p "$out/obj"
  make -C "$dir" TARGET="$(platform_of "$core")" CFLAGS="-O2 -Wall -Wextra -Werror" >"$out/build.log" 2>&1 || return 11
  lib=$(ls "$dir"/lib*.a 2>/dev/null | head -n 1)
  [ -n "$lib" ] || return 11
  cs="$out/obj/tahw_case.S"
  {
    echo "  .section .tahw_case, \"a\", %progbits"
    i=0
    while [ -f "$case_dir/in$i.bin" ]; do
      printf '  .balign 16\ntahw_in%d:\n  .incbin "%s"\ntahw_in%d_end:\n' "$i" "$case_dir/in$i.bin" "$i"
      i=$((i + 1))
    done
    echo "  .section .rodata.tahw_case_table, \"a\", %progbits"
    echo "  .balign 4"
    echo "  .global ta_case_inputs"
    echo "ta_case_inputs:"
    k=0
    while [ $k -lt $i ]; do echo "  .word tahw_in$k, tahw_in${k}_end - tahw_in$k"; k=$((k + 1)); done
    [ $i -eq 0 ] && echo "  .word 0, 0"
    echo "  .global ta_case_num_inputs"
    echo "ta_case_num_inputs:"
    echo "  .word $i"
  } >"$cs"
  common="$TA_ROOT/target/common"
  cflags="$arch $warn -ffreestanding -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections"
  inc="-I$common -I$dir/include -I$dir/src -I$apps"
  if ! {
    arm-none-eabi-gcc $arch $inc -DTA_BENCH_OPERATORS=0 -c "$common/startup.S" -o "$out/obj/startup_s.o" &&
    arm-none-eabi-gcc $arch -c "$cs" -o "$out/obj/case.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/startup.c" -o "$out/obj/startup.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/semihost.c" -o "$out/obj/semihost.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$apps/qemu_main.c" -o "$out/obj/qemu_main.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$app_src" -o "$out/obj/app.o" &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" -T"$ld" \
      "$out"/obj/*.o "$lib" -lm -o "$out/image.elf"
  } >"$out/link.log" 2>&1; then
    return 12
  fi
  (cd "$out" && exec timeout 300 qemu-system-arm -M "$machine" -nodefaults -display none -monitor none \
    -serial null -semihosting-config enable=on,target=native -kernel "$out/image.elf") >"$out/qemu.log" 2>&1 || return 13
}

why() { # exit code of host_app/qemu_app -> text
  case "$1" in
    10) echo "conversion failed: $(head -n 1 "$2.convert.log")" ;;
    11) echo "build failed: $(grep -m1 -i 'error' "$3/build.log")" ;;
    12) echo "link failed: $(grep -m1 -i 'error\|undefined' "$3/link.log")" ;;
    13) echo "run failed: $(cat "$3/run.log" "$3/qemu.log" 2>/dev/null | head -n 2 | tr '\n' ' ')" ;;
    *) echo "exit $1" ;;
  esac
}

# ---- the wrong-core check ----------------------------------------------------------------
for core in m55 m4; do
  dir="$work/core-$core"
  if ! convert kws "$core" "$dir"; then fail "wrong-core-$core" "$(why 10 "$dir")"; continue; fi
  want=$(platform_of "$core")
  if cc $warn -I"$dir/include" -I"$dir/src" -c "$dir/src/kws_model.c" -o "$dir/model.o" >"$dir/host.log" 2>&1; then
    fail "wrong-core-$core" "a $want module compiled for the host without an error"
  elif grep -q "#error" "$dir/host.log" && grep -q "generated for $want" "$dir/host.log"; then
    pass "wrong-core-$core"
  else
    fail "wrong-core-$core" "no #error naming $want: $(grep -m1 error "$dir/host.log")"
  fi
done
# an M55 module compiled for the M4 (no MVE) stops too; a host module compiles for both cores
dir="$work/core-m55"
if arm-none-eabi-gcc $(arch_of m4) $warn -I"$dir/include" -I"$dir/src" -c "$dir/src/kws_model.c" -o "$dir/m4.o" \
     >"$dir/m4.log" 2>&1; then
  fail wrong-core-m55-on-m4 "compiled without an error"
elif grep -q "generated for cortex-m55" "$dir/m4.log"; then pass wrong-core-m55-on-m4
else fail wrong-core-m55-on-m4 "$(grep -m1 error "$dir/m4.log")"; fi
dir="$work/core-host"
if convert kws host "$dir" &&
   arm-none-eabi-gcc $(arch_of m4) $warn -I"$dir/include" -I"$dir/src" -c "$dir/src/kws_model.c" -o "$dir/m4.o" \
     >"$dir/m4.log" 2>&1 &&
   arm-none-eabi-gcc $(arch_of m55) $warn -I"$dir/include" -I"$dir/src" -c "$dir/src/kws_model.c" -o "$dir/m55.o" \
     >>"$dir/m4.log" 2>&1; then
  pass host-module-any-core
else
  fail host-module-any-core "$(grep -m1 error "$dir/m4.log" "$dir.convert.log" 2>/dev/null)"
fi

# ---- heliaAOT's layout headers: default print hook, size_t bind_arena (compile only) ----
hdr_app="$work/layout_headers.c"
cat >"$hdr_app" <<'EOF'
/* Every heliaAOT public header, the default print hook and heliaAOT's bind_arena type. */
#include "aot_common.h"
#include "aot_context.h"
#include "aot_model.h"
#include "aot_operators.h"
#include "aot_tensors.h"
#include "aot_platform.h"
int32_t (*const bind_fn)(aot_arena_region_t, void *, size_t) = aot_bind_arena;
int say_last(void) { return AOT_PRINTF("last operator id %d\n", AOT_LAST_IDENTIFIER); }
EOF
for core in host m4 m55; do
  dir="$work/hdr-$core"
  if ! convert kws "$core" "$dir" --no-memory.allocate-arenas; then fail "layout-headers-$core" "$(why 10 "$dir")"; continue; fi
  case "$core" in host) ccmd="cc" ;; *) ccmd="arm-none-eabi-gcc $(arch_of "$core")" ;; esac
  if $ccmd $warn -I"$dir/include" -c "$hdr_app" -o "$dir/hdr.o" >"$dir/hdr.log" 2>&1; then pass "layout-headers-$core"
  else fail "layout-headers-$core" "$(grep -m1 error "$dir/hdr.log")"; fi
done

# ---- the golden data (.npz) and the program that runs a module's test case ----------------
npz() { python3 "$apps/make_npz.py" "$@" >>"$work/npz.log" 2>&1; }
test_main="$work/test_case_main.c"
cat >"$test_main" <<'EOF'
/* Runs the module's generated test case: heliaAOT's <prefix>_test_case_init/run. */
#include "aot_test_case.h"
#include "app_io.h"
int app_main(void) {
  int32_t status = aot_test_case_init();
  if (status != 0) return 100 + (int)status;
  status = aot_test_case_run();
  return status == 0 ? 0 : (int)(200 + aot_test_case_mismatches());
}
EOF
# ---- one module per model and core (the HKV placement, --test.enabled with an .npz):
# the two heliaAOT-style applications, exact against the golden outputs, and the
# module's own test case
for model in $models; do
  m="$corpus/models/$model"
  for kind in stored deflated; do
    g="$work/$model-$kind.npz"
    if ! npz --"$kind" "$m/manifest.json" "$m/case_0" "$g"; then fail "npz-$model-$kind" "cannot write $g (see $work/npz.log)"; continue 2; fi
  done
  for core in host m4 m55; do
    dir="$work/mod-$core-$model"
    kind=stored
    [ "$core" = host ] || kind=deflated
    if ! convert "$model" "$core" "$dir" --config "$apps/arena_sram.yaml" --test.enabled \
         --test.golden_data "$work/$model-$kind.npz"; then
      fail "module-$core-$model" "$(why 10 "$dir")"
      continue
    fi
    for app in profiler_style hkv_style layout_style; do
      out="$work/run-$core-$model-$app"
      rc=0
      if [ "$core" = host ]; then host_app "$dir" "$apps/$app.c" "$m/case_0" "$out" || rc=$?
      else qemu_app "$core" "$dir" "$apps/$app.c" "$m/case_0" "$out" || rc=$?; fi
      if [ $rc -ne 0 ]; then fail "$app-$core-$model" "$(why $rc "$dir" "$out")"
      elif cmp -s "$out/out0.bin" "$m/case_0/out0.bin"; then pass "$app-$core-$model"
      else fail "$app-$core-$model" "out0.bin differs from the golden output"; fi
    done
    out="$work/tcrun-$core-$model"
    rc=0
    if [ "$core" = host ]; then host_app "$dir" "$test_main" "$m/case_0" "$out" || rc=$?
    else qemu_app "$core" "$dir" "$test_main" "$m/case_0" "$out" || rc=$?; fi
    if [ $rc -eq 0 ]; then pass "test-case-$core-$model"; else fail "test-case-$core-$model" "$(why $rc "$dir" "$out")"; fi
  done
done

# without golden data: the expected outputs of tinyaot's host run on a deterministic
# stimulus; the M4/M55 modules (DSP/MVE kernel tiers) must reproduce the host's portable ones
for model in kws ic; do
  case " $models " in *" $model "*) ;; *) continue ;; esac
  for core in host m4 m55; do
    dir="$work/tch-$core-$model"
    out="$work/tchrun-$core-$model"
    if ! convert "$model" "$core" "$dir" --test.enabled; then
      fail "test-case-hostrun-$core-$model" "$(why 10 "$dir")"
      continue
    fi
    grep -q "host run" "$dir/src/${model}_test_case.c" || { fail "test-case-hostrun-$core-$model" "not from the host run"; continue; }
    rc=0
    if [ "$core" = host ]; then host_app "$dir" "$test_main" "$corpus/models/$model/case_0" "$out" || rc=$?
    else qemu_app "$core" "$dir" "$test_main" "$corpus/models/$model/case_0" "$out" || rc=$?; fi
    if [ $rc -eq 0 ]; then pass "test-case-hostrun-$core-$model"; else fail "test-case-hostrun-$core-$model" "$(why $rc "$dir" "$out")"; fi
  done
done
dir="$work/tch-nocc"
if CC=false "$tinyaot" convert "$corpus/models/kws/model.tflite" -o "$dir" --name kws --test.enabled >"$dir.log" 2>&1; then
  fail test-case-hostrun-no-compiler "converted although the host build could not run"
elif [ "$(grep -c . "$dir.log")" -eq 1 ] && grep -q "host build" "$dir.log" && [ ! -e "$dir" ]; then
  pass test-case-hostrun-no-compiler
else
  fail test-case-hostrun-no-compiler "$(head -n 1 "$dir.log")"
fi

# negative control and tolerance: one expected value off by one
m="$corpus/models/kws"
npz --deflated --bump-output "$m/manifest.json" "$m/case_0" "$work/kws-off.npz"
dir="$work/tc-off"
out="$work/tcrun-off"
if convert kws host "$dir" --test.enabled --test.golden_data "$work/kws-off.npz" &&
   ! host_app "$dir" "$test_main" "$m/case_0" "$out" && grep -q "app_main failed: 201" "$out/run.log"; then
  pass test-case-detects-mismatch
else
  fail test-case-detects-mismatch "a wrong expected value was not reported as one mismatch ($(cat "$out/run.log" 2>/dev/null))"
fi
dir="$work/tc-tol"
out="$work/tcrun-tol"
if convert kws host "$dir" --test.enabled --test.tolerance 1 --test.golden_data "$work/kws-off.npz" &&
   host_app "$dir" "$test_main" "$m/case_0" "$out"; then
  pass test-case-tolerance
else
  fail test-case-tolerance "tolerance 1 did not accept an expected value off by one ($(cat "$dir.convert.log" "$out/run.log" 2>/dev/null | head -n 1))"
fi

# malformed golden data: one located line, nothing written
bad="$work/bad"
mkdir -p "$bad"
good="$work/kws-deflated.npz"
head -c 100 "$good" >"$bad/truncated.npz"
python3 "$apps/make_npz.py" --corrupt-crc "$m/manifest.json" "$m/case_0" "$bad/crc.npz" >>"$work/npz.log" 2>&1
python3 "$apps/make_npz.py" --wrong-dtype "$m/manifest.json" "$m/case_0" "$bad/dtype.npz" >>"$work/npz.log" 2>&1
python3 "$apps/make_npz.py" --no-output "$m/manifest.json" "$m/case_0" "$bad/missing.npz" >>"$work/npz.log" 2>&1
python3 "$apps/make_npz.py" --bad-deflate "$m/manifest.json" "$m/case_0" "$bad/deflate.npz" >>"$work/npz.log" 2>&1
printf 'not a zip at all' >"$bad/text.npz"
for f in truncated crc dtype missing deflate text; do
  dir="$bad/out-$f"
  rm -rf "$dir"
  "$tinyaot" convert "$m/model.tflite" -o "$dir" --name kws --test.enabled --test.golden_data "$bad/$f.npz" \
    >"$bad/$f.log" 2>&1
  rc=$?
  lines=$(grep -c . "$bad/$f.log")
  if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$lines" -eq 1 ] && grep -q "$f.npz" "$bad/$f.log" && [ ! -e "$dir" ]; then
    pass "bad-npz-$f"
  else
    fail "bad-npz-$f" "exit $rc, $lines lines: $(head -n 1 "$bad/$f.log")"
  fi
done
exit 0
