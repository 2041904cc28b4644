#!/bin/sh
# heliaAOT's command line (issue 14): every option of `helia-aot convert` as heliaAOT's
# documentation (reference/commands/convert) writes it parses and has its documented effect,
# or fails with a one-line reason where tinyaot differs; conflicts are errors; misspelled
# options get a suggestion; --version; --log-file; the small messages (a folder given as
# the model, the over-budget message). usage: sh tests/suites/cli.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup cli "$@" || { fail setup "no work folder"; exit 0; }
root=$TA_ROOT
B="$build/tinyaot"
# expect_error NAME PATTERN ARGS...: exit status 2 or 1, exactly one line on stderr matching PATTERN
expect_error() {
  name=$1 pattern=$2; shift 2
  "$B" "$@" >"$work/$name.out" 2>"$work/$name.err"; rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l <"$work/$name.err")" -eq 1 ] && grep -q -- "$pattern" "$work/$name.err"; then pass "$name"
  else fail "$name" "rc $rc, stderr: $(head -c 300 "$work/$name.err")"; fi
}

model=${SUITE_MODEL:-}
if [ -z "$model" ]; then
  model="$work/demo.tflite"
  "$build/demo_model" "$model" "$work/demo_in.bin" >/dev/null 2>&1 || { fail setup "cannot write the demo model"; exit 1; }
fi

# --version / version: the release and the commit, the same string as in generated files.
v=$("$B" --version 2>&1); v2=$("$B" version 2>&1)
if echo "$v" | grep -Eq '^tinyaot [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-z.-]+\)$' && [ "$v" = "$v2" ]; then pass version
else fail version "'$v' / '$v2'"; fi

# heliaAOT's documented spelling of every convert option parses (the parse stops at --help,
# after every option before it was checked).
if "$B" convert --path "$work/none.yaml" --model.path "$model" --model.subgraph 0 --model.type tflite \
     --model.name m --model.description "a model" --model.version v1.0.0 --module.path "$work/x" \
     --module.type neuralspot --module.name mod --module.prefix pre --test.enabled --test.tolerance 0.5 \
     --transforms --memory.planner greedy --memory.constraints --memory.tensors \
     --memory.allocate-arenas --memory.auto-hydrate-constants --memory.dump-residency-json \
     --platform.name host --operators --verbose 2 --force --log-file "$work/x.log" --help >"$work/all.out" 2>"$work/all.err" &&
   "$B" convert "$model" --no-test.enabled --no-memory.allocate-arenas --no-memory.auto-hydrate-constants \
     --no-memory.dump-residency-json --no-force --memory.planner --help >/dev/null 2>>"$work/all.err"; then pass every_heliaaot_option_parses
else fail every_heliaaot_option_parses "$(head -c 300 "$work/all.err")"; fi

# A conversion written exactly as heliaAOT's first-conversion example writes it.
if "$B" convert --model.path "$model" --module.path "$work/h1" --module.name my_model >"$work/h1.out" 2>&1 &&
   [ -f "$work/h1/include/my_model_model.h" ]; then pass heliaaot_example_converts
else fail heliaaot_example_converts "$(head -c 300 "$work/h1.out")"; fi

# --no-memory.allocate-arenas: the arenas are the caller's (report.json says so; the header
# declares the bind function), overriding the config's default.
if "$B" convert "$model" -o "$work/na" --name na --no-memory.allocate-arenas >/dev/null 2>&1 &&
   grep -q '"allocate_arenas": false' "$work/na/report.json" && grep -q 'na_bind_arena' "$work/na/include/na_model.h" &&
   "$B" convert "$model" -o "$work/ya" --name ya --memory.allocate-arenas >/dev/null 2>&1 &&
   grep -q '"allocate_arenas": true' "$work/ya/report.json"; then pass allocate_arenas_switch
else fail allocate_arenas_switch "report.json or header do not follow the switch"; fi

# --memory.dump-residency-json: residency.json in the module (and in its manifest); =FILE elsewhere.
if "$B" convert "$model" -o "$work/rj" --memory.dump-residency-json >/dev/null 2>&1 && [ -s "$work/rj/residency.json" ] &&
   grep -q ' residency.json$' "$work/rj/.tinyaot-manifest" &&
   "$B" convert "$model" -o "$work/rj2" --memory.dump-residency-json="$work/res.json" >/dev/null 2>&1 &&
   [ -s "$work/res.json" ] && [ ! -f "$work/rj2/residency.json" ] &&
   "$B" convert "$model" -o "$work/rj3" --no-memory.dump-residency-json >/dev/null 2>&1 && [ ! -f "$work/rj3/residency.json" ]
