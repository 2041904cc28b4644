#!/bin/sh
# `make bench`: the MLPerf Tiny models (kws, vww, ic, ad, strww) and their a16w8 variants
# (int16 activations, int8 weights; compared with their int8 twin) on QEMU Cortex-M4
# (mps2-an386) and Cortex-M55 (mps3-an547): convert, build, run case 0, check the outputs
# byte-exact against the golden, and write bench/results.md and bench/results.json with
# instructions and modelled cycles per inference (and per MAC), MVE instructions, flash
# (code / constants / C library / harness), RAM (arenas, static data, measured stack peak)
# and compile time, and bench/layers.md and bench/layers.json with the instructions and
# cycles of every operator. The cycles are the QEMU plugin's timing model of each core
# (docs/cycles.md); results.md and the "Against the best published results" table of
# bench/README.md (rewritten between its markers when OUT_DIR holds it) set them against
# the published silicon figures.
# Each model and core is also converted, run and checked with --memory.optimize max: the
# arenas of both modes and the instructions max costs against the default mode.
# bench/README.md says what each figure counts.
# usage: bench/bench.sh BUILD_DIR CORPUS_DIR [OUT_DIR]   (BENCH_MODELS="kws ad" to select)
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

build=${1:-build}
corpus=${2:-../shared/corpus}
outdir=${3:-$TA_ROOT/bench}
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
models=${BENCH_MODELS:-kws vww ic ad strww kws_a16w8 vww_a16w8 ic_a16w8 ad_a16w8 strww_a16w8}
work="${TMPDIR:-/tmp}/tinyaot-bench-$$"

ta_ensure_packages || exit 1
[ -x "$build/tinyaot" ] || { echo "error: $build/tinyaot is missing (run make first)" >&2; exit 1; }
mkdir -p "$work" "$outdir"
printf '#!/bin/sh\nexec "%s" "$@" --memory.optimize max\n' "$build/tinyaot" >"$work/tinyaot_max"
chmod +x "$work/tinyaot_max"
compare="$build/compare"
if [ ! -x "$compare" ]; then
  ${CC:-cc} -std=c11 -O1 "$TA_ROOT/tests/tools/compare.c" -o "$work/compare" -lm || exit 1
  compare="$work/compare"
fi
plugin=$(ta_build_plugin "$build/target") || exit 1
# the cycle model of the plugin (argument core=m4|m55, docs/cycles.md), when it has one
cycles_arg=""
if grep -q 'core=m4|m55' "$TA_ROOT/target/qemu_plugin/insn_count.c"; then cycles_arg=--cycles
else echo "bench: the QEMU plugin has no cycle model (core=m4|m55): cycles are reported as null" >&2
fi

# One model on one core -> $work/<model>.<core>.txt (the figures plus status= and reason=).
bench_one() { # model core
  model=$1 core=$2
  dir="$corpus/models/$model"
  out="$work/$core/$model"
  res="$work/$model.$core.txt"
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$core" --name "$model" --model "$dir/model.tflite" \
    --case "$dir/case_0" --out "$out" --tinyaot "$build/tinyaot" --build make --plugin "$plugin" \
    --convert-runs 3 --repeat 2 --layers $cycles_arg >"$work/$model.$core.log" 2>&1 || rc=$?
  status=pass reason=""
  case $rc in
    0) mode=exact
       grep -q '"compare": *"float32' "$dir/manifest.json" && mode=float32
       for g in "$dir"/case_0/out*.bin; do
         if ! msg=$("$compare" "$mode" "$g" "$out/run/$(basename "$g")" 2>&1); then
           status=mismatch reason="$(basename "$g"): $msg"
           break
         fi
       done ;;
    10) reason=$(grep -m1 error "$out/convert.log" | sed 's/^tinyaot: error: [^:]*: //')
        case "$reason" in
          *"unsupported operator"*) status=unsupported ;;
          *) status=error reason="conversion failed: $reason" ;;
        esac ;;
    11) status=error reason="module build failed" ;;
    12) status=error reason="link failed" ;;
    13) status=error reason="QEMU run failed (exit $(cat "$out/run/exit_code"))" ;;
    14) status=error reason="instruction counts differ between two runs" ;;
    15) status=error reason="per-operator counting failed:$(cat "$out/run/layers/why.txt")" ;;
    *) status=error reason="run_case.sh exit $rc" ;;
  esac
  { [ -f "$out/figures.txt" ] && cat "$out/figures.txt"; echo "status=$status"; echo "reason=$reason"; } >"$res"
}

