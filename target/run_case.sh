#!/bin/sh
# Runs one model on one QEMU Cortex-M machine: converts it for the core, builds the
# module through its own build files (Make or CMake + the shipped toolchain file),
# links the bare-metal harness with one corpus case, runs init + one inference under
# QEMU with the instruction-counting plugin, and leaves everything in OUT:
#   OUT/module/             the converted module      OUT/image.elf, image.map
#   OUT/run/out<i>.bin      the outputs               OUT/run/harness.txt, count.txt
#   OUT/figures.txt         key=value: counts, section sizes, stack, compile time
#   OUT/layers.txt          with --layers: one line per operator run, "op insns mve loop_ends"
#                           (with --cycles also its modelled cycles: "op insns mve loop_ends cycles")
#   OUT/*.log               convert.log, build.log, link.log, run/qemu.log
#
# usage: target/run_case.sh --core m4|m55 --name NAME --model MODEL.tflite --case CASE_DIR
#                           --out OUT [--tinyaot PATH] [--build make|cmake] [--plugin SO]
#                           [--timeout SECONDS] [--convert-runs N] [--repeat N] [--config FILE.yaml]
#                           [--layers] [--cycles]
#   --build         how the module library is built: its Makefile (make TARGET=<core>, the
#                   default) or its CMakeLists.txt with the toolchain file it ships
#   --plugin        count instructions with this build of target/qemu_plugin/insn_count.c
#   --convert-runs  convert N times, report the fastest (compile time)
#   --repeat        run the image N times; the counts must be identical every time
#   --lib LIB --include DIR  instead of --model: an already built module library
#   --config        convert with this configuration (its platform replaces the core's
#                   default one when it names one); on m55 the module's placement macros
#                   become section attributes that mps3-an547.ld maps to the machine's
#                   memories (OUT/obj/placement.h; see target/README.md)
#   --layers        also count per operator (needs --plugin): a first run of the same image
#                   with the module's operator callback set (OUT/run/layers/) finds where
#                   each operator's code starts and ends; the measured run then counts
#                   between those addresses (bench/README.md)
#   --cycles        also time the measured runs with the plugin's cycle model of the core
#                   (plugin argument core=m4|m55; docs/cycles.md): cycles= in figures.txt,
#                   a cycles column in layers.txt. Memory charged (env RUN_CASE_CYCLES_MEMORY,
#                   plugin memory arguments, replaces it; "none": no wait states):
#                     m55: the Apollo510 as its calibration kernels are timed (ta_timing_args,
#                          docs/cycles.md): data reads of the code region through a 64 KiB
#                          4-way D-cache with 32-byte lines, a miss costing CYCLES_MISS (12)
#                          cycles; here also the constants (the QSPI window at 0x28000000,
#                          which stands for the Apollo510's MRAM) through the same cache; data
#                          and arenas (SRAM: DTCM on apollo510_evb) and the stack (DTCM)
#                          without wait states; with --config, the SRAM and PSRAM sections
#                          (ISRAM 0x21000000, DDR 0x60000000) through the D-cache with the
#                          stated refills of docs/cycles.md (8 and 60 cycles)
#                     m4:  no wait states (ta_timing_args: zero-wait on-chip memory)
# The module prefix is NAME; the measured function is NAME_model_run.
# exit: 0 ran; 10 conversion failed; 11 module build failed; 12 link failed;
#       13 QEMU run failed (harness exit code in OUT/run/exit_code); 14 counts differ
#       between repeated runs; 15 per-operator counting failed (OUT/run/layers/why.txt)
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

core="" name="" model="" case_dir="" out="" tinyaot="$TA_ROOT/build/tinyaot"
build_with=make plugin="" timeout=300 convert_runs=1 repeat=1 prebuilt_lib="" prebuilt_include="" config=""
layers="" cycles=""
while [ $# -gt 0 ]; do
  case "$1" in
    --layers) layers=1; shift; continue ;;
    --cycles) cycles=1; shift; continue ;;
    --core) core=$2 ;;
    --name) name=$2 ;;
    --model) model=$2 ;;
    --case) case_dir=$2 ;;
    --out) out=$2 ;;
    --tinyaot) tinyaot=$2 ;;
    --build) build_with=$2 ;;
    --plugin) plugin=$2 ;;
    --timeout) timeout=$2 ;;
    --convert-runs) convert_runs=$2 ;;
    --repeat) repeat=$2 ;;
    --lib) prebuilt_lib=$2 ;;
    --include) prebuilt_include=$2 ;;
    --config) config=$2 ;;
    *) echo "run_case.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2 || { echo "run_case.sh: $1 needs a value" >&2; exit 2; }
