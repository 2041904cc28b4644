#!/bin/sh
# Modelled cycles of a bare-metal image: runs IMAGE under QEMU with the instruction-counting
# plugin's timing model (target/qemu_plugin/timing.h; rules, fitted values and memory
# assumptions in docs/cycles.md) and prints, as its last line, one JSON object:
#   {"image":..., "core":..., "cycles":N, "instructions":N, "mve_instructions":N,
#    "loop_ends":N, "windows":N, "window":"bench"|"run", "dcache_misses":N, "memory":"..."}
# The window runs from the entry of bench_begin to the entry of bench_end when the image
# defines both (nm), else over the whole run (reset to exit). Deterministic: the counts
# depend only on the image, never on host timing.
#
# usage: target/cycles.sh IMAGE.elf m4|m55
#   m4:  QEMU mps2-an386 (Cortex-M4F), m55: QEMU mps3-an547 (Cortex-M55), semihosting on.
# env: CYCLES_MEMORY  plugin memory arguments replacing the core's default, comma-separated
#                     (waits=LO-HI:N, cached=LO-HI:N, dcache=BYTES:WAYS:LINE; "none": no
#                     wait states anywhere). Defaults (docs/cycles.md, "Memory"):
#                       m55: the Apollo510 as its kernels were benchmarked: data reads of the
#                            code region (.rodata: weights, literals; MRAM on the Apollo510)
#                            through a 64 KiB 4-way D-cache with 32-byte lines, 0 waits in TCM
#                       m4:  no wait states (on-chip SRAM/flash with zero-wait accelerator)
#      CYCLES_MISS    the m55 default's D-cache refill cycles (fitted: 12)
#      CYCLES_PARAMS  extra plugin arguments param=NAME:VALUE (model parameters, for fitting)
#      CYCLES_TIMEOUT seconds (default 600); QEMU, NM, CC; CYCLES_PLUGIN_DIR (build cache)
# exit: the image's exit code; 2 usage / missing or unreadable image / no QEMU;
#       3 the run gave no counts (timeout, plugin failure)
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

image=$1 core=$2
if [ $# -ne 2 ]; then echo "usage: target/cycles.sh IMAGE.elf m4|m55" >&2; exit 2; fi
case "$core" in
  m4) machine=mps2-an386 ;;
  m55) machine=mps3-an547 ;;
  *) echo "cycles.sh: core must be m4 or m55, not '$core'" >&2; exit 2 ;;
esac
memory_default=$(ta_timing_args "$core" | sed 's/^core=[^,]*,\{0,1\}//')
if [ ! -f "$image" ] || [ ! -r "$image" ]; then echo "cycles.sh: cannot read image '$image'" >&2; exit 2; fi
if ! head -c 4 "$image" 2>/dev/null | od -An -c | grep -q 'E   L   F'; then
  echo "cycles.sh: '$image' is not an ELF image" >&2; exit 2
fi
QEMU=${QEMU:-qemu-system-arm}
NM=${NM:-arm-none-eabi-nm}
command -v "$QEMU" >/dev/null 2>&1 || { echo "cycles.sh: $QEMU not found" >&2; exit 2; }
command -v "$NM" >/dev/null 2>&1 || { echo "cycles.sh: $NM not found" >&2; exit 2; }

memory=${CYCLES_MEMORY-$memory_default}
[ "$memory" = none ] && memory=""
work=$(mktemp -d "${TMPDIR:-/tmp}/cycles.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
plugin=$(ta_build_plugin "${CYCLES_PLUGIN_DIR:-$work/plugin}") || { echo "cycles.sh: plugin build failed" >&2; exit 2; }

syms=$("$NM" "$image" 2>/dev/null)
begin=$(echo "$syms" | awk '$3 == "bench_begin" { print "0x" $1; exit }')
end=$(echo "$syms" | awk '$3 == "bench_end" { print "0x" $1; exit }')
if [ -n "$begin" ] && [ -n "$end" ]; then
  window=bench
else
  # whole run: from the first instruction executed (reset) until QEMU exits
  window=run
  begin=entry
  end=exit
fi
args="start=$begin,stop=$end,out=$work/count.txt,core=$core"
[ -n "$memory" ] && args="$args,$memory"
[ -n "${CYCLES_PARAMS:-}" ] && args="$args,$CYCLES_PARAMS"

timeout "${CYCLES_TIMEOUT:-600}" "$QEMU" -M "$machine" -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$image" -plugin "$plugin,$args" \
  >"$work/stdout.txt" 2>"$work/stderr.txt" </dev/null
rc=$?
cat "$work/stdout.txt"
if [ ! -s "$work/count.txt" ]; then
  echo "cycles.sh: no counts from the run (exit $rc): $(head -c 300 "$work/stderr.txt")" >&2
  exit 3
fi
get() { ta_get "$work/count.txt" "$1"; }
printf '{"image":"%s","core":"%s","cycles":%s,"instructions":%s,"mve_instructions":%s,"loop_ends":%s,"windows":%s,"window":"%s","dcache_misses":%s,"memory":"%s"}\n' \
  "$(basename "$image")" "$core" "$(get cycles)" "$(get insns)" "$(get mve)" "$(get loop_ends)" "$(get windows)" \
  "$window" "$(get timing_dcache_misses)" "$memory"
exit $rc