# The same model and core with --memory.optimize max (in-place execution with moves,
# patch-based execution): one conversion, the measured run twice, no per-operator run ->
# $work/<model>.<core>.max.txt (insns, arena_bytes, layer_by_layer, status= and reason=).
bench_max() { # model core
  model=$1 core=$2
  dir="$corpus/models/$model"
  out="$work/max/$core/$model"
  res="$work/$model.$core.max.txt"
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$core" --name "$model" --model "$dir/model.tflite" \
    --case "$dir/case_0" --out "$out" --tinyaot "$work/tinyaot_max" --build make --plugin "$plugin" \
    --repeat 2 $cycles_arg >"$work/$model.$core.max.log" 2>&1 || rc=$?
  status=pass reason=""
  if [ $rc -ne 0 ]; then
    status=error reason="max mode: run_case.sh exit $rc"
  else
    mode=exact
    grep -q '"compare": *"float32' "$dir/manifest.json" && mode=float32
    for g in "$dir"/case_0/out*.bin; do
      if ! msg=$("$compare" "$mode" "$g" "$out/run/$(basename "$g")" 2>&1); then
        status=mismatch reason="max mode: $(basename "$g"): $msg"
        break
      fi
    done
  fi
  bound=$(sed -n 's/^ *"activation_lower_bound": *\([0-9]*\).*/\1/p' "$out/module/report.json" 2>/dev/null | head -n 1)
  { [ -f "$out/figures.txt" ] && grep -e '^insns=' -e '^cycles=' -e '^arena_bytes=' "$out/figures.txt"
    echo "layer_by_layer=$bound"; echo "status=$status"; echo "reason=$reason"; } >"$res"
}