done
case "$core" in
  m4) platform=cortex-m4 machine=mps2-an386 ld=mps2-an386.ld
      arch="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb" ;;
  m55) platform=cortex-m55 machine=mps3-an547 ld=mps3-an547.ld
       arch="-mcpu=cortex-m55 -mfloat-abi=hard -mthumb" ;;
  *) echo "run_case.sh: --core m4|m55" >&2; exit 2 ;;
esac
if [ -z "$name" ] || [ -z "$case_dir" ] || [ -z "$out" ] || { [ -z "$model" ] && [ -z "$prebuilt_lib" ]; }; then
  echo "run_case.sh: --name, --case, --out and --model (or --lib and --include) are required" >&2
  exit 2
fi
case "$case_dir" in /*) ;; *) case_dir="$(pwd)/$case_dir" ;; esac
case "$tinyaot" in /*) ;; *) tinyaot="$(pwd)/$tinyaot" ;; esac
case "$plugin" in /*|"") ;; *) plugin="$(pwd)/$plugin" ;; esac
case "$prebuilt_lib" in /*|"") ;; *) prebuilt_lib="$(pwd)/$prebuilt_lib" ;; esac
case "$model" in /*|"") ;; *) model="$(pwd)/$model" ;; esac
case "$config" in /*|"") ;; *) config="$(pwd)/$config" ;; esac
if [ -n "$config" ] && [ ! -f "$config" ]; then echo "run_case.sh: no config $config" >&2; exit 2; fi
case "$out" in /|.|..) echo "run_case.sh: --out must be a directory of its own" >&2; exit 2 ;; esac
rm -rf "$out"
mkdir -p "$out/run" "$out/obj"
out=$(cd "$out" && pwd)
figures="$out/figures.txt"
mod="$out/module"
warn="-O2 -Wall -Wextra -Werror"

# ---- 1. compile the model (timed: the fastest of --convert-runs) --------------------------
convert_model() {
  best_ms=""
  # the config's own platform, when it names one, instead of the core's default
  target_args="--platform $platform"
  if [ -n "$config" ]; then
    target_args="--config $config"
    grep -q '^platform:' "$config" || target_args="$target_args --platform $platform"
  fi
  run=0
  while [ $run -lt "$convert_runs" ]; do
    rm -rf "$mod"
    t0=$(ta_now_ms)
    "$tinyaot" convert "$model" -o "$mod" --name "$name" $target_args >"$out/convert.log" 2>&1 || return 1
    ms=$(( $(ta_now_ms) - t0 ))
    if [ -z "$best_ms" ] || [ "$ms" -lt "$best_ms" ]; then best_ms=$ms; fi
    run=$((run + 1))
  done
  echo "convert_ms=$best_ms" >"$figures"
}

# ---- 2. build the module library with its own build files ----------------------------------
# With --config on the M55, every placement macro of the module header becomes a section
# attribute: <P>_PUT_IN_<MEM> -> .<mem>.bss, <P>_PUT_IN_<MEM>_INIT -> .<mem>.data,
# <P>_CODE_IN_<MEM> -> .<mem>.text (noinline: else GCC folds the static layer function
# into <name>_model_run, which stays in .text); mps3-an547.ld places them. The header is
# forced into every compilation unit of the module (its defaults are #ifndef-guarded).
placement_header() {
  prefix=$(sed -n 's/^#ifndef \([A-Za-z0-9_]*\)_PUT_IN_ITCM$/\1/p' "$mod/include/${name}_model.h" | head -n 1)
  [ -n "$prefix" ] || return 1
  {
    echo "/* placement macros of module $name for mps3-an547.ld, generated by target/run_case.sh */"
    for mem in ITCM DTCM SRAM MRAM PSRAM; do
      lower=$(echo "$mem" | tr A-Z a-z)
      echo "#define ${prefix}_PUT_IN_${mem} __attribute__((section(\".$lower.bss\")))"
      echo "#define ${prefix}_PUT_IN_${mem}_INIT __attribute__((section(\".$lower.data\")))"
      echo "#define ${prefix}_CODE_IN_${mem} __attribute__((noinline, section(\".$lower.text\")))"
    done
  } >"$out/obj/placement.h"
}

build_module() {
  if [ -n "$config" ] && [ "$core" = m55 ]; then
    placement_header || { echo "no placement macros in $mod/include/${name}_model.h" >"$out/build.log"; return 1; }
    warn="$warn -include $out/obj/placement.h"
  fi
  if [ "$build_with" = cmake ]; then
    lib="$mod/build/lib$name.a"
    { CFLAGS="$warn" cmake -S "$mod" -B "$mod/build" -DCMAKE_TOOLCHAIN_FILE="$mod/cmake/arm-none-eabi-$platform.cmake" &&
      cmake --build "$mod/build"; } >"$out/build.log" 2>&1
  else
    lib="$mod/lib$name.a"
    make -C "$mod" TARGET="$platform" CFLAGS="$warn" >"$out/build.log" 2>&1
  fi
}

