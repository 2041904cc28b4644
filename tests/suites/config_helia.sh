#!/bin/sh
# heliaAOT's configuration (issue 14): each config in tests/config_helia/ is written as
# heliaAOT's documentation writes it (the page is named in its header); this converts
# it and checks the documented effect in report.json / the generated code, and runs
# the config parser under valgrind for every config.
# Usage: sh tests/suites/config_helia.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup config_helia "$@" || { fail setup "no work folder"; exit 0; }
T="$build/tinyaot"
dir=tests/config_helia
"$build/demo_model" "$work/demo.tflite" "$work/demo_in.bin" >/dev/null || { fail setup "demo model"; exit 0; }
kws="$corpus/models/kws/model.tflite"


# convert NAME MODEL [ARGS...]: converts into $work/NAME; stdout+stderr in $work/NAME.log
convert() {
  cv_name=$1 cv_model=$2
  shift 2
  rm -rf "$work/$cv_name"
  "$T" convert "$cv_model" -o "$work/$cv_name" "$@" >"$work/$cv_name.log" 2>&1
}
# line_of NAME PATTERN: the report.json line (one tensor per line) matching PATTERN
line_of() { grep -E "$2" "$work/$1/report.json" 2>/dev/null | head -1; }
has() { printf '%s' "$1" | grep -qF "$2"; }

# 1-2. An id rule on a weight the DSP (M4) / MVE (M55) tier re-lays: the derived table
# takes the rule and names its source tensor.
for core in m4 m55; do
  n=tensor_id_$core
  if ! convert $n "$work/demo.tflite" --config $dir/$n.yaml; then fail $n "conversion failed: $(cat "$work/$n.log")"; continue; fi
  l=$(line_of $n '"source_tensor": 6')
  other=$(line_of $n '"source_tensor": 1[,}]')
  if [ -z "$l" ]; then fail $n "no derived table lists source_tensor 6"
  elif ! has "$l" '"memory": "DTCM"' || ! has "$l" '"source_memory": "MRAM"' || ! has "$l" '"residency": "pin"'; then
    fail $n "re-laid weight of tensor 6 not pinned MRAM->DTCM: $l"
  elif ! has "$other" '"memory": "MRAM"' || has "$other" '"residency": "pin"'; then
    fail $n "tensor 1's table should follow the type rule only (MRAM, direct): $other"
  else pass $n; fi
done

# 3-4. The same on kws's depthwise filter (tensor 5, operator 1), M4 and M55.
for core in m4 m55; do
  n=kws_depthwise_$core
  if [ ! -f "$kws" ]; then skip "$n" "corpus absent"; continue; fi
  if ! convert $n "$kws" --config $dir/$n.yaml; then fail $n "conversion failed: $(cat "$work/$n.log")"; continue; fi
  l=$(line_of $n "DEPTHWISE_CONV_2D\\) table 'weights'.*\"source_tensor\": 5")
  if [ -z "$l" ]; then fail $n "no re-laid depthwise weights with source_tensor 5"
  elif has "$l" '"memory": "DTCM"' && has "$l" '"residency": "pin"'; then pass $n
  else fail $n "re-laid filter not pinned to DTCM: $l"; fi
done

# 5. Precedence: type+id > type > id > neither, later wins, fields merge one by one.
n=precedence
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  # (a bias is read through the table folded from it: either line carries its placement)
  t7=$(line_of $n '"id": 7,|"source_tensor": 7[,}]') t2=$(line_of $n '"id": 2,|"source_tensor": 2[,}]')
  t1=$(line_of $n '"id": 1,|"source_tensor": 1[,}]')
  if ! has "$t7" '"source_memory": "MRAM"'; then fail $n "type rule must beat the id rule for tensor 7's memory: $t7"
  elif ! has "$t7" '"memory": "SRAM"' || ! has "$t7" '"residency": "pin"'; then
    fail $n "the id rule's constant_destination_memory must still apply (field merge): $t7"
  elif ! has "$t2" '"source_memory": "ITCM"'; then fail $n "type+id rule must win for tensor 2: $t2"
  elif ! has "$t1" '"source_memory": "MRAM"'; then fail $n "the later type rule must win for tensor 1: $t1"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# placed NAME OP MEM: the layer function of operator OP is marked <PREFIX>_CODE_IN_MEM
