#!/bin/sh
# --profile (issue 31, item 6): per-operator cycles read by the module itself.
#  - off (the default): no profile code or symbol in any file, and --profile changes only
#    <name>_model.c and <name>_model.h;
#  - on the host, with tests/profile/profile_app.c: <prefix>_profile[] has one row per
#    operator the callback reports, ascending, named as the model's operator of that index
#    (report.json), no more of a kind than the model has (corpus manifest), and the print
#    hook's lines have the documented format (tests/profile/check_profile.py); with a
#    deterministic clock (<PREFIX>_PROFILE_CYCLES(), tests/profile/step_clock.h) every
#    operator measures exactly its reads, bands summed, and the run its total; with the
#    default clock() the outputs stay the golden ones. Models: kws (interned calls), kws
#    --no-static-calls (table dispatch), mcunet_vww (folded PADs: sparse indices), vww
#    --memory.optimize max (banded operators), ad; `tinyaot run --profile` prints the table;
#  - a host module with --profile compiles with -Werror for Cortex-M4 and Cortex-M55
#    (arm-none-eabi-gcc), with clang, and its header as C++;
#  - on QEMU (mps2-an386 Cortex-M4, mps3-an547 Cortex-M55), a cortex-m4 / cortex-m55 module
#    with --profile runs the application to its end without a fault, its outputs equal the
#    golden, and the counter either counts or reports "none" with every figure 0 (QEMU 7.2
#    implements neither DEMCR.TRCENA, the DWT nor the PMU: it reads 0, see the README).
# usage: sh tests/suites/profile.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup profile "$1" "$2" "$3" || exit 1
tinyaot="$build/tinyaot"
apps="$TA_ROOT/tests/helia_apps"
prof="$TA_ROOT/tests/profile"
warn="-std=c99 -Wall -Wextra -Werror -O2"

if "$tinyaot" convert --help | grep -q -- '--profile  *the module reads a cycle counter'; then pass help
else fail help "convert --help does not describe --profile"; fi

if [ ! -d "$corpus/models/kws" ]; then
  skip corpus "no corpus at $corpus/models"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { fail setup "python3 is missing (tools/prereqs.sh)"; exit 0; }

# convert MODEL PLATFORM DIR [options]: module name and prefix "prof" (the application's)
convert() {
  cv_model=$1 cv_platform=$2 cv_dir=$3
  shift 3
  rm -rf "$cv_dir"
  "$tinyaot" convert "$corpus/models/$cv_model/model.tflite" -o "$cv_dir" --name prof --platform "$cv_platform" "$@" \
    >"$cv_dir.convert.log" 2>&1
}

# ---- off: nothing of the profile, and --profile touches only the model's two files --------
if convert kws host "$work/off" && convert kws host "$work/on" --profile; then
  found=$(grep -rl '_profile\|PROFILE_' "$work/off/include" "$work/off/src" 2>/dev/null)
  if [ -n "$found" ]; then fail off "profile code without --profile in: $found"
  elif ! cc $warn -I"$work/off/include" -I"$work/off/src" -c "$work/off/src/prof_model.c" -o "$work/off.o" 2>"$work/off.cc.log"
  then fail off "the module does not compile: $(head -n 1 "$work/off.cc.log")"
  elif nm "$work/off.o" | grep -q profile; then fail off "a profile symbol without --profile"
  else pass off; fi
  changed=$(diff -rq "$work/off" "$work/on" | grep -v 'tinyaot-manifest' |
    grep -v "include/prof_model.h and\|src/prof_model.c and")
  if [ -z "$changed" ]; then pass only-model-files
  else fail only-model-files "$(echo "$changed" | head -n 3 | tr '\n' ' ')"; fi
else
  fail off "conversion failed: $(cat "$work/off.convert.log" "$work/on.convert.log" 2>/dev/null | head -n 1)"
fi

