#!/bin/sh
# The cycle timing model (target/qemu_plugin/timing.h, target/cycles.sh, docs/cycles.md):
#  - unit: the decoder and the M4/M55 rules on hand-written sequences (timing_test.c)
#  - errors: a missing or non-ELF image is one line and exit 2
#  - plugin-unchanged: without core= the plugin's out file has exactly its old keys
#  - loops-*: bare-metal loops (tests/cycles/loops.S) built for two iteration counts differ
#    by exactly the per-iteration cycles the rules give (M4: 4, M55: 3, LE loop 1, MVE 2),
#    and cycles.sh passes the image's exit code through
#  - calibration: the Apollo510 silicon figures of ../shared/calibration (57 images):
#    >= 90 % within +-15 % and median |error| <= 8 % (target/calibrate.py --check)
#  - docs-table: docs/cycles.md holds the table calibrate.py generates now
#  - whole-run: an image without bench_begin/bench_end is counted from its entry to exit
#  - determinism: one image twice, identical output
# usage: sh tests/suites/cycles.sh BUILD CORPUS WORKDIR   (the corpus is not needed)
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup cycles "$@" || { fail setup "no work folder"; exit 0; }
. "$TA_ROOT/target/lib.sh"
calib="$TA_ROOT/../shared/calibration"

if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 "$TA_ROOT/target/qemu_plugin/timing_test.c" -o "$work/timing_test" \
     >"$work/unit.log" 2>&1 && "$work/timing_test" >>"$work/unit.log" 2>&1; then
  pass unit
else
  fail unit "$(grep -m1 -v passed "$work/unit.log")"
fi

err_check() { # name image: exit 2 with one line on stderr
  ec_rc=0
  sh "$TA_ROOT/target/cycles.sh" "$2" m55 >"$work/$1.out" 2>"$work/$1.err" || ec_rc=$?
  if [ $ec_rc -eq 2 ] && [ "$(wc -l <"$work/$1.err")" -eq 1 ]; then pass "$1"
  else fail "$1" "exit $ec_rc, $(wc -l <"$work/$1.err") error lines"; fi
}
err_check missing-image "$work/no-such.elf"
echo "not an image" >"$work/text.elf"
err_check not-elf "$work/text.elf"

if ! command -v qemu-system-arm >/dev/null 2>&1 || ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  skip qemu "qemu-system-arm or arm-none-eabi-gcc not installed"
  exit 0
fi
export CYCLES_PLUGIN_DIR="$work/plugin"
plugin=$(ta_build_plugin "$CYCLES_PLUGIN_DIR") || { fail plugin "build failed"; exit 0; }

build_loop() { # core loop iters exit -> image path
  cpu=cortex-m4; [ "$1" = m55 ] && cpu=cortex-m55
  img="$work/loop_$1_$2_$3_$4.elf"
  arm-none-eabi-gcc -mcpu=$cpu -mthumb -nostdlib -nostartfiles -Wl,-Ttext=0 -Wl,-e,0 -DLOOP="$2" -DITERS="$3" \
    -DEXIT="$4" "$TA_ROOT/tests/cycles/loops.S" -o "$img" >"$work/build.log" 2>&1 && echo "$img"
}
cycles_of() { sh "$TA_ROOT/target/cycles.sh" "$1" "$2" | tail -n 1 | sed -n 's/.*"cycles":\([0-9]*\).*/\1/p'; }

img=$(build_loop m4 1 100 0)
if [ -n "$img" ]; then
  qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none -semihosting-config enable=on,target=native \
    -kernel "$img" -plugin "$plugin,start=0x0,stop=0x2,out=$work/plain.txt" >/dev/null 2>&1
  keys=$(sed 's/=.*//' "$work/plain.txt" | tr '\n' ' ')
  if [ "$keys" = "insns mve loop_ends windows " ]; then pass plugin-unchanged
  else fail plugin-unchanged "keys without core=: $keys"; fi
fi

loop_check() { # name core loop per-iteration
  a=$(build_loop "$2" "$3" 100 0) b=$(build_loop "$2" "$3" 300 0)
  [ -n "$a" ] && [ -n "$b" ] || { fail "$1" "build: $(head -c 200 "$work/build.log")"; return; }
  ca=$(cycles_of "$a" "$2") cb=$(cycles_of "$b" "$2")
  if [ -n "$ca" ] && [ -n "$cb" ] && [ $((cb - ca)) -eq $((200 * $4)) ]; then pass "$1"
  else fail "$1" "200 more iterations gave $((${cb:-0} - ${ca:-0})) more cycles, expected $((200 * $4))"; fi
}
loop_check loops-m4 m4 1 4
loop_check loops-m55 m55 1 3
loop_check loops-m55-le m55 2 1
loop_check loops-m55-mve m55 3 2

img="$work/loop_run.elf"
if arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles -Wl,-Ttext=0 -Wl,-e,0 -DLOOP=1 -DITERS=100 \
     -DEXIT=0 -DNO_BENCH "$TA_ROOT/tests/cycles/loops.S" -o "$img" >"$work/build.log" 2>&1 &&
   sh "$TA_ROOT/target/cycles.sh" "$img" m4 >"$work/run.out" 2>&1; then
  n=$(tail -n 1 "$work/run.out" | sed -n 's/.*"instructions":\([0-9]*\).*"window":"run".*/\1/p')
  # the whole run: at least the 300 loop instructions and the set-up and exit around them
  if [ -n "$n" ] && [ "$n" -gt 300 ] && [ "$n" -lt 330 ]; then pass whole-run
  else fail whole-run "$(tail -n 1 "$work/run.out")"; fi
else fail whole-run "$(tail -n 2 "$work/run.out" "$work/build.log" 2>/dev/null | head -c 300)"; fi

img=$(build_loop m55 1 10 3)
rc=0
sh "$TA_ROOT/target/cycles.sh" "$img" m55 >"$work/exit.out" 2>&1 || rc=$?
if [ $rc -eq 3 ] && tail -n 1 "$work/exit.out" | grep -q '"instructions":'; then pass exit-code
else fail exit-code "image exits 3, cycles.sh exited $rc"; fi

if [ ! -f "$calib/published.json" ]; then
  skip calibration "no $calib (the Apollo510 calibration images)"
  exit 0
fi
if python3 "$TA_ROOT/target/calibrate.py" --calib "$calib" --check --table "$work/table.md" >"$work/calib.out" 2>&1; then
  pass "calibration ($(tail -n 2 "$work/calib.out" | head -n 1))"
else
  fail calibration "$(tail -n 2 "$work/calib.out" | tr '\n' ' ')"
fi
sed -n '/^<!-- calibration table: begin/,/^<!-- calibration table: end/p' "$TA_ROOT/docs/cycles.md" | sed '1d;$d' \
  >"$work/doc_table.md"
if [ -s "$work/table.md" ] && diff -u "$work/doc_table.md" "$work/table.md" >"$work/table.diff"; then
  pass docs-table
else
  fail docs-table "docs/cycles.md differs from target/calibrate.py (regenerate: python3 target/calibrate.py --table T)"
fi
one="$calib/arm_convolve_s8_same_mve.elf"
r1=$(sh "$TA_ROOT/target/cycles.sh" "$one" m55 | tail -n 1) r2=$(sh "$TA_ROOT/target/cycles.sh" "$one" m55 | tail -n 1)
if [ -n "$r1" ] && [ "$r1" = "$r2" ]; then pass determinism
else fail determinism "two runs: '$r1' and '$r2'"; fi
