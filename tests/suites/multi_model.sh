#!/bin/sh
# Several models in one firmware (issue 18 item 2): kws, ic and ad converted together with
# --shared-scratch into DIR/<name>/, their scratch arenas overlaying DIR/tinyaot_shared.c's
# buffer. Checks: the layout and manifests; DIR/report.json against the models' own
# report.json (shared = largest scratch, combined = shared + every model's other arenas);
# one host program linking the three modules (tests/multi/multi_main.c) runs them
# interleaved for several rounds, exact against each model's golden case 0, with the
# owner guard refusing a run while another model is mid-run; the same program as one
# QEMU image on Cortex-M4 (mps2-an386) and Cortex-M55 (mps3-an547); a module linked
# against a smaller shared buffer does not compile; name clashes, per-model options and
# foreign subfolders are refused with nothing written.
# usage: sh tests/suites/multi_model.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup multi_model "$@" || { fail setup "no work folder"; exit 0; }
B="$build/tinyaot"
M="$corpus/models"
for m in kws ic ad; do
  if [ ! -f "$M/$m/model.tflite" ] || [ ! -f "$M/$m/case_0/in0.bin" ]; then
    skip corpus "absent ($M/$m)"
    exit 0
  fi
done
models="$M/kws/model.tflite $M/ic/model.tflite $M/ad/model.tflite"

# golden.c: case 0's input and output of each model as C arrays
python3 - "$M" "$work/golden.c" <<'EOF' || { fail setup "cannot write golden.c"; exit 0; }
import sys
root, out = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    f.write("#include <stdint.h>\n")
    for m in ("kws", "ic", "ad"):
        for kind in ("in0", "out0"):
            data = open(f"{root}/{m}/case_0/{kind}.bin", "rb").read()
            f.write(f"const uint32_t {m}_{kind}_size = {len(data)}u;\n")
            f.write(f"const uint8_t {m}_{kind}[{len(data)}] = {{" + ",".join(str(b) for b in data) + "};\n")
EOF

# 1. Layout: DIR/<name>/ per model with its own manifest; DIR's manifest lists its files.
h="$work/host"
if "$B" convert $models --shared-scratch -o "$h" >"$work/convert.log" 2>&1; then
  listed=$(grep -v '^#' "$h/.tinyaot-manifest" | cut -d' ' -f2 | LC_ALL=C sort | tr '\n' ' ')
  why=""
  [ "$listed" = "report.json tinyaot_shared.c tinyaot_shared.h " ] || why="DIR manifest lists '$listed';"
  for m in kws ic ad; do
    [ -f "$h/$m/.tinyaot-manifest" ] && [ -f "$h/$m/include/${m}_model.h" ] && [ -f "$h/$m/report.json" ] ||
      why="$why $m/ incomplete;"
    grep -q "^#define ${m}_scratch_dtcm tinyaot_shared_scratch_dtcm" "$h/$m/src/${m}_model.c" ||
      why="$why $m does not overlay the shared scratch;"
  done
  [ -z "$why" ] && pass layout || fail layout "$why"
else
  fail layout "conversion failed: $(head -c 300 "$work/convert.log")"
fi

# 2. DIR/report.json from the models' own reports (their arenas by role).
if python3 - "$h" >"$work/report.log" 2>&1 <<'EOF'; then pass combined_report; else fail combined_report "$(tail -c 300 "$work/report.log")"; fi
import json, sys
d = sys.argv[1]
g = json.load(open(f"{d}/report.json"))
scratch, unshared, separate = {}, 0, 0
for k, m in enumerate(g["models"]):
    assert m["owner_id"] == k + 1, m
    own = json.load(open(f"{d}/{m['name']}/report.json"))
    total = sum(a["bytes"] for a in own["arenas"])
    assert m["arena_bytes"] == own["arena_bytes"] == total, (m, own["arena_bytes"], total)
    for a in own["arenas"]:
        if a["role"] == "scratch":
            scratch[a["memory"]] = max(scratch.get(a["memory"], 0), a["bytes"])
        else:
            unshared += a["bytes"]
    separate += total