then pass dump_residency_switch
else fail dump_residency_switch "residency.json not where the switch says"; fi

# --path is --config (heliaAOT's name); the config gives the model and module path.
printf 'model:\n  path: %s\nmodule:\n  path: %s\n  name: fromcfg\n' "$model" "$work/cfgout" >"$work/c.yaml"
if "$B" convert --path "$work/c.yaml" >"$work/path.out" 2>&1 && [ -f "$work/cfgout/include/fromcfg_model.h" ]; then pass path_is_config
else fail path_is_config "$(head -c 300 "$work/path.out")"; fi

# Conflicts are errors, never a silent pick.
expect_error two_models "two models given" convert "$model" --model.path "$model" -o "$work/c1"
expect_error option_twice "given twice" convert "$model" -o "$work/c2" --module.path "$work/c3"
expect_error switch_twice "given twice" convert "$model" -o "$work/c4" --force --no-force
expect_error config_twice "given twice" convert "$model" -o "$work/c5" --path a.yaml --config b.yaml
[ ! -e "$work/c1" ] && [ ! -e "$work/c2" ] && [ ! -e "$work/c3" ] && pass conflicts_write_nothing || fail conflicts_write_nothing "a folder was created"

# Did you mean.
expect_error suggest_force "did you mean --force?" convert "$model" --froce
expect_error suggest_model_path "did you mean --model.path?" convert --model.paht "$model"
expect_error suggest_command "did you mean convert?" covnert "$model"
expect_error no_suggestion_far "unknown option '--zzzzzzzzzz' (see --help)" convert "$model" --zzzzzzzzzz

# Deliberate differences: one line with the reason.
expect_error subgraph_other "subgraph 0" convert "$model" -o "$work/s" --model.subgraph 1
expect_error model_type_onnx "TFLite" convert "$model" -o "$work/s" --model.type onnx
expect_error planner_other "one planner" convert "$model" -o "$work/s" --memory.planner tetris
expect_error rules_bad_memory "^tinyaot: error: --memory.tensors: 'memory': unknown memory 'FLASH'" convert "$model" \
  -o "$work/s" --platform apollo510_evb --memory.tensors '[{"type": "SCRATCH", "attributes": {"memory": "FLASH"}}]'
expect_error rules_bad_json "^tinyaot: error: --operators: invalid YAML/JSON value" convert "$model" -o "$work/s" \
  --operators '[{"type": "CONV_2D", "attributes": {"code_placement": "ITCM"}'
expect_error rules_bad_constraint "^tinyaot: error: --memory.constraints: a constraint needs 'name' and 'max_size'" \
  convert "$model" -o "$work/s" --platform apollo510_evb --memory.constraints '[{"name": "DTCM"}]'
expect_error rules_checked_on_platform "^tinyaot: error: --memory.tensors: scratch tensors need a writable memory" \
  convert "$model" -o "$work/s" --platform apollo510_evb --memory.tensors '{"type": "SCRATCH", "attributes": {"memory": "MRAM"}}'
expect_error rules_list_twice "given twice" convert "$model" -o "$work/s" --operators '[]' --operators '[]'
expect_error transforms_strict "^tinyaot: error: --transforms: .*tinyaot runs its own fixed transforms (--strict)" \
  convert "$model" -o "$work/s" --transforms fold_constants --strict
expect_error module_type_bad "neuralspot, zephyr" convert "$model" -o "$work/s" --module.type make
expect_error tolerance_bad "number" convert "$model" -o "$work/s" --test.tolerance abc
expect_error verbose_bad "level" convert "$model" -o "$work/s" --verbose loud
expect_error switch_value_bad "true or false" convert "$model" -o "$work/s" --force=maybe
expect_error run_no_module_path "temporary folder" run "$model" -o "$work/s" --in x --out-dir "$work/s"
[ ! -e "$work/s" ] && pass refusals_write_nothing || fail refusals_write_nothing "$work/s was created"

# --log-file: the summary (success) or the error (failure) is in the log and on the terminal.
if "$B" convert "$model" -o "$work/lg" --log-file "$work/ok.log" >"$work/lg.out" 2>&1 &&
   grep -q "tinyaot: wrote" "$work/ok.log" && [ "$(grep -c "tinyaot: wrote" "$work/lg.out")" -eq 1 ]; then pass log_file_success