if [ -n "$prebuilt_lib" ]; then
  lib=$prebuilt_lib
  module_include=$prebuilt_include
  : >"$figures"
else
  module_include="$mod/include"
  convert_model || exit 10
  build_module || exit 11
fi

# ---- 3. the harness, the case's inputs, the link -----------------------------------------
cs="$out/obj/tahw_case.S"
{
  echo "/* inputs of $case_dir, generated by target/run_case.sh */"
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
  while [ $k -lt $i ]; do
    echo "  .word tahw_in$k, tahw_in${k}_end - tahw_in$k"
    k=$((k + 1))
  done
  [ $i -eq 0 ] && echo "  .word 0, 0"
  echo "  .global ta_case_num_inputs"
  echo "ta_case_num_inputs:"
  echo "  .word $i"
} >"$cs"
cflags="$arch $warn -std=c99 -ffreestanding -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections"
inc="-I$TA_ROOT/target/common -I$module_include"
common="$TA_ROOT/target/common"
# the operator marker table of the layer run covers the module's operators
operators=$(sed -n 's/^#define [A-Za-z0-9_]*_NUM_OPERATORS \([0-9][0-9]*\)$/\1/p' "$module_include/${name}_model.h" 2>/dev/null)
if ! {
  arm-none-eabi-gcc $arch $inc -DTA_BENCH_OPERATORS="${operators:-0}" -c "$common/startup.S" -o "$out/obj/tahw_startup.o" &&
  arm-none-eabi-gcc $arch -c "$cs" -o "$out/obj/tahw_case.o" &&
  arm-none-eabi-gcc $cflags $inc -c "$common/startup.c" -o "$out/obj/tahw_start.o" &&
  arm-none-eabi-gcc $cflags $inc -c "$common/semihost.c" -o "$out/obj/tahw_semihost.o" &&
  arm-none-eabi-gcc $cflags $inc -DTA_PREFIX="$name" -DTA_MODEL_HEADER="\"${name}_model.h\"" \
    -c "$common/harness.c" -o "$out/obj/tahw_harness.o" &&
  arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -Wl,-Map="$out/image.map" \
    -L"$TA_ROOT/target" -L"$common" -T"$ld" "$out"/obj/tahw_*.o "$lib" -lm -o "$out/image.elf"
} >"$out/link.log" 2>&1; then
  exit 12
fi