assert [m["name"] for m in g["models"]] == ["kws", "ic", "ad"], g["models"]
assert g["shared_scratch"] is True
assert g["shared_scratch_bytes"] == sum(scratch.values()) > 0, (g["shared_scratch_bytes"], scratch)
assert {b["memory"]: b["bytes"] for b in g["shared_scratch_buffers"]} == scratch
assert g["combined_arena_bytes"] == g["shared_scratch_bytes"] + unshared, g
assert g["separate_arena_bytes"] == separate, g
assert g["combined_arena_bytes"] < separate
print("ok")
EOF

# Compiles every module's sources, the shared buffer, golden.c and the test program.
host_build() { # DIR OUT_EXE
  objs="" ok=0
  for m in kws ic ad; do
    mkdir -p "$work/obj/$m"
    for f in "$1/$m"/src/*.c; do
      o="$work/obj/$m/$(basename "$f" .c).o"
      ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -I"$1/$m/include" -I"$1/$m/src" -c "$f" -o "$o" || ok=1
      objs="$objs $o"
    done
  done
  ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -I"$1" -I"$1/kws/include" -I"$1/ic/include" -I"$1/ad/include" \
    "$TA_ROOT/tests/multi/multi_main.c" "$1/tinyaot_shared.c" "$work/golden.c" $objs -lm -o "$2" || ok=1
  return $ok
}

# 3. Host: interleaved rounds, exact, guard.
if host_build "$h" "$work/multi_host" >"$work/host_build.log" 2>&1; then
  if "$work/multi_host" >"$work/host_run.log" 2>&1 && grep -q "all exact" "$work/host_run.log"; then pass host_interleaved_exact
  else fail host_interleaved_exact "$(head -c 300 "$work/host_run.log")"; fi
else
  fail host_interleaved_exact "build failed: $(grep -m1 error "$work/host_build.log")"
fi

# 4. A module whose scratch does not fit the group's buffer does not compile: kws's
#    module beside the shared buffer of a group of ad alone (smaller).
small="$work/small"
if "$B" convert "$M/ad/model.tflite" --shared-scratch -o "$small" >"$work/small.log" 2>&1 && cp -r "$h/kws" "$small/kws" &&
   ! ${CC:-cc} -std=c99 -Wall -I"$small/kws/include" -I"$small/kws/src" -c "$small/kws/src/kws_model.c" \
     -o "$work/small.o" >"$work/small_cc.log" 2>&1 && grep -q "kws_scratch_dtcm_fits_shared" "$work/small_cc.log"
then pass too_small_buffer_refused_at_compile_time
else fail too_small_buffer_refused_at_compile_time "compiled, or another error: $(head -c 300 "$work/small_cc.log")"; fi

# 5. Refusals, nothing written: one model twice (same name and prefix); a per-model option;
#    a model subfolder holding the user's files.
"$B" convert "$M/kws/model.tflite" "$M/kws/model.tflite" --shared-scratch -o "$work/clash" >"$work/clash.log" 2>&1; rc=$?
if [ $rc -eq 1 ] && [ ! -e "$work/clash" ] && [ "$(wc -l <"$work/clash.log")" -eq 1 ] && grep -q "'kws'" "$work/clash.log"
then pass name_clash_refused; else fail name_clash_refused "rc $rc: $(head -c 300 "$work/clash.log")"; fi
"$B" convert $models --shared-scratch --prefix x -o "$work/opt" >"$work/opt.log" 2>&1; rc=$?
if [ $rc -eq 2 ] && [ ! -e "$work/opt" ] && grep -q -- "--prefix" "$work/opt.log"; then pass per_model_option_refused
else fail per_model_option_refused "rc $rc: $(head -c 300 "$work/opt.log")"; fi
u="$work/user"
mkdir -p "$u/ic" && echo mine >"$u/ic/notes.txt"
"$B" convert $models --shared-scratch -o "$u" >"$work/user.log" 2>&1; rc=$?
if [ $rc -ne 0 ] && [ "$(cd "$u" && find . -type f)" = "./ic/notes.txt" ] && grep -q "$u/ic" "$work/user.log"; then
  "$B" convert $models --shared-scratch -o "$u" --force >"$work/user2.log" 2>&1; rc=$?
  if [ $rc -eq 0 ] && [ "$(cat "$u/ic/notes.txt")" = mine ] && [ -f "$u/ic/src/ic_model.c" ] &&
     "$B" convert $models --shared-scratch -o "$u" >"$work/user3.log" 2>&1
  then pass foreign_subfolder_refused_then_forced
  else fail foreign_subfolder_refused_then_forced "--force/re-conversion: $(head -c 300 "$work/user2.log" "$work/user3.log")"; fi
else fail foreign_subfolder_refused_then_forced "rc $rc, files: $(cd "$u" && find . -type f | head -5)"; fi

# 6b. Persistent state is never shared: kws with two stateful models (SVDF, LSTM). The
#     report counts their state apart (combined = shared + state); each stateful model's
#     object defines its own persistent arena of the report's size and only references the
#     shared scratch (nm); interleaved with kws, their golden case 0 stays exact.
s="$work/state"
if "$B" convert "$M/kws/model.tflite" "$M/keyword_svdf_int16in/model.tflite" "$M/mnist_lstm_int8/model.tflite" \
     --shared-scratch -o "$s" >"$work/state.log" 2>&1 &&
   python3 - "$M" "$work/golden_state.c" "$s" >>"$work/state.log" 2>&1 <<'EOF'
import json, sys
root, out, d = sys.argv[1:4]
with open(out, "w") as f:
    f.write("#include <stdint.h>\n")
    for m, sym in (("kws", "kws"), ("keyword_svdf_int16in", "svdf"), ("mnist_lstm_int8", "lstm")):
        for kind in ("in0", "out0"):
            data = open(f"{root}/{m}/case_0/{kind}.bin", "rb").read()
            f.write(f"const uint32_t {sym}_{kind}_size = {len(data)}u;\n")
            f.write(f"const uint8_t {sym}_{kind}[{len(data)}] = {{" + ",".join(str(b) for b in data) + "};\n")
g = json.load(open(f"{d}/report.json"))
state = 0
for m in g["models"]:
    own = json.load(open(f"{d}/{m['name']}/report.json"))
    persistent = sum(a["bytes"] for a in own["arenas"] if a["role"] != "scratch")
    assert m["unshared_bytes"] == persistent, (m, persistent)
    state += persistent
assert state > 0 and g["combined_arena_bytes"] == g["shared_scratch_bytes"] + state, g
EOF
then
  objs="" ok=0
  for m in kws keyword_svdf_int16in mnist_lstm_int8; do
    mkdir -p "$work/sobj/$m"
    for f in "$s/$m"/src/*.c; do
      o="$work/sobj/$m/$(basename "$f" .c).o"
      ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -I"$s/$m/include" -I"$s/$m/src" -c "$f" -o "$o" >>"$work/state.log" 2>&1 || ok=1
      objs="$objs $o"
    done
  done
  if [ $ok -eq 0 ] && ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -I"$s" -I"$s/kws/include" \
       -I"$s/keyword_svdf_int16in/include" -I"$s/mnist_lstm_int8/include" "$TA_ROOT/tests/multi/state_main.c" \
       "$s/tinyaot_shared.c" "$work/golden_state.c" $objs -lm -o "$work/state_host" >>"$work/state.log" 2>&1 &&
     "$work/state_host" >"$work/state_run.log" 2>&1 && grep -q "all exact" "$work/state_run.log" &&
     python3 - "$s" "$work/sobj" >>"$work/state.log" 2>&1 <<'EOF'
import json, subprocess, sys
d, objs = sys.argv[1:3]
for m in ("keyword_svdf_int16in", "mnist_lstm_int8"):
    own = json.load(open(f"{d}/{m}/report.json"))
    syms = subprocess.run(["nm", "-S", f"{objs}/{m}/{m}_model.o"], capture_output=True, text=True, check=True).stdout
    defined = {l.split()[-1]: int(l.split()[1], 16) for l in syms.splitlines() if len(l.split()) == 4}
    for a in own["arenas"]:
        sym = f"{m}_{a['name']}"
        if a["role"] == "scratch":
            assert sym not in defined and f"U tinyaot_shared_{a['name']}" in syms, (m, sym)
        else:
            assert defined.get(sym) == a["bytes"], (m, sym, defined.get(sym), a["bytes"])
EOF
  then pass state_not_shared_exact
  else fail state_not_shared_exact "$(tail -c 300 "$work/state.log" "$work/state_run.log" 2>/dev/null)"; fi
else fail state_not_shared_exact "$(tail -c 300 "$work/state.log")"; fi

# 6c. --test.enabled in a group: the expected outputs come from a plain host build of each
#     model; the embedded test cases pass interleaved in one program over the shared scratch.
t="$work/testcase"
cat >"$work/testcase_main.c" <<'EOF'
#include <stdio.h>
#include "ad_test_case.h"
#include "kws_test_case.h"
int main(void) {
  int bad = kws_test_case_init() != 0 || ad_test_case_init() != 0;
  bad = bad || kws_test_case_run() != 0 || ad_test_case_run() != 0 || kws_test_case_run() != 0;
  puts(bad ? "test cases failed" : "test cases pass");
  return bad;
}
EOF
if "$B" convert "$M/kws/model.tflite" "$M/ad/model.tflite" --shared-scratch --test.enabled -o "$t" >"$work/testcase.log" 2>&1 &&
   ${CC:-cc} -std=c99 -O1 -Wall -Werror -I"$t" -I"$t/kws/include" -I"$t/kws/src" -I"$t/ad/include" -I"$t/ad/src" \
     "$work/testcase_main.c" "$t/tinyaot_shared.c" "$t"/kws/src/*.c "$t"/ad/src/*.c -lm -o "$work/testcase_host" >>"$work/testcase.log" 2>&1 &&
   "$work/testcase_host" >>"$work/testcase.log" 2>&1
then pass test_cases_in_a_group; else fail test_cases_in_a_group "$(tail -c 300 "$work/testcase.log")"; fi

# 6. The same group from a config: tinyaot's `models:` list, heliaAOT's model/module keys
#    per entry (given prefix and name), `shared_scratch: true`, module.path = the folder.
cat >"$work/group.yaml" <<EOF
module: {path: cfg_out}
shared_scratch: true
models:
  - model: $M/kws/model.tflite
    module: {prefix: wake}
  - model: {path: $M/ic/model.tflite}
    module: {name: vision}
  - model: $M/ad/model.tflite
EOF
if "$B" convert --config "$work/group.yaml" >"$work/cfg.log" 2>&1 &&
   python3 - "$work/cfg_out" "$h" >>"$work/cfg.log" 2>&1 <<'EOF'
import json, sys
g = json.load(open(f"{sys.argv[1]}/report.json"))
cli = json.load(open(f"{sys.argv[2]}/report.json"))
assert [(m["name"], m["prefix"]) for m in g["models"]] == [("kws", "wake"), ("vision", "vision"), ("ad", "ad")], g
assert g["shared_scratch"] is True and g["shared_scratch_bytes"] == cli["shared_scratch_bytes"], g
assert "wake_model_run" in open(f"{sys.argv[1]}/kws/include/kws_model.h").read()
EOF
then pass config_models_list; else fail config_models_list "$(tail -c 300 "$work/cfg.log")"; fi
sed 's/{name: vision}/{prefix: wake}/' "$work/group.yaml" >"$work/clash.yaml"
"$B" convert --config "$work/clash.yaml" -o "$work/cfg_clash" >"$work/cfg_clash.log" 2>&1; rc=$?
if [ $rc -eq 1 ] && [ ! -e "$work/cfg_clash" ] && grep -q "'wake'" "$work/cfg_clash.log"; then pass config_prefix_clash_refused
else fail config_prefix_clash_refused "rc $rc: $(head -c 300 "$work/cfg_clash.log")"; fi

# 7. QEMU: the same program as one bare-metal image per core.
if [ -n "$(ta_missing_packages)" ]; then
  fail target "cross tools missing:$(ta_missing_packages) (tools/prereqs.sh installs them)"
  exit 0
fi
target_run() { # core platform machine ld arch...
  core=$1 platform=$2 machine=$3 ld=$4; shift 4
  arch="$*"
  d="$work/$core" t="$work/$core-img"
  mkdir -p "$t"
  "$B" convert $models --shared-scratch --platform "$platform" -o "$d" >"$t/convert.log" 2>&1 || { echo "convert failed"; return 1; }
  libs=""
  for m in kws ic ad; do
    make -C "$d/$m" TARGET="$platform" CFLAGS="-O2 -Wall -Wextra -Werror" >"$t/build_$m.log" 2>&1 || { echo "$m build failed"; return 1; }
    libs="$libs $d/$m/lib$m.a"
  done
  common="$TA_ROOT/target/common"
  cflags="$arch -O2 -Wall -Wextra -Werror -std=c99 -ffreestanding -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections"
  inc="-I$common -I$d -I$d/kws/include -I$d/ic/include -I$d/ad/include"
  {
    arm-none-eabi-gcc $arch $inc -c "$common/startup.S" -o "$t/startup_s.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/startup.c" -o "$t/startup.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$common/semihost.c" -o "$t/semihost.o" &&
    arm-none-eabi-gcc $cflags $inc -DTA_TARGET -c "$TA_ROOT/tests/multi/multi_main.c" -o "$t/main.o" &&
    arm-none-eabi-gcc $cflags $inc -c "$d/tinyaot_shared.c" -o "$t/shared.o" &&
    arm-none-eabi-gcc $cflags -c "$work/golden.c" -o "$t/golden.o" &&
    arm-none-eabi-gcc $arch -nostartfiles -Wl,--gc-sections -L"$TA_ROOT/target" -L"$common" -T"$ld" \
      "$t"/*.o $libs -lm -o "$t/image.elf"
  } >"$t/link.log" 2>&1 || { echo "link failed: $(grep -m1 -i error "$t/link.log")"; return 1; }
  (cd "$t" && exec timeout 120 qemu-system-arm -M "$machine" -nodefaults -display none -monitor none -serial null \
    -semihosting-config enable=on,target=native -kernel "$t/image.elf") >"$t/qemu.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] && grep -q "all exact" "$t/qemu.log" || { echo "QEMU exit $rc: $(head -c 200 "$t/qemu.log")"; return 1; }
}
r=$(target_run m4 cortex-m4 mps2-an386 mps2-an386.ld -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb) &&
  pass qemu_m4_interleaved_exact || fail qemu_m4_interleaved_exact "$r"
r=$(target_run m55 cortex-m55 mps3-an547 mps3-an547.ld -mcpu=cortex-m55 -mfloat-abi=hard -mthumb) &&
  pass qemu_m55_interleaved_exact || fail qemu_m55_interleaved_exact "$r"
# The README's measured tables (these three models together, and the MLPerf Tiny memory table) are
# what tools/readme_tables.sh measures now.
if sh "$TA_ROOT/tools/readme_tables.sh" --check "$build" "$corpus" "$TA_ROOT/README.md" >"$work/tables.log" 2>&1
then pass readme_table_current
else fail readme_table_current "README.md's measured tables are stale (make readme-tables): $(head -n 3 "$work/tables.log" | tr '\n' ' ')"; fi
exit 0
