#!/bin/sh
# Where a model's instructions go, per function and per instruction address.
#
#   sh tools/profile.sh OUT [FUNCTION...]
#
# OUT is a target/run_case.sh output directory (image.elf, run/), e.g. one that
# `KEEP=1 make bench` leaves under $TMPDIR/tinyaot-bench-*/m4/kws. The image runs once
# more on QEMU with the plugin's profile= option (whole run, reset to exit); prints the
# 25 functions that execute the most instructions, then the disassembly of each
# FUNCTION (a name prefix) with every instruction's execution count.
set -eu
[ $# -ge 1 ] || { echo "usage: sh tools/profile.sh OUT [FUNCTION...]" >&2; exit 2; }
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"
out=$(cd "$1" && pwd)
shift
case $(arm-none-eabi-readelf -A "$out/image.elf" | grep -m1 Tag_CPU_name) in
  *M55*|*8.1-M*) machine=mps3-an547 ;;
  *) machine=mps2-an386 ;;
esac
plugin=$(ta_build_plugin "$TA_ROOT/build/target")
(cd "$out/run" && timeout 300 qemu-system-arm -M "$machine" -nodefaults -display none -monitor none -serial null \
  -semihosting-config enable=on,target=native -kernel "$out/image.elf" \
  -plugin "$plugin,start=0x0,stop=0x2,out=/dev/null,profile=$out/profile.txt") >/dev/null 2>&1
python3 "$TA_ROOT/tools/profile_report.py" "$out/image.elf" "$out/profile.txt" "$@"