# ---- 4. run under QEMU, counting [<name>_model_run, ta_bench_returned) ---------------
symbol() { arm-none-eabi-nm "$out/image.elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
extent() { arm-none-eabi-nm -S "$out/image.elf" | awk -v s="$1" '$4 == s { print "0x" $1 ":0x" $2 }'; }
# The module's own code in the image, ADDR:BYTES: the .text sections of <name>_model.o
# (model_run and any function it notifies the callback from), from the link map.
model_code() {
  lo="" hi=""
  for r in $(awk -v obj="(${name}_model.o)" '/^Linker script and memory map/ { on = 1 }
      on && /^ \.text/ { if (NF == 1) getline; else $0 = substr($0, length($1) + 3)
                         if (index($3, obj) && $2 != "0x0") print $1 ":" $2 }' "$out/image.map"); do
    a=$((${r%:*})) e=$((${r%:*} + ${r#*:}))
    if [ -z "$lo" ] || [ "$a" -lt "$lo" ]; then lo=$a; fi
    if [ -z "$hi" ] || [ "$e" -gt "$hi" ]; then hi=$e; fi
  done
  [ -n "$lo" ] && printf '0x%x:0x%x' "$lo" $((hi - lo))
}
start=$(symbol "${name}_model_run")
stop=$(symbol ta_bench_returned)
run_qemu() { # DIR (QEMU's working directory) COUNT_FILE [PLUGIN_ARGS [SEMIHOSTING_ARGS]]
  plugin_arg=""
  [ -n "$plugin" ] && plugin_arg="-plugin $plugin,start=$start,stop=$stop,out=$2$3"
  (cd "$1" && exec timeout "$timeout" qemu-system-arm -M "$machine" -nodefaults -display none \
    -monitor none -serial null -semihosting-config "enable=on,target=native$4" \
    -kernel "$out/image.elf" $plugin_arg) >"$1/qemu.log" 2>&1
}
# The layer run: the harness sets the module's operator callback (semihosting argument
# "layers"); the plugin learns each operator's first and end addresses in the module's code.
layer_args="" learn=""
if [ -n "$layers" ] && [ -n "$plugin" ]; then
  learn="$out/run/layers"
  mkdir -p "$learn"
  rc=0
  run_qemu "$learn" "$learn/count.txt" ",markers=$(extent ta_bench_op_markers),body=$(model_code),context=$(extent ta_bench_context)" ",arg=layers" || rc=$?
  echo "$rc" >"$out/run/exit_code"
  [ "$rc" -eq 0 ] || exit 13
  layer_args=",layers=$learn/count.txt"
fi
# the cycle model times the measured runs only (the layer run executes the callback too)
if [ -n "$cycles" ] && [ -n "$plugin" ]; then
  timing=$(ta_timing_args "$core")
  # m55 placement sections (--config): MRAM (QSPI window) as the code region; SRAM (ISRAM)
  # and PSRAM (DDR) behind the same D-cache with docs/cycles.md's stated refills, 8 and 60
  [ "$core" = m55 ] && timing="$timing,cached=0x28000000-0x28800000:${CYCLES_MISS:-12},cached=0x21000000-0x21200000:8,cached=0x60000000-0x61000000:60"
  if [ -n "${RUN_CASE_CYCLES_MEMORY+set}" ]; then
    timing="core=$core"
    [ "$RUN_CASE_CYCLES_MEMORY" = none ] || timing="$timing,$RUN_CASE_CYCLES_MEMORY"
  fi
  layer_args="$layer_args,$timing"
fi
rc=0
run_qemu "$out/run" "$out/run/count.txt" "$layer_args" || rc=$?
echo "$rc" >"$out/run/exit_code"
[ "$rc" -eq 0 ] || exit 13
n=1
while [ $n -lt "$repeat" ]; do
  run_qemu "$out/run" "$out/run/count.$n.txt" "$layer_args" || { echo "$?" >"$out/run/exit_code"; exit 13; }
  if [ -n "$plugin" ] && ! cmp -s "$out/run/count.txt" "$out/run/count.$n.txt"; then exit 14; fi
  n=$((n + 1))
done
# Both runs must agree: same outputs, every layer found in order, the same counts per layer.
if [ -n "$learn" ]; then
  why=""
  for f in "$out"/run/out*.bin; do
    cmp -s "$f" "$learn/$(basename "$f")" || why="$why $(basename "$f") differs with the callback set;"
  done
  [ "$(ta_get "$learn/count.txt" layers_complete)" = 1 ] || why="$why the layer run's markers are out of order;"
  [ "$(ta_get "$out/run/count.txt" layers_complete)" = 1 ] || why="$why not every layer was found in the measured run;"
  # op, addresses and instruction counts (the measured run may add its cycles after them)
  grep '^layer\.' "$learn/count.txt" | cut -d' ' -f1-6 >"$learn/learned.txt"
  grep '^layer\.' "$out/run/count.txt" | cut -d' ' -f1-6 | cmp -s - "$learn/learned.txt" || why="$why per-layer counts differ between the runs;"
  if [ -n "$why" ]; then echo "$why" >"$learn/why.txt"; exit 15; fi
  sed -n 's/^layer\.[0-9]*=\([-0-9]*\) [^ ]* [^ ]* /\1 /p' "$out/run/count.txt" >"$out/layers.txt"
fi

# ---- 5. figures ---------------------------------------------------------------------------
{
  echo "core=$core"
  echo "machine=$machine"
  for k in insns mve loop_ends windows; do echo "$k=$(ta_get "$out/run/count.txt" $k)"; done
  [ -n "$cycles" ] && echo "cycles=$(ta_get "$out/run/count.txt" cycles)"
  [ -n "$learn" ] && echo "layers_outside=$(ta_get "$out/run/count.txt" layers_outside)"
  [ -n "$learn" ] && [ -n "$cycles" ] && echo "layers_outside_cycles=$(ta_get "$out/run/count.txt" layers_outside_cycles)"
  for k in stack_peak_bytes stack_reserved_bytes; do echo "$k=$(ta_get "$out/run/harness.txt" $k)"; done
  [ -f "$mod/report.json" ] &&
    echo "arena_bytes=$(sed -n 's/^ *"arena_bytes": *\([0-9]*\).*/\1/p' "$mod/report.json" | head -n 1)"
  arm-none-eabi-size -A "$out/image.elf" | awk '$1 ~ /^\./ && $2 ~ /^[0-9]+$/ { gsub(/^\./, "", $1); print "section." $1 "=" $2 }'
} >>"$figures"
exit 0