else fail log_file_success "log: $(head -c 200 "$work/ok.log")"; fi
printf 'garbage' >"$work/bad.tflite"
"$B" convert "$work/bad.tflite" -o "$work/lg2" --log-file "$work/bad.log" >"$work/lg2.out" 2>"$work/lg2.err"
if grep -q "error" "$work/bad.log" && grep -q "error" "$work/lg2.err"; then pass log_file_error
else fail log_file_error "log: $(head -c 200 "$work/bad.log"), stderr: $(head -c 200 "$work/lg2.err")"; fi

# A folder given as the model: one clear line (it used to report a 9-exabyte file).
expect_error folder_as_model "is a folder, not a model file" convert "$work" -o "$work/fm"

# Every generated C/H file starts with the SPDX line and the version --version prints.
ver=$(echo "$v" | sed 's/^tinyaot //')
bad=""
for f in "$work/h1"/src/*.c "$work/h1"/src/*.h "$work/h1"/include/*.h; do
  [ "$(head -n 1 "$f")" = "/* SPDX-License-Identifier: MIT-0 */" ] && sed -n 2p "$f" | grep -qF "tinyaot $ver" || bad="$bad $f"
done
[ -z "$bad" ] && head -n 1 "$work/h1/Makefile" | grep -q "SPDX-License-Identifier: MIT-0" && pass spdx_and_version_stamped ||
  fail spdx_and_version_stamped "missing in:$bad"
bad=""
for f in "$root"/runtime/kernels/*.c "$root"/runtime/kernels/*.h; do
  [ "$(head -n 1 "$f")" = "/* SPDX-License-Identifier: MIT-0 */" ] || bad="$bad $(basename "$f")"
done
[ -z "$bad" ] && pass kernel_sources_spdx || fail kernel_sources_spdx "no SPDX first line in:$bad"
grep -q "MIT-0" "$root/LICENSE" && grep -q "MIT License" "$root/LICENSE" && pass license_file || fail license_file "LICENSE lacks MIT / MIT-0"

# make demo / make test check their packages first: on a machine without the compilers (a
# PATH holding only `dirname` and an `id` that says "not root") tools/prereqs.sh installs
# nothing, prints the one apt-get line naming what is missing, and fails.
stub="$work/stub_path"; mkdir -p "$stub"
ln -sf "$(command -v dirname)" "$stub/dirname"
printf '#!/bin/sh\necho 1000\n' >"$stub/id"; chmod +x "$stub/id"
PATH="$stub" /bin/sh "$root/tools/prereqs.sh" demo >"$work/pre_demo.out" 2>&1; rc1=$?
PATH="$stub" /bin/sh "$root/tools/prereqs.sh" test >"$work/pre_test.out" 2>&1; rc2=$?
if [ $rc1 -ne 0 ] && grep -q "apt-get install -y gcc make" "$work/pre_demo.out" && ! grep -q clang "$work/pre_demo.out" &&
   [ $rc2 -ne 0 ] && grep "apt-get install" "$work/pre_test.out" | grep -q "clang.*gcc-arm-none-eabi.*qemu-system-arm"
then pass prerequisites_named
else fail prerequisites_named "rc $rc1/$rc2: $(tail -n 1 "$work/pre_demo.out") / $(tail -n 1 "$work/pre_test.out")"; fi
sh "$root/tools/prereqs.sh" demo >/dev/null 2>&1 && pass prerequisites_present_here || fail prerequisites_present_here "tools/prereqs.sh demo fails on this machine"

# heliaAOT's rule lists on the command line (reference/commands/convert: --memory.constraints
# TEXT, --memory.tensors [TEXT ...], --operators [TEXT ...]), each value written in JSON as
# heliaAOT's attribute pages write the rules; the effect is checked in report.json / the sources.
# scratch_mem DIR: the memories of the scratch tensors in DIR/report.json
scratch_mem() { grep '"role": "scratch"' "$1/report.json" | grep '"id":' | sed 's/.*"memory": "\([A-Z]*\)".*/\1/' | sort -u | tr '\n' ' '; }
dtcm_budget() { grep -o '"name": "DTCM", "used": [0-9]*, "budget": [0-9]*' "$1/report.json" | sed 's/.*"budget": //'; }
P="--platform apollo510_evb"
"$B" convert "$model" -o "$work/r0" --name r0 $P >/dev/null 2>&1
"$B" convert "$model" -o "$work/r1" --name r1 $P \
  --memory.tensors '[{"type": "SCRATCH", "id": null, "attributes": {"memory": "SRAM"}}]' >/dev/null 2>"$work/r1.err"