placed() { grep -A1 "_CODE_IN_$3\$" "$work/$1"/src/*.c 2>/dev/null | grep -q "static void .*_op$2_"; }

# 6. how-to/model-attributes' example: "*" < type < id ... per operator.
n=model_attributes
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  if ! placed $n 0 MRAM; then fail $n "CONV_2D (op 0) not in MRAM (type rule over \"*\")"
  elif ! placed $n 2 PSRAM; then fail $n "op 2 not in PSRAM (id rule over \"*\")"
  elif ! placed $n 3 ITCM; then fail $n "op 3 not in ITCM (the \"*\" rule)"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 7. A flat "*" rule places every layer function.
n=flat_star
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  if placed $n 0 ITCM && placed $n 2 ITCM && placed $n 3 ITCM; then pass $n
  else fail $n "not every layer function marked _CODE_IN_ITCM"; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 8. Capitals, id null, id lists of strings and ints.
n=id_forms
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  t6=$(line_of $n '"id": 6,') t3=$(line_of $n '"id": 3,') t8=$(line_of $n '"id": 8,') t0=$(line_of $n '"id": 0,')
  if ! has "$t6" '"source_memory": "MRAM"'; then fail $n "type Constant / id null / mram not applied: $t6"
  elif ! has "$t3" '"memory": "SRAM"' || ! has "$t8" '"memory": "SRAM"'; then fail $n "id list [\"3\", 8] not applied: $t3 / $t8"
  elif has "$t0" '"memory": "SRAM"'; then fail $n "tensor 0 is not in the id list but went to SRAM: $t0"
  elif grep -q warning "$work/$n.log"; then fail $n "warnings: $(cat "$work/$n.log")"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 9. Relative paths are taken from the config file's folder.
n=relative_paths
mkdir -p "$work/rel/cfg" "$work/rel/elsewhere"
cp "$work/demo.tflite" "$work/rel/cfg/demo.tflite"
cp $dir/$n.yaml "$work/rel/cfg/$n.yaml"
if (cd "$work/rel/elsewhere" && "$T" convert --config ../cfg/$n.yaml >"$work/$n.log" 2>&1); then
  if [ -f "$work/rel/cfg/out/report.json" ] && [ ! -e "$work/rel/elsewhere/out" ]; then pass $n
  else fail $n "output not in the config's folder (cfg/out)"; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 10. Every key of the convert page parses, without a warning.
n=convert_keys
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  if grep -q "warning" "$work/$n.log"; then fail $n "warnings: $(cat "$work/$n.log")"
  elif ! has "$(line_of $n '"id": 3,')" '"memory": "DTCM"'; then fail $n "SCRATCH rule not applied"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 11-12. Unknown keys and rules matching nothing: warnings; with --strict one-line errors.
for n in strict_unknown_key strict_unmatched; do
  case $n in strict_unknown_key) want="line 9: unknown key 'memroy'" ;; *) want="line 8: memory.tensors rule (type *): id 999 matches no tensor" ;; esac
  if ! convert $n "$work/demo.tflite" --config $dir/$n.yaml; then fail $n "failed without --strict: $(cat "$work/$n.log")"
  elif ! grep "warning" "$work/$n.log" | grep -qF "$want"; then fail $n "no warning '$want': $(cat "$work/$n.log")"
  elif convert ${n}_strict "$work/demo.tflite" --config $dir/$n.yaml --strict; then fail $n "--strict accepted it"
  elif [ "$(wc -l <"$work/${n}_strict.log")" -ne 1 ] || ! grep -qF "$want" "$work/${n}_strict.log"; then
    fail $n "--strict: not one line naming '$want': $(cat "$work/${n}_strict.log")"
  elif [ -e "$work/${n}_strict" ]; then fail $n "--strict: files were written"
  else pass $n; fi
done

# 13-14. Verbose level 2 (config key and --verbose 2): attributes per operator and tensor.
n=verbose
for how in key flag; do
  if [ $how = key ]; then convert ${n}_$how "$work/demo.tflite" --config $dir/$n.yaml
  else sed 's/^verbose: 2/verbose: 0/' $dir/$n.yaml >"$work/verbose_noflag.yaml"; convert ${n}_$how "$work/demo.tflite" --config "$work/verbose_noflag.yaml" --verbose 2; fi
  log="$work/${n}_$how.log"
  if ! grep -q "operator 2 FULLY_CONNECTED:.*scratch_placement=DTCM (line 12)" "$log"; then fail ${n}_$how "no resolved operator attributes: $(head -3 "$log")"
  elif ! grep -q "tensor 6 'dense/weights' CONSTANT: memory=SRAM (line 8)" "$log"; then fail ${n}_$how "no resolved tensor attributes"
  elif ! grep -q "operator 0 CONV_2D: code_placement=- scratch_placement=-" "$log"; then fail ${n}_$how "operators without rules not listed"
  else pass ${n}_$how; fi
done

# 16. heliaAOT's template forms (issue 33): platform.memories as a mapping, a constraint's
# `size`, a disabled {name, enabled, options} transform, a tensor id given as its name,
# model metadata in report.json/report.md, memory.optimize in the file.
n=template_forms
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  r="$work/$n/report.json"
  w6=$(line_of $n '"id": 6,|"source_tensor": 6[,}]') w1=$(line_of $n '"id": 1,|"source_tensor": 1[,}]')
  if grep -q warning "$work/$n.log"; then fail $n "warnings (a disabled transform asks for nothing): $(cat "$work/$n.log")"
  elif ! grep -q '"platform": "board"' "$r" || ! grep -q '{"name": "DTCM", "used": [0-9]*, "budget": 65536}' "$r" ||
       grep -q '"name": "ITCM"' "$r"; then fail $n "the mapping's memories are not the platform's: $(grep -A5 '"memories"' "$r")"
  elif ! grep -q '{"name": "SRAM", "used": [0-9]*, "budget": 98304}' "$r"; then fail $n "constraint 'size: 96KB' is not SRAM's budget"
  elif ! has "$w6" '"memory": "SRAM"' || ! has "$w6" '"residency": "pin"'; then fail $n "id 'dense/weights' did not pin tensor 6 to SRAM: $w6"
  elif has "$w1" '"residency": "pin"'; then fail $n "the name rule reached tensor 1: $w1"
  elif ! grep -qF '"model_metadata": {"name": "demo_kws", "description": "tiny keyword spotter", "version": "v1.2.3"}' "$r" ||
       ! grep -qF 'Model: demo_kws v1.2.3 - tiny keyword spotter' "$work/$n/report.md"; then fail $n "model metadata not in report.json/report.md"
  elif ! grep -q '"memory_bounds": {"mode": "max"' "$r"; then fail $n "memory.optimize: max not applied"
  elif ! convert ${n}_cli "$work/demo.tflite" --config $dir/$n.yaml --memory.optimize default ||
       ! grep -q '"memory_bounds": {"mode": "default"' "$work/${n}_cli/report.json"; then fail $n "--memory.optimize default does not beat the file's key"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi

# 17. A tensor name no tensor has: a warning naming the line; --strict an error.
n=tensor_name_unknown
printf 'memory:\n  tensors:\n    - id: [dense/wieghts]\n      attributes: {memory: SRAM}\n' >"$work/$n.yaml"
want="line 3: memory.tensors rule: no tensor of the model is named 'dense/wieghts'"
if ! convert $n "$work/demo.tflite" --config "$work/$n.yaml"; then fail $n "failed without --strict: $(cat "$work/$n.log")"
elif ! grep warning "$work/$n.log" | grep -qF "$want"; then fail $n "no warning '$want': $(cat "$work/$n.log")"
elif grep -q "empty id list" "$work/$n.log"; then fail $n "a second warning for the same rule: $(cat "$work/$n.log")"
elif convert ${n}_strict "$work/demo.tflite" --config "$work/$n.yaml" --strict || ! grep -qF "$want" "$work/${n}_strict.log"; then
  fail $n "--strict: not an error naming '$want': $(cat "$work/${n}_strict.log")"
else pass $n; fi

# 18. The two documented operator orders disagree on operator 0 (type-only CONV_2D rule vs
# id-only rule): the type rule places it, and one warning line names both readings.
n=precedence_readings
if convert $n "$work/demo.tflite" --config $dir/$n.yaml; then
  want="operator 0 (CONV_2D) takes code_placement MRAM from line 8: heliaAOT's reference/attributes order"
  if ! placed $n 0 MRAM; then fail $n "operator 0 not in MRAM (tinyaot follows reference/attributes: type over id)"
  elif ! placed $n 2 ITCM; then fail $n "operator 2's id rule (no type rule competes) not applied"
  elif [ "$(grep -c warning "$work/$n.log")" -ne 1 ] || ! grep warning "$work/$n.log" | grep -qF "$want" ||
       ! grep warning "$work/$n.log" | grep -qF "operator-attributes page (id-only over type-only) gives SRAM from line 11 (1 operator differ)"; then
    fail $n "not one warning naming both readings: $(cat "$work/$n.log")"
  else pass $n; fi
else fail $n "conversion failed: $(cat "$work/$n.log")"; fi
# ... and a config whose rules agree under both readings gets no such warning.
n=model_attributes_quiet
if convert $n "$work/demo.tflite" --config $dir/model_attributes.yaml && ! grep -q "operator-attributes page" "$work/$n.log"; then pass $n
else fail $n "warned although both orders agree: $(cat "$work/$n.log")"; fi

# 19. A typo in a key: the warning names the closest known key, as the command line does.
n=did_you_mean
if convert $n "$work/demo.tflite" --config $dir/strict_unknown_key.yaml &&
   grep warning "$work/$n.log" | grep -qF "line 9: unknown key 'memroy' in tensor attributes (ignored); did you mean 'memory'?"; then pass $n
else fail $n "no 'did you mean' in: $(cat "$work/$n.log")"; fi

# 20. heliaAOT's board names are built-in platforms with their SoC's memories: the plan's
# memories are those `tinyaot platforms` lists for the board.
for board in apollo4p_blue_kbr_evb apollo4p_blue_kxr_evb apollo4l_blue_evb apollo510b_evb; do
  n=platform_$board
  printf 'platform:\n  name: %s\n' $board >"$work/$n.yaml"
  if ! convert $n "$work/demo.tflite" --config "$work/$n.yaml"; then fail $n "conversion failed: $(cat "$work/$n.log")"; continue; fi
  row=$("$T" platforms | awk -v b=$board '$1 == b')
  listed=$("$T" platforms | awk -v b=$board 'NR == 1 { for (i = 4; i <= NF; i++) name[i] = $i }
    $1 == b { j = 4; for (i = 4; i <= NF && name[j] ~ /^(ITCM|DTCM|SRAM|MRAM|PSRAM)$/; i++) { if ($i == "-") { j++; continue } printf "%s ", name[j]; i++; j++ } }')
  planned=$(sed -n 's/.*{"name": "\([A-Z]*\)", "used": [0-9]*, "budget": [0-9]*}.*/\1/p' "$work/$n/report.json" | tr '\n' ' ')
  if [ -z "$row" ]; then fail $n "not listed by tinyaot platforms"
  elif ! grep -q "\"platform\": \"$board\"" "$work/$n/report.json"; then fail $n "report.json does not name the board"
  elif [ "$listed" != "$planned" ]; then fail $n "memories '$planned' differ from tinyaot platforms' '$listed'"
  else pass $n; fi
done

# 15. valgrind on the config parser (a whole conversion) for every test config.
if command -v valgrind >/dev/null 2>&1; then
  bad=""
  for cfg in $dir/*.yaml tests/config_errors/*.yaml; do
    case $cfg in *kws*) model="$kws"; [ -f "$kws" ] || continue ;; *) model="$work/demo.tflite" ;; esac
    rm -rf "$work/vg"
    valgrind --error-exitcode=9 --leak-check=no -q "$T" convert "$model" -o "$work/vg" --config "$cfg" >"$work/vg.log" 2>&1
    [ $? -eq 9 ] && bad="$bad $(basename "$cfg")"
  done
  if [ -z "$bad" ]; then pass valgrind; else fail valgrind "errors with:$bad"; fi
else fail valgrind "valgrind not installed (apt-get install valgrind)"; fi