# ---- the host ---------------------------------------------------------------------------
# host_case LABEL MODEL [convert options]: the default clock, then the step clock
host_case() {
  hc_label=$1 hc_model=$2
  shift 2
  hc_dir="$work/host-$hc_label"
  hc_case="$corpus/models/$hc_model/case_0"
  hc_manifest="$corpus/models/$hc_model/manifest.json"
  if ! convert "$hc_model" host "$hc_dir" --profile "$@"; then
    fail "host-$hc_label" "conversion failed: $(head -n 1 "$hc_dir.convert.log")"
    return
  fi
  mkdir -p "$hc_dir.run"
  for clock in clock step; do
    hc_run="$hc_dir.run/$clock"
    mkdir -p "$hc_run"
    hc_extra=""
    [ $clock = step ] && hc_extra="-include $prof/step_clock.h"
    # shellcheck disable=SC2086
    if ! cc $warn $hc_extra -I"$hc_dir/include" -I"$hc_dir/src" -I"$apps" "$prof/profile_app.c" "$apps/host_main.c" \
         "$hc_dir"/src/*.c -o "$hc_run/app" -lm >"$hc_run/build.log" 2>&1; then
      fail "host-$hc_label-$clock" "build failed: $(grep -m1 error "$hc_run/build.log")"
      continue
    fi
    if ! "$hc_run/app" "$hc_case" "$hc_run" >"$hc_run/out.txt" 2>"$hc_run/err.txt"; then
      fail "host-$hc_label-$clock" "the application failed: $(head -n 1 "$hc_run/err.txt")"
      continue
    fi
    if ! cmp -s "$hc_run/out0.bin" "$hc_case/out0.bin"; then
      fail "host-$hc_label-$clock" "out0.bin differs from the golden"
      continue
    fi
    if [ $clock = step ]; then mode=step want="PROF_PROFILE_CYCLES()"; else mode=any want="clock()"; fi
    if why=$(python3 "$prof/check_profile.py" "$hc_run/out.txt" "$hc_dir" "$hc_manifest" $mode "$want"); then
      pass "host-$hc_label-$clock ($why)"
    else
      fail "host-$hc_label-$clock" "$why"
    fi
  done
}
host_case kws kws
host_case kws-table kws --no-static-calls
host_case mcunet_vww mcunet_vww
host_case vww-bands vww --memory.optimize max
host_case ad ad

# ---- tinyaot run --profile prints each inference's table ---------------------------------
m="$corpus/models/kws"
if "$tinyaot" run "$m/model.tflite" --case "$m/case_0" --out-dir "$work/run" --profile --name prof \
     >"$work/run.txt" 2>"$work/run.err" && cmp -s "$work/run/case_0/out0.bin" "$m/case_0/out0.bin"; then
  rows=$(grep -c '^ *[0-9][0-9]* [A-Z]' "$work/run.txt")
  want=$(sed -n 's/^#define PROF_PROFILE_ENTRIES //p' "$work/on/include/prof_model.h")
  if grep -q '^prof profile, counter clock()$' "$work/run.txt" && [ "$rows" = "$want" ]; then pass run-prints
  else fail run-prints "$rows rows printed, the module has ${want:-?}: $(head -n 1 "$work/run.txt")"; fi
else
  fail run-prints "tinyaot run --profile failed or changed the outputs: $(head -n 1 "$work/run.err")"
fi

# ---- a host module compiles for every core and as C++ ------------------------------------
# compiles LABEL COMPILER ARGS...: PASS when it compiles warning-free, SKIP without COMPILER
compiles() {
  cl_label=$1
  shift
  if ! command -v "$1" >/dev/null 2>&1; then skip "compiles-$cl_label" "$1 is not installed"; return; fi
  if "$@" >"$work/compile-$cl_label.log" 2>&1; then pass "compiles-$cl_label"
  else fail "compiles-$cl_label" "$(grep -m1 -i error "$work/compile-$cl_label.log")"; fi
}
dir="$work/host-kws"
if [ -f "$dir/src/prof_model.c" ]; then
  src="$dir/src/prof_model.c"
  # shellcheck disable=SC2086
  compiles cortex-m4 arm-none-eabi-gcc -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb $warn -pedantic \
    -I"$dir/include" -I"$dir/src" -c "$src" -o "$work/m4.o"
  # shellcheck disable=SC2086
  compiles cortex-m55 arm-none-eabi-gcc -mcpu=cortex-m55 -mfloat-abi=hard -mthumb $warn -pedantic \
    -I"$dir/include" -I"$dir/src" -c "$src" -o "$work/m55.o"
  # shellcheck disable=SC2086
  compiles clang clang $warn -pedantic -I"$dir/include" -I"$dir/src" -c "$src" -o "$work/clang.o"
  printf '#include "prof_model.h"\nint main() { prof_profile_print(0); return (int)prof_profile[0].cycles; }\n' \
    >"$work/header.cpp"
  compiles c++-header c++ -x c++ -std=c++11 -Wall -Wextra -Werror -I"$dir/include" -fsyntax-only "$work/header.cpp"
fi

# ---- QEMU ---------------------------------------------------------------------------------
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v "$tool" >/dev/null 2>&1 || { skip qemu "$tool is missing (tests/run_target_tests.sh installs the cross tools)"; exit 0; }
done
# qemu_case CORE MODEL CLOCK: the module's own Makefile for the core, the application with
# the bare-metal start-up of target/common and the case's inputs linked in, run under QEMU.
# CLOCK core: the core's counter (or "none"); step: the module built with the step clock,
# which takes the counting path (differences, sums, shares) on the core itself.
qemu_case() {
  qc_core=$1 qc_model=$2 qc_clock=$3
  case "$qc_core" in
    m4) qc_platform=cortex-m4 machine=mps2-an386 ld=mps2-an386.ld arch="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb"
        counters="none|DWT CYCCNT" ;;
    m55) qc_platform=cortex-m55 machine=mps3-an547 ld=mps3-an547.ld arch="-mcpu=cortex-m55 -mfloat-abi=hard -mthumb"
         counters="none|PMU CCNTR" ;;
  esac
  label="qemu-$qc_core-$qc_model-$qc_clock"
  qc_cflags="-O2 -Wall -Wextra -Werror"
  if [ "$qc_clock" = step ]; then
    qc_cflags="$qc_cflags -include $prof/step_clock.h"
    counters="PROF_PROFILE_CYCLES()"
  fi
  dir="$work/$label"
  out="$dir.run"
  m="$corpus/models/$qc_model"
  if ! convert "$qc_model" "$qc_platform" "$dir" --profile; then fail "$label" "conversion failed: $(head -n 1 "$dir.convert.log")"; return; fi
  mkdir -p "$out/obj"
  if ! make -C "$dir" TARGET="$qc_platform" CFLAGS="$qc_cflags" >"$out/build.log" 2>&1; then
    fail "$label" "module build failed: $(grep -m1 -i error "$out/build.log")"
    return
  fi
  {
    echo "  .section .tahw_case, \"a\", %progbits"
    i=0
    while [ -f "$m/case_0/in$i.bin" ]; do
      printf '  .balign 16\ntahw_in%d:\n  .incbin "%s"\ntahw_in%d_end:\n' "$i" "$m/case_0/in$i.bin" "$i"
      i=$((i + 1))
    done
    printf '  .section .rodata.tahw_case_table, "a", %%progbits\n  .balign 4\n  .global ta_case_inputs\nta_case_inputs:\n'
    k=0
    while [ $k -lt $i ]; do echo "  .word tahw_in$k, tahw_in${k}_end - tahw_in$k"; k=$((k + 1)); done
    [ $i -eq 0 ] && echo "  .word 0, 0"
    printf '  .global ta_case_num_inputs\nta_case_num_inputs:\n  .word %d\n' "$i"
  } >"$out/obj/case.S"
  common="$TA_ROOT/target/common"
  cflags="$arch $warn -ffreestanding -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections"
  inc="-I$common -I$dir/include -I$dir/src -I$apps"
  # shellcheck disable=SC2086
  if ! {
    arm-none-eabi-gcc $arch $inc -DTA_BENCH_OPERATORS=0 -c "$common/startup.S" -o "$out/obj/startup_s.o" &&
    arm-none-eabi-gcc $arch -c "$out/obj/case.S" -o "$out/obj/case.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/startup.c" -o "$out/obj/startup.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/semihost.c" -o "$out/obj/semihost.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$apps/qemu_main.c" -o "$out/obj/qemu_main.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$prof/profile_app.c" -o "$out/obj/app.o" &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" -T"$ld" \
      "$out"/obj/*.o "$dir/libprof.a" -lm -o "$out/image.elf"
  } >"$out/link.log" 2>&1; then
    fail "$label" "link failed: $(grep -m1 -i 'error\|undefined' "$out/link.log")"
    return
  fi
  rc=0
  (cd "$out" && exec timeout 300 qemu-system-arm -M "$machine" -nodefaults -display none -monitor none \
    -serial null -semihosting-config enable=on,target=native -kernel "$out/image.elf") >"$out/qemu.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then fail "$label" "exit $rc: $(grep -m1 'fault\|failed' "$out/qemu.log")"; return; fi
  if ! cmp -s "$out/out0.bin" "$m/case_0/out0.bin"; then fail "$label" "out0.bin differs from the golden"; return; fi
  counter=$(sed -n 's/^prof profile, counter //p' "$out/qemu.log")
  mode=any
  [ "$counter" = none ] && mode=none
  [ "$qc_clock" = step ] && mode=step
  old_ifs=$IFS IFS='|'
  # shellcheck disable=SC2086
  if why=$(python3 "$prof/check_profile.py" "$out/qemu.log" "$dir" "$m/manifest.json" $mode $counters); then
    IFS=$old_ifs
    pass "$label ($why)"
  else
    IFS=$old_ifs
    fail "$label" "$why"
  fi
}
for core in m4 m55; do
  qemu_case "$core" kws core
  qemu_case "$core" kws step
done