if [ "$(scratch_mem "$work/r0")" = "DTCM " ] && [ "$(scratch_mem "$work/r1")" = "SRAM " ]; then pass rules_tensors_cli
else fail rules_tensors_cli "scratch in '$(scratch_mem "$work/r0")' by default, '$(scratch_mem "$work/r1")' with the rule: $(head -c 200 "$work/r1.err")"; fi
# one object per argument (heliaAOT's [TEXT ...]) is the same list
"$B" convert "$model" -o "$work/r1b" --name r1b $P --memory.tensors '{"type": "CONSTANT", "attributes": {"memory": "MRAM"}}' \
  '{"type": "SCRATCH", "attributes": {"memory": "SRAM"}}' >/dev/null 2>&1
[ "$(scratch_mem "$work/r1b")" = "SRAM " ] && pass rules_tensors_cli_objects || fail rules_tensors_cli_objects "scratch in '$(scratch_mem "$work/r1b")'"
"$B" convert "$model" -o "$work/r2" --name r2 $P '--memory.constraints=[{"name": "DTCM", "max_size": 64}]' >/dev/null 2>&1
if [ "$(dtcm_budget "$work/r0")" != 64 ] && [ "$(dtcm_budget "$work/r2")" = 64 ] && [ "$(scratch_mem "$work/r2")" != "DTCM " ]
then pass rules_constraints_cli
else fail rules_constraints_cli "DTCM budget '$(dtcm_budget "$work/r2")', scratch in '$(scratch_mem "$work/r2")'"; fi
code_in() { grep -A1 "_CODE_IN_$2\$" "$1"/src/*_model.c 2>/dev/null | grep -c "static void .*_op[0-9]*_"; }
"$B" convert "$model" -o "$work/r3" --name r3 $P --operators '[{"type": "*", "attributes": {"code_placement": "ITCM"}}]' >/dev/null 2>&1
if [ "$(code_in "$work/r0" ITCM)" -eq 0 ] && [ "$(code_in "$work/r3" ITCM)" -gt 0 ]; then pass rules_operators_cli
else fail rules_operators_cli "$(code_in "$work/r3" ITCM) layer functions in ITCM"; fi
"$B" convert "$model" -o "$work/r4" --name r4 --transforms fold_constants >/dev/null 2>"$work/r4.err"
if [ -f "$work/r4/report.json" ] && grep -q "^tinyaot: warning: --transforms: ignored" "$work/r4.err"; then pass transforms_cli_warned
else fail transforms_cli_warned "$(head -c 200 "$work/r4.err")"; fi

# Precedence: a list on the command line replaces the config's whole key; without it the
# config's list applies. Switches: the command line wins in both directions.
printf 'platform: apollo510_evb\nmemory:\n  constraints:\n    - {name: DTCM, max_size: 8192}\n  tensors:\n    - type: SCRATCH\n      attributes: {memory: PSRAM}\n' >"$work/prec.yaml"
"$B" convert "$model" -o "$work/p0" --name p0 --path "$work/prec.yaml" >/dev/null 2>&1
"$B" convert "$model" -o "$work/p1" --name p1 --path "$work/prec.yaml" \
  --memory.tensors '[{"type": "SCRATCH", "attributes": {"memory": "SRAM"}}]' --memory.constraints '[{"name": "DTCM", "max_size": 4096}]' >/dev/null 2>&1
"$B" convert "$model" -o "$work/p2" --name p2 --path "$work/prec.yaml" --memory.tensors '[]' >/dev/null 2>&1
if [ "$(scratch_mem "$work/p0")" = "PSRAM " ] && [ "$(dtcm_budget "$work/p0")" = 8192 ] &&
   [ "$(scratch_mem "$work/p1")" = "SRAM " ] && [ "$(dtcm_budget "$work/p1")" = 4096 ] && [ "$(scratch_mem "$work/p2")" = "DTCM " ]
then pass rules_cli_replace_config
else fail rules_cli_replace_config "config: $(scratch_mem "$work/p0")$(dtcm_budget "$work/p0"); cli: $(scratch_mem "$work/p1")$(dtcm_budget "$work/p1"); empty: $(scratch_mem "$work/p2")"; fi
printf 'test:\n  enabled: true\nforce: true\n' >"$work/on.yaml"
printf 'test:\n  enabled: false\nforce: false\n' >"$work/off.yaml"
"$B" convert "$model" -o "$work/t1" --name t1 --path "$work/on.yaml" >/dev/null 2>&1
"$B" convert "$model" -o "$work/t2" --name t2 --path "$work/on.yaml" --no-test.enabled >/dev/null 2>&1
"$B" convert "$model" -o "$work/t3" --name t3 --path "$work/off.yaml" --test.enabled >/dev/null 2>&1
if [ -f "$work/t1/src/t1_test_case.c" ] && [ -f "$work/t2/report.json" ] && [ ! -e "$work/t2/src/t2_test_case.c" ] &&
   [ -f "$work/t3/src/t3_test_case.c" ]; then pass test_enabled_cli_wins_both_ways
else fail test_enabled_cli_wins_both_ways "test case files: $(ls "$work"/t1/src/*test_case.c "$work"/t2/src/*test_case.c "$work"/t3/src/*test_case.c 2>&1 | tr '\n' ' ')"; fi
mkdir -p "$work/f1" "$work/f2" "$work/f3" && echo mine >"$work/f1/notes.txt" && echo mine >"$work/f2/notes.txt" && echo mine >"$work/f3/notes.txt"
"$B" convert "$model" -o "$work/f1" --name f1 --path "$work/on.yaml" --no-test.enabled >/dev/null 2>&1; rc1=$?
"$B" convert "$model" -o "$work/f2" --name f2 --path "$work/on.yaml" --no-test.enabled --no-force >/dev/null 2>"$work/f2.err"; rc2=$?
"$B" convert "$model" -o "$work/f3" --name f3 --path "$work/off.yaml" --force >/dev/null 2>&1; rc3=$?
if [ $rc1 -eq 0 ] && [ -f "$work/f1/report.json" ] && [ $rc2 -ne 0 ] && [ ! -e "$work/f2/report.json" ] &&
   [ $rc3 -eq 0 ] && [ -f "$work/f3/report.json" ] && [ "$(cat "$work/f2/notes.txt")" = mine ]; then pass force_cli_wins_both_ways
else fail force_cli_wins_both_ways "rc $rc1/$rc2/$rc3: $(head -c 200 "$work/f2.err")"; fi

# tinyaot run --out-dir: a user's file there survives (run writes beside it, through the
# module writer's manifest code, with its own .tinyaot-run-manifest); a user's file in the way of an output is a one-line refusal
# that leaves it as it was; a second run replaces run's own files; stdout names what was written.
mkdir -p "$work/ro" "$work/rp"
echo mine >"$work/ro/notes.txt"
echo mine >"$work/rp/out0.bin"
"$B" run "$model" --in "$work/demo_in.bin" --out-dir "$work/ro" >"$work/ro1.out" 2>"$work/ro1.err"; r1=$?
"$B" run "$model" --in "$work/demo_in.bin" --out-dir "$work/ro" >"$work/ro2.out" 2>"$work/ro2.err"; r2=$?
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$(cat "$work/ro/notes.txt")" = mine ] && [ -s "$work/ro/out0.bin" ] &&
   grep -q "^tinyaot: wrote 1 output file ([0-9]* bytes) to $work/ro: out0.bin$" "$work/ro2.out"; then pass run_keeps_user_files
else fail run_keeps_user_files "rc $r1/$r2: $(head -c 300 "$work/ro2.err") $(head -c 200 "$work/ro2.out")"; fi
expect_error run_refuses_user_output "rp/out0.bin exists and was not written by tinyaot" run "$model" \
  --in "$work/demo_in.bin" --out-dir "$work/rp"
[ "$(cat "$work/rp/out0.bin")" = mine ] && pass run_user_output_untouched || fail run_user_output_untouched "out0.bin changed"
# run into a folder holding a converted module: the module stays (run keeps its own manifest),
# and a re-conversion there keeps run's outputs.
"$B" convert "$model" -o "$work/rm" --name rm >/dev/null 2>&1
"$B" run "$model" --in "$work/demo_in.bin" --out-dir "$work/rm" >/dev/null 2>"$work/rm.err"; r1=$?
"$B" convert "$model" -o "$work/rm" --name rm >/dev/null 2>>"$work/rm.err"; r2=$?
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ -f "$work/rm/include/rm_model.h" ] && [ -f "$work/rm/report.json" ] &&
   [ -s "$work/rm/out0.bin" ]; then pass run_beside_module
else fail run_beside_module "rc $r1/$r2: $(head -c 300 "$work/rm.err")"; fi

# inspect after PAD folding: the text's `op` column is the model's operator index, --json's
# "index" the position after folding; the text says so (a note) exactly when they differ, and
# --json's "model_index" is the text's column.
mv="$corpus/models/mcunet_vww/model.tflite"
if [ -f "$mv" ] && [ -f "$corpus/models/kws/model.tflite" ]; then
  "$B" inspect "$mv" >"$work/in.txt" 2>&1; "$B" inspect "$mv" --json >"$work/in.json" 2>&1
  "$B" inspect "$corpus/models/kws/model.tflite" >"$work/ik.txt" 2>&1
  text_ops=$(sed -n '/^  op  operator/,/^$/p' "$work/in.txt" | sed -n 's/^ *\([0-9][0-9]*\)  .*/\1/p' | tr '\n' ' ')
  json_ops=$(sed -n 's/.*"model_index": \([0-9]*\),.*/\1/p' "$work/in.json" | tr '\n' ' ')
  json_pos=$(sed -n 's/.*{"index": \([0-9]*\), "model_index".*/\1/p' "$work/in.json" | tr '\n' ' ')
  if grep -q '^note: the transforms folded operators' "$work/in.txt" && [ -n "$text_ops" ] && [ "$text_ops" = "$json_ops" ] &&
     [ "$json_pos" != "$json_ops" ] && ! grep -q '^note: the transforms' "$work/ik.txt"; then pass inspect_numbering_note
  else fail inspect_numbering_note "text '$(echo "$text_ops" | head -c 80)' json '$(echo "$json_ops" | head -c 80)'"; fi
else echo "SKIP cli:inspect_numbering_note: corpus absent"; fi

# A default module name changed from the model file's name is announced in one line (stdout,
# after the summary); an unchanged one (also a folder's name for model.tflite) is not.
mkdir -p "$work/nm/kws"
cp "$model" "$work/nm/9lives.tflite"; cp "$model" "$work/nm/my-model.v2.tflite"; cp "$model" "$work/nm/kws/model.tflite"
"$B" convert "$work/nm/9lives.tflite" -o "$work/nm/o1" >"$work/nm1.out" 2>&1
"$B" convert "$work/nm/my-model.v2.tflite" -o "$work/nm/o2" >"$work/nm2.out" 2>&1
"$B" convert "$work/nm/kws/model.tflite" -o "$work/nm/o3" >"$work/nm3.out" 2>&1
if grep -q "^tinyaot: note: the module is named 'model', not '9lives' " "$work/nm1.out" && [ -f "$work/nm/o1/include/model_model.h" ] &&
   grep -q "^tinyaot: note: the module is named 'my_model', not 'my-model.v2' " "$work/nm2.out" &&
   [ -f "$work/nm/o3/include/kws_model.h" ] && ! grep -q "note: the module is named" "$work/nm3.out"
then pass default_name_change_announced
else fail default_name_change_announced "$(cat "$work/nm1.out" "$work/nm2.out" "$work/nm3.out" | head -c 400)"; fi

# An unknown platform is blamed on where it was named: the config's line, or --platform.
printf '# a comment\nplatform:\n  name: no_such_board\n' >"$work/bad_platform.yaml"
expect_error platform_error_config_line "^tinyaot: error: $work/bad_platform.yaml: line 3: unknown platform 'no_such_board'" \
  convert "$model" -o "$work/bp" --path "$work/bad_platform.yaml"
expect_error platform_error_cli "^tinyaot: error: --platform: unknown platform 'no_such_board'" \
  convert "$model" -o "$work/bp" --platform no_such_board

# The over-budget message names the largest tensors whole (kws has names of ~200 characters).
if [ -f "$corpus/models/kws/model.tflite" ]; then
  printf 'platform: {name: apollo510_evb}\nmemory:\n  tensors:\n    - type: scratch\n      attributes: {memory: DTCM}\n  constraints:\n    - {name: DTCM, max_size: 64}\n' >"$work/budget.yaml"
  "$B" convert "$corpus/models/kws/model.tflite" --path "$work/budget.yaml" -o "$work/bk" --opt size 2>"$work/budget.err"
  quotes=$(tr -cd "'" <"$work/budget.err" | wc -c)
  if grep -q "over budget" "$work/budget.err" && [ $((quotes % 2)) -eq 0 ] && grep -q "raise memory.constraints" "$work/budget.err"
  then pass budget_message_whole_names
  else fail budget_message_whole_names "$(head -c 400 "$work/budget.err")"; fi
else skip budget_message_whole_names "corpus absent"; fi
exit 0