# ---- per operator ---------------------------------------------------------------------------
# One row per operator of the model, fields separated by \037 (ASCII unit separator, not
# white space: empty fields stay fields): index, operator, output tensor, kernel,
# MACs, instructions, MVE instructions, loop-end branches, modelled cycles (the last four
# empty when the module does not run it: an alias; cycles empty without the cycle model). Joins `tinyaot inspect --json --operators` (MACs),
# the module's layer comments (kernel chosen for the core, output tensor) and the
# measured layers (run_case.sh --layers). Fails when a layer and an operator the module
# runs do not pair up.
layer_rows() { # model core
  awk -v prefix="$1_" '
    function field(s, key,   v) {
      if (!match(s, "\"" key "\": (\"[^\"]*\"|[-0-9]+)")) return ""
      v = substr(s, RSTART + length(key) + 4, RLENGTH - length(key) - 4)
      gsub(/"/, "", v)
      return v
    }
    FILENAME == ARGV[1] && /^    \{"index": / {
      i = field($0, "index"); order[n++] = i
      name[i] = field($0, "name"); kernel[i] = field($0, "kernel"); macs[i] = field($0, "macs")
    }
    FILENAME == ARGV[2] && /^\/\* operator [0-9]+: / {
      op = $3; sub(/:$/, "", op)
      k = $0; sub(/.*, kernel /, "", k)
      if (index(k, prefix) == 1) k = substr(k, length(prefix) + 1)
      kernel[op] = k; runs[op] = 1; current = op
    }
    FILENAME == ARGV[2] && current != "" && /^ \*   out0 tensor / {
      t = $0; sub(/^ \*   out0 tensor [0-9]+ \047/, "", t); sub(/\047 [a-z0-9]+ \[.*$/, "", t)
      output[current] = t; current = ""
    }
    FILENAME == ARGV[3] { insns[$1] = $2; mve[$1] = $3; loop_ends[$1] = $4; cycles[$1] = $5; measured[$1] = 1 }
    END {
      for (op in measured) if (!(op in runs)) { print "layer of operator " op " has no operator" >"/dev/stderr"; exit 1 }
      for (op in runs) if (!(op in measured)) { print "operator " op " was not measured" >"/dev/stderr"; exit 1 }
      for (j = 0; j < n; j++) {
        i = order[j]
        printf "%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\037%s\n", i, name[i], output[i], kernel[i], macs[i], insns[i], mve[i], loop_ends[i], cycles[i]
      }
    }' "$work/$1.inspect.json" "$work/$2/$1/module/src/$1_model.c" "$work/$2/$1/layers.txt"
}

set_status() { # file status reason
  { grep -v -e '^status=' -e '^reason=' "$1"; echo "status=$2"; echo "reason=$3"; } >"$1.new" && mv "$1.new" "$1"
}

# Writes $work/<model>.<core>.layers and checks that the layers plus the instructions
# outside them are exactly the model's total (and the same for the cycles when timed).
check_layers() { # model core
  f="$work/$1.$2.txt"
  rows="$work/$1.$2.layers"
  if ! layer_rows "$1" "$2" >"$rows" 2>"$rows.err"; then
    set_status "$f" error "per-operator table: $(cat "$rows.err")"
    return
  fi
  inside=$(awk -F'\037' '{ s += $6 } END { printf "%.0f", s }' "$rows")
  outside=$(ta_get "$f" layers_outside)
  total=$(ta_get "$f" insns)
  if [ -z "$outside" ] || [ $((inside + outside)) -ne "${total:-0}" ]; then
    set_status "$f" error "layers ($inside) + outside them (${outside:-?}) != total (${total:-?}) instructions"
  fi
  [ -n "$cycles_arg" ] || return 0
  inside=$(awk -F'\037' '{ s += $9 } END { printf "%.0f", s }' "$rows")
  outside=$(ta_get "$f" layers_outside_cycles)
  total=$(ta_get "$f" cycles)
  if [ -z "$total" ] || [ -z "$outside" ] || [ $((inside + outside)) -ne "$total" ]; then
    set_status "$f" error "layers ($inside) + outside them (${outside:-?}) != total (${total:-?}) cycles"
  fi
}

for model in $models; do
  [ -f "$corpus/models/$model/model.tflite" ] || { echo "bench: no corpus model $model, skipped" >&2; continue; }
  "$build/tinyaot" inspect "$corpus/models/$model/model.tflite" --json --operators >"$work/$model.inspect.json" 2>/dev/null
  macs=$(sed -n 's/^  "macs": *\([0-9]*\).*/\1/p' "$work/$model.inspect.json" | head -n 1)
  echo "$model: ${macs:-?} MACs; converting, building and running on M4 and M55..."
  bench_one "$model" m4 &
  bench_one "$model" m55 &
  wait
  bench_max "$model" m4 &
  bench_max "$model" m55 &
  wait
  for core in m4 m55; do
    echo "macs=$macs" >>"$work/$model.$core.txt"
    [ -f "$work/$core/$model/layers.txt" ] && check_layers "$model" "$core"
    echo "  $core: $(ta_get "$work/$model.$core.txt" status) $(ta_get "$work/$model.$core.txt" insns) instructions, $(ta_get "$work/$model.$core.txt" cycles) cycles $(ta_get "$work/$model.$core.txt" reason)"
    x="$work/$model.$core.max.txt"
    echo "  $core max: $(ta_get "$x" status) $(ta_get "$x" insns) instructions, arenas $(ta_get "$x" arena_bytes) bytes $(ta_get "$x" reason)"
  done
done

# ---- the baseline (TFLM + CMSIS-NN on the same machines), when the shared copy is there ----
baseline="$corpus/../baselines/tflm_cmsisnn.md"
baseline_row() { # model CORE(M4|M55) -> "insns mve arena engine_code" without separators
  [ -f "$baseline" ] || return 0
  awk -F'|' -v m="$1" -v c="$2" '{ gsub(/[ ,]/, "", $2); gsub(/[ ,]/, "", $3) }
    $2 == m && $3 == c { for (i = 4; i <= 7; i++) gsub(/[ ,]/, "", $i); print $4, $5, $6, $7; exit }' "$baseline"
}

# ---- write results.json and results.md -------------------------------------------------------
sum() { # file key... -> the sum of the keys' values (missing = 0)
  f=$1; shift
  t=0
  for k in "$@"; do v=$(ta_get "$f" "$k"); t=$((t + ${v:-0})); done
  echo $t
}
group() { # 1234567 -> 1,234,567; nothing -> -
  if [ -z "$1" ]; then echo "-"; else echo "$1" | sed ':a;s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta'; fi
}
ratio4() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.4f", a / b; else printf "null" }'; }
ratio3() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else printf "null" }'; }
per_mac() { awk -v i="$1" -v m="$2" 'BEGIN { if (m > 0 && i > 0) printf "%.2f", i / m; else printf "null" }'; }
pct() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%+.1f %%", 100 * (a - b) / b; else printf "-" }'; }
jnum() { v=$(ta_get "$1" "$2"); echo "${v:-null}"; } # a figure, null when absent or empty
json_str() { printf '"%s"' "$(echo "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }

gcc_version=$(arm-none-eabi-gcc --version | head -n 1)
qemu_version=$(qemu-system-arm --version | head -n 1)
json="$outdir/results.json"
md="$outdir/results.md"
{
  echo "{"
  echo "  \"generated_by\": \"make bench (bench/bench.sh)\","
  echo "  \"compiler\": $(json_str "$gcc_version"),"
  echo "  \"qemu\": $(json_str "$qemu_version"),"
  echo "  \"cflags\": \"-O2 -ffunction-sections -fdata-sections, linked with --gc-sections\","
  echo "  \"cores\": {\"m4\": {\"machine\": \"mps2-an386\", \"flags\": \"-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb\"},"
  echo "            \"m55\": {\"machine\": \"mps3-an547\", \"flags\": \"-mcpu=cortex-m55 -mfloat-abi=hard -mthumb\"}},"
  if [ -n "$cycles_arg" ]; then
    echo "  \"cycles\": \"modelled by the QEMU plugin's timing model of the core (plugin argument core=m4|m55; docs/cycles.md for its rules, memory wait states and calibration error); not silicon\","
  else
    echo "  \"cycles\": null,"
  fi
  echo "  \"results\": ["
  first=1
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      [ -f "$f" ] || continue
      [ $first -eq 1 ] || echo ","
      first=0
      insns=$(ta_get "$f" insns)
      macs=$(ta_get "$f" macs)
      printf '    {"model": "%s", "core": "%s", "machine": "%s", "status": "%s", "reason": %s,\n' \
        "$model" "$core" "$(ta_get "$f" machine)" "$(ta_get "$f" status)" "$(json_str "$(ta_get "$f" reason)")"
      cyc=$(ta_get "$f" cycles)
      printf '     "macs": %s, "instructions": %s, "instructions_per_mac": %s, "cycles": %s, "cycles_per_mac": %s, "cycles_per_instruction": %s,\n' \
        "${macs:-null}" "${insns:-null}" "$(per_mac "${insns:-0}" "${macs:-0}")" "${cyc:-null}" "$(per_mac "${cyc:-0}" "${macs:-0}")" \
        "$(ratio3 "$cyc" "$insns")"
      printf '     "mve_instructions": %s, "loop_end_branches": %s,\n' "$(ta_get "$f" mve | sed 's/^$/null/')" \
        "$(ta_get "$f" loop_ends | sed 's/^$/null/')"
      printf '     "flash_bytes": {"model_code": %s, "model_constants": %s, "c_library": %s, "harness": %s, "case_inputs": %s},\n' \
        "$(sum "$f" section.text.model)" "$(sum "$f" section.rodata.model section.data.model)" \
        "$(sum "$f" section.text.libs section.rodata.libs section.data.libs section.ARM.exidx)" \
        "$(sum "$f" section.vectors section.text.harness section.rodata.harness section.data.harness)" \
        "$(sum "$f" section.rodata.case)"
      printf '     "ram_bytes": {"arenas": %s, "model_static": %s, "c_library_static": %s, "stack_peak": %s, "harness_static": %s},\n' \
        "$(ta_get "$f" arena_bytes | sed 's/^$/null/')" "$(sum "$f" section.data.model section.bss.model)" \
        "$(sum "$f" section.data.libs section.bss.libs)" "$(ta_get "$f" stack_peak_bytes | sed 's/^$/null/')" \
        "$(sum "$f" section.data.harness section.bss.harness)"
      printf '     "compile_ms": %s,\n' "$(ta_get "$f" convert_ms | sed 's/^$/null/')"
      x="$work/$model.$core.max.txt"
      xi=$(ta_get "$x" insns)
      xc=$(ta_get "$x" cycles)
      printf '     "max_mode": {"status": "%s", "reason": %s, "instructions": %s, "instructions_vs_default": %s, "cycles": %s, "cycles_vs_default": %s, "arenas": %s, "layer_by_layer_bound": %s}}' \
        "$(ta_get "$x" status)" "$(json_str "$(ta_get "$x" reason)")" "${xi:-null}" "$(ratio4 "$xi" "$insns")" \
        "${xc:-null}" "$(ratio4 "$xc" "$cyc")" \
        "$(ta_get "$x" arena_bytes | sed 's/^$/null/')" "$(ta_get "$x" layer_by_layer | sed 's/^$/null/')"
    done
  done
  echo ""
  echo "  ]"
  echo "}"
} >"$json"

{
  echo "# tinyaot on QEMU Cortex-M4 / Cortex-M55: MLPerf Tiny"
  echo
  echo "Generated by \`make bench\` with $gcc_version"
  echo "and $qemu_version."
  echo "Case 0 of each model; outputs checked byte-exact against the TFLM reference golden."
  echo "[README.md](README.md) says what each column counts; [results.json](results.json) has the same figures;"
  echo "[layers.md](layers.md) breaks the instructions down per operator."
  echo
  echo "Cycles are modelled, not measured on silicon: the QEMU plugin's timing model of each core"
  echo "(docs/cycles.md: its rules, the memory wait states assumed and its error against Apollo510)."
  echo
  echo "| model | core | MACs | instructions | instr/MAC | cycles | cycles/MAC | MVE instr | code B | C lib B | constants B | arenas B | static RAM B | stack B | RAM total B | compile ms | output |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      [ -f "$f" ] || continue
      st=$(ta_get "$f" status)
      insns=$(ta_get "$f" insns)
      macs=$(ta_get "$f" macs)
      mve="-"
      [ "$core" = m55 ] && mve=$(group "$(ta_get "$f" mve)")
      static=$(( $(sum "$f" section.data.model section.bss.model) + $(sum "$f" section.data.libs section.bss.libs) ))
      stack=$(ta_get "$f" stack_peak_bytes)
      out=$st
      [ "$st" = pass ] && out="exact"
      [ "$st" = pass ] || out="**$st**: $(ta_get "$f" reason)"
      if [ -z "$insns" ]; then # nothing was measured
        echo "| $model | $(echo "$core" | tr m M) | $(group "$macs") | - | - | - | - | - | - | - | - | - | - | - | - | - | $out |"
        continue
      fi
      cyc=$(ta_get "$f" cycles)
      echo "| $model | $(echo "$core" | tr m M) | $(group "$macs") | $(group "$insns") | $(per_mac "${insns:-0}" "${macs:-0}") | $(group "$cyc") | $(per_mac "${cyc:-0}" "${macs:-0}" | sed 's/null/-/') | $mve | $(group "$(sum "$f" section.text.model)") | $(group "$(sum "$f" section.text.libs section.rodata.libs section.data.libs section.ARM.exidx)") | $(group "$(sum "$f" section.rodata.model section.data.model)") | $(group "$(ta_get "$f" arena_bytes)") | $(group "$static") | $(group "$stack") | $(group $((static + ${stack:-0}))) | $(ta_get "$f" convert_ms) | $out |"
    done
  done
  echo
  echo "Also measured: the harness's own share (start-up, semihosting, measurement; in none of the"
  echo "figures above), and the low-overhead-loop end branches (LE/LETP) among the instructions."
  echo
  echo "| model | core | harness flash B | case inputs B | harness RAM B (excl. stack) | loop-end branches |"
  echo "|---|---|---:|---:|---:|---:|"
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      [ -n "$(ta_get "$f" insns)" ] || continue
      echo "| $model | $(echo "$core" | tr m M) | $(group "$(sum "$f" section.vectors section.text.harness section.rodata.harness section.data.harness)") | $(group "$(sum "$f" section.rodata.case)") | $(group "$(sum "$f" section.data.harness section.bss.harness)") | $(group "$(ta_get "$f" loop_ends)") |"
    done
  done
  echo
  echo "Activation memory, default mode (above) and \`--memory.optimize max\` (in-place execution with"
  echo "moves, patch-based execution; same case, outputs checked the same way): arenas of both modes,"
  echo "the layer-by-layer bound (whole tensors live at once), and the instructions max costs."
  echo
  echo "| model | core | arenas B default | arenas B max | layer-by-layer B | instr default | instr max | max vs default | cycles default | cycles max | max vs default | max output |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      x="$work/$model.$core.max.txt"
      [ -f "$x" ] || continue
      xs=$(ta_get "$x" status)
      xo=exact
      [ "$xs" = pass ] || xo="**$xs**: $(ta_get "$x" reason)"
      cost=$(pct "$(ta_get "$x" insns)" "$(ta_get "$f" insns)")
      ccost=$(pct "$(ta_get "$x" cycles)" "$(ta_get "$f" cycles)")
      echo "| $model | $(echo "$core" | tr m M) | $(group "$(ta_get "$f" arena_bytes)") | $(group "$(ta_get "$x" arena_bytes)") | $(group "$(ta_get "$x" layer_by_layer)") | $(group "$(ta_get "$f" insns)") | $(group "$(ta_get "$x" insns)") | $cost | $(group "$(ta_get "$f" cycles)") | $(group "$(ta_get "$x" cycles)") | $ccost | $xo |"
    done
  done
  if [ -f "$baseline" ]; then
    echo
    echo "Against TFLite Micro + CMSIS-NN on the same machines (shared/baselines/tflm_cmsisnn.md; its"
    echo "instruction counts are measured the same way, between markers around one Invoke()):"
    echo
    echo "| model | core | tinyaot instr | TFLM+CMSIS-NN instr | ratio | tinyaot MVE | TFLM MVE | tinyaot arenas B | TFLM arena B | tinyaot code+lib B | TFLM engine code B |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for model in $models; do
      for core in m4 m55; do
        f="$work/$model.$core.txt"
        [ -f "$f" ] || continue
        C=$(echo "$core" | tr m M)
        set -- $(baseline_row "$model" "$C")
        [ $# -eq 4 ] || continue
        insns=$(ta_get "$f" insns)
        ratio=$(awk -v a="${insns:-0}" -v b="$1" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "-" }')
        echo "| $model | $C | $(group "$insns") | $(group "$1") | $ratio | $(group "$(ta_get "$f" mve)") | $(group "$2") | $(group "$(ta_get "$f" arena_bytes)") | $(group "$3") | $(group $(( $(sum "$f" section.text.model) + $(sum "$f" section.text.libs section.rodata.libs section.data.libs section.ARM.exidx) ))) | $(group "$4") |"
      done
    done
  fi
  # a16w8 (int16 activations, int8 weights): against the int8 twin and TFLM + CMSIS-NN's a16w8
  more="$corpus/../baselines/tflm_cmsisnn_more.md"
  a16=""
  for model in $models; do case "$model" in *_a16w8) a16="$a16 $model" ;; esac; done
  if [ -n "$a16" ]; then
    echo
    echo "The a16w8 models (int16 activations, int8 weights, int64 biases) against their int8 twin"
    echo "above and against TFLite Micro + CMSIS-NN on the same a16w8 model (shared/baselines/tflm_cmsisnn_more.md):"
    echo
    echo "| model | core | a16w8 instr | int8 twin instr | vs int8 twin | TFLM+CMSIS-NN a16w8 instr | vs TFLM |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    for model in $a16; do
      for core in m4 m55; do
        f="$work/$model.$core.txt"
        [ -n "$(ta_get "$f" insns)" ] || continue
        C=$(echo "$core" | tr m M)
        insns=$(ta_get "$f" insns)
        twin=$(ta_get "$work/${model%_a16w8}.$core.txt" insns)
        tflm=""
        [ -f "$more" ] && tflm=$(awk -F'|' -v m="$model" -v c="$C" '{ gsub(/[ ,]/, "", $2); gsub(/[ ,]/, "", $3) }
          $2 == m && $3 == c { gsub(/[ ,]/, "", $5); print $5; exit }' "$more")
        ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "-" }'; }
        echo "| $model | $C | $(group "$insns") | $(group "$twin") | $(ratio "$insns" "$twin") | $(group "$tflm") | $(ratio "$insns" "$tflm") |"
      done
    done
  fi
} >"$md"

# ---- against the best published results (bench/README.md) -----------------------------------
# The published silicon figures (model|core|stack|part|cycles, a range as LOW-HIGH): MLPerf Tiny
# v1.2/v1.3 closed division on STM32L4R5 (Cortex-M4, 120 MHz), and Ambiq's documents for Apollo510.
published() {
  cat <<'PUB'
kws|m4|X-CUBE-AI 10.2 (MLPerf Tiny v1.2/v1.3)|STM32L4R5, Cortex-M4 at 120 MHz|5210000
vww|m4|X-CUBE-AI 10.2 (MLPerf Tiny v1.2/v1.3)|STM32L4R5, Cortex-M4 at 120 MHz|10730000
ic|m4|X-CUBE-AI 10.2 (MLPerf Tiny v1.2/v1.3)|STM32L4R5, Cortex-M4 at 120 MHz|19880000
ad|m4|X-CUBE-AI 10.2 (MLPerf Tiny v1.2/v1.3)|STM32L4R5, Cortex-M4 at 120 MHz|575000
ad|m4|Plumerai (MLPerf Tiny v1.2/v1.3)|STM32L4R5, Cortex-M4 at 120 MHz|486000
kws|m55|heliaRT (Ambiq)|Apollo510, Cortex-M55|2000000
kws|m55|heliaAOT (Ambiq)|Apollo510, Cortex-M55|1870000-1970000
PUB
}
millions() { awk -v c="$1" 'BEGIN { printf (c >= 1e6 ? "%.2f M" : "%.3f M"), c / 1e6 }'; }
published_table() {
  echo "| model | core | tinyaot modelled cycles | tinyaot cycles/MAC | published: stack | part | published cycles | published cycles/MAC | tinyaot / published |"
  echo "|---|---|---:|---:|---|---|---:|---:|---:|"
  published | while IFS='|' read -r model core stack part pc; do
    f="$work/$model.$core.txt"
    [ -f "$f" ] || continue
    cyc=$(ta_get "$f" cycles) macs=$(ta_get "$f" macs)
    lo=${pc%-*} hi=${pc#*-}
    if [ "$lo" = "$hi" ]; then
      pub=$(millions "$lo") ppm=$(per_mac "$lo" "$macs") ratio=$(awk -v a="${cyc:-0}" -v b="$lo" 'BEGIN { if (a > 0) printf "%.2fx", a / b; else printf "-" }')
    else
      pub="$(millions "$lo")–$(millions "$hi")" ppm="$(per_mac "$lo" "$macs")–$(per_mac "$hi" "$macs")"
      ratio=$(awk -v a="${cyc:-0}" -v l="$lo" -v h="$hi" 'BEGIN { if (a > 0) printf "%.2f–%.2fx", a / h, a / l; else printf "-" }')
    fi
    c=""; [ -n "$cyc" ] && c=$(millions "$cyc")
    echo "| $model | $(echo "$core" | tr m M) | ${c:--} | $(per_mac "${cyc:-0}" "$macs" | sed 's/null/-/') | $stack | $part | $pub | $ppm | $ratio |"
  done
}
# bench/README.md carries the table between its markers: rewritten from this run's figures
readme="$outdir/README.md"
if [ -f "$readme" ] && grep -q '^<!-- published-table:begin' "$readme"; then
  published_table >"$work/published.md"
  awk -v tbl="$work/published.md" '
    /^<!-- published-table:begin/ { print; while ((getline l < tbl) > 0) print l; skip = 1; next }
    /^<!-- published-table:end/ { skip = 0 }
    !skip' "$readme" >"$work/README.md" && cat "$work/README.md" >"$readme"
fi
{
  echo
  echo "Against the best published results (silicon; [README.md](README.md) says what each assumes):"
  echo
  published_table
} >>"$md"

# ---- write layers.json and layers.md ------------------------------------------------------
short_name() { # the first name of a fused tensor name, at most 48 characters, | escaped
  echo "$1" | awk '{ sub(/;.*/, ""); if (length($0) > 48) $0 = substr($0, 1, 45) "..."; gsub(/\|/, "\\|"); print }'
}
share() { awk -v i="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.1f %%", 100 * i / t; else printf "-" }'; }
ljson="$outdir/layers.json"
us=$(printf '\037')
lmd="$outdir/layers.md"
{
  echo "{"
  echo "  \"generated_by\": \"make bench (bench/bench.sh)\","
  echo "  \"counted\": \"instructions and modelled cycles (docs/cycles.md) of each operator in the measured run of case 0 (bench/README.md); outside_layers, outside_layers_cycles: the rest of <model>_model_run\","
  echo "  \"results\": ["
  first=1
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      rows="$work/$model.$core.layers"
      [ -s "$rows" ] || continue
      [ $first -eq 1 ] || echo ","
      first=0
      insns=$(ta_get "$f" insns)
      cyc=$(ta_get "$f" cycles)
      printf '    {"model": "%s", "core": "%s", "status": "%s", "macs": %s, "instructions": %s, "outside_layers": %s, "cycles": %s, "outside_layers_cycles": %s,\n' \
        "$model" "$core" "$(ta_get "$f" status)" "$(ta_get "$f" macs)" "$insns" "$(ta_get "$f" layers_outside)" \
        "${cyc:-null}" "$(jnum "$f" layers_outside_cycles)"
      echo '     "layers": ['
      sep=""
      while IFS="$us" read -r idx op output kernel macs li lmve lle lc; do
        printf '%s      {"index": %s, "operator": "%s", "output": %s, "kernel": "%s", "macs": %s, ' \
          "$sep" "$idx" "$op" "$(json_str "$output")" "$kernel" "${macs:-0}"
        if [ -n "$li" ]; then
          printf '"instructions": %s, "instructions_per_mac": %s, "cycles": %s, "cycles_per_mac": %s, "cycles_per_instruction": %s, ' \
            "$li" "$(per_mac "$li" "${macs:-0}")" "${lc:-null}" "$(per_mac "${lc:-0}" "${macs:-0}")" "$(ratio3 "$lc" "$li")"
          printf '"mve_instructions": %s, "loop_end_branches": %s, "share": %s, "cycle_share": %s}' \
            "$lmve" "$lle" "$(awk -v i="$li" -v t="$insns" 'BEGIN { printf "%.4f", i / t }')" "$(ratio4 "$lc" "$cyc")"
        else
          printf '"instructions": null, "cycles": null, "note": "not run: its output aliases its input"}'
        fi
        sep=",
"
      done <"$rows"
      printf '\n     ]}'
    done
  done
  echo ""
  echo "  ]"
  echo "}"
} >"$ljson"

{
  echo "# tinyaot per operator on QEMU Cortex-M4 / Cortex-M55: MLPerf Tiny"
  echo
  echo "Generated by \`make bench\` with the same builds and runs as [results.md](results.md): the"
  echo "instructions each operator executes in the measured inference of case 0 (its code in"
  echo "\`<model>_model_run\` and every kernel and library routine it calls), and the cycles the"
  echo "QEMU plugin's timing model gives them (modelled, not silicon: docs/cycles.md), attributed"
  echo "at the operator boundaries the module's operator callback reveals in a separate run of the same"
  echo "image ([README.md](README.md) explains how). *outside operators* is the rest of"
  echo "\`<model>_model_run\` (entry and return, the tests of the callback pointer around each"
  echo "operator, calls into the runners of interned operators); the operators plus it are exactly"
  echo "the model's instructions and cycles in results.md (checked). *share*: of the model's cycles"
  echo "(of its instructions when no cycles were modelled)."
  echo "MACs as \`tinyaot inspect\` counts them; kernel as the module names it for that core."
  echo "[layers.json](layers.json) has the same figures (and the loop-end branches)."
  for model in $models; do
    for core in m4 m55; do
      f="$work/$model.$core.txt"
      rows="$work/$model.$core.layers"
      [ -s "$rows" ] || continue
      insns=$(ta_get "$f" insns)
      cyc=$(ta_get "$f" cycles)
      macs=$(ta_get "$f" macs)
      C=$(echo "$core" | tr m M)
      echo
      echo "## $model on Cortex-$C: $(group "$insns") instructions, $(per_mac "$insns" "${macs:-0}") per MAC; $(group "$cyc") cycles, $(per_mac "${cyc:-0}" "${macs:-0}" | sed 's/null/-/') per MAC"
      if [ "$(ta_get "$f" status)" != pass ]; then echo; echo "**$(ta_get "$f" status)**: $(ta_get "$f" reason)"; fi
      echo
      mve_h="" mve_r=""
      [ "$core" = m55 ] && mve_h=" MVE instr |" mve_r="---:|"
      echo "| op | operator (output) | kernel | MACs | instructions | instr/MAC | cycles | cycles/MAC | cycles/instr |$mve_h share |"
      echo "|---:|---|---|---:|---:|---:|---:|---:|---:|$mve_r---:|"
      whole=${cyc:-$insns}
      while IFS="$us" read -r idx op output kernel macs_op li lmve lle lc; do
        name="$op"
        [ -n "$output" ] && name="$op ($(short_name "$output"))"
        if [ -z "$li" ]; then
          kernel="not run (output aliases its input)"
          cells="$(group "$macs_op") | - | - | - | - | -"
          [ "$core" = m55 ] && cells="$cells | -"
          echo "| $idx | $name | $kernel | $cells | - |"
          continue
        fi
        cells="$(group "$macs_op") | $(group "$li") | $(per_mac "$li" "${macs_op:-0}" | sed 's/null/-/')"
        cells="$cells | $(group "$lc") | $(per_mac "${lc:-0}" "${macs_op:-0}" | sed 's/null/-/') | $(ratio3 "$lc" "$li" | sed 's/null/-/')"
        [ "$core" = m55 ] && cells="$cells | $(group "$lmve")"
        echo "| $idx | $name | $kernel | $cells | $(share "${lc:-$li}" "$whole") |"
      done <"$rows"
      outside=$(ta_get "$f" layers_outside)
      oc=$(ta_get "$f" layers_outside_cycles)
      blank=""
      [ "$core" = m55 ] && blank=" |"
      echo "| | outside operators | | | $(group "$outside") | | $(group "$oc") | | |$blank $(share "${oc:-$outside}" "$whole") |"
      mve_t=""
      [ "$core" = m55 ] && mve_t=" $(group "$(ta_get "$f" mve)") |"
      echo "| | **total** | | $(group "$macs") | $(group "$insns") | $(per_mac "$insns" "${macs:-0}") | $(group "$cyc") | $(per_mac "${cyc:-0}" "${macs:-0}" | sed 's/null/-/') | $(ratio3 "$cyc" "$insns" | sed 's/null/-/') |$mve_t 100 % |"
    done
  done
} >"$lmd"

echo "wrote $md, $json, $lmd and $ljson"
bad=$(cat "$work"/*.txt 2>/dev/null | grep -c -E '^status=(mismatch|error)')
if [ "$bad" -eq 0 ] && [ -z "$KEEP" ]; then rm -rf "$work"; else echo "work directory: $work"; fi
[ "$bad" -eq 0 ]
