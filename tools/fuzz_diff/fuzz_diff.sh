#!/bin/sh
# make fuzz-diff: differential fuzzing of `tinyaot run` against TensorFlow Lite Micro's
# reference kernels (issue 16 item 3; docs/robustness.md, "Differential fuzzing").
# usage: tools/fuzz_diff/fuzz_diff.sh BUILD [ORACLE]
# Environment:
#   FUZZ_DIFF_MODELS=N    random graphs to check (default 1000), GRAPHS per .tflite file
#   FUZZ_DIFF_SECONDS=S   stop starting new files after S seconds (default 0: no limit)
#   FUZZ_DIFF_SEED=S      seed (default 1): the same seed checks the same models
#   FUZZ_DIFF_GRAPHS=G    independent graphs per .tflite file, one compile each (default 40;
#                         fewer when their inputs would exceed the 64 `tinyaot run` takes)
#   FUZZ_DIFF_JOBS=J      parallel workers (default 2)
#   FUZZ_DIFF_OUT=DIR     work and findings (default BUILD/fuzz_diff)
#   FUZZ_DIFF_EDGES=1     extreme zero points, scales and input values more often
#   FUZZ_DIFF_TIERS=1     CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED 4x as often, with tier
#                         channel counts, edge zero points and per-tensor weights more often
#   FUZZ_DIFF_REPRODUCE="B J"  only write graph J of file B (same seed and GRAPHS) as a case
#   FUZZ_DIFF_CFLAGS=F    $TINYAOT_RUN_CFLAGS for the module's host build (default -O1: the
#                         compile is most of the time; set it empty for tinyaot run's -O2)
#   FUZZ_DIFF_CHAINS=1    data-movement chains under the rewrites instead (issue 29:
#                         fuzz_diff_gen gen --chains; tests/suites/rewrite_chains.sh)
#   FUZZ_DIFF_RUN_ARGS=A  appended to every `tinyaot run` / `tinyaot convert` (a setting:
#                         "--memory.optimize max", "--no-slice-views --no-concat-views ...")
#   FUZZ_DIFF_TARGET=T    where tinyaot's module runs (issue 29): host (default: `tinyaot run`),
#                         m4 or m55 (target/run_case.sh: converted for cortex-m4 / cortex-m55,
#                         so with the DSP / MVE kernel tiers, built at -O2, run on QEMU
#                         mps2-an386 / mps3-an547), or several ("host m4 m55"): the same
#                         graphs on each, in BUILD/fuzz_diff/<target>/, then a check that the
#                         targets agree on every graph's verdict
# Every mismatch (or refusal of a generated model) is rebuilt alone and written to
# DIR/cases/<name>/ in the corpus layout (model.tflite, case_0/in*.bin, case_0/out*.bin
# from the oracle, tinyaot_out/out*.bin, manifest.json); copy it to tests/diff_cases/
# to make it a regression case; a target's cases are named <name>_<target> and their manifest
# says the core. Per target it prints graphs, exact, wrong (a value differs), refused (tinyaot
# convert refuses the graph), crashed (module build, link, init or run failed, a fault or a
# timeout on QEMU). Exit 0 when every graph matched, 1 otherwise.
build=${1:-build}
oracle=${2:-${FUZZ_DIFF_ORACLE:-../shared/oracle/tflm_ref}}
models=${FUZZ_DIFF_MODELS:-1000}
seconds=${FUZZ_DIFF_SECONDS:-0}
seed=${FUZZ_DIFF_SEED:-1}
graphs=${FUZZ_DIFF_GRAPHS:-40}
TINYAOT_RUN_CFLAGS=${FUZZ_DIFF_CFLAGS--O1}
export TINYAOT_RUN_CFLAGS
jobs=${FUZZ_DIFF_JOBS:-2}
out=${FUZZ_DIFF_OUT:-$build/fuzz_diff}
gen="$build/fuzz_diff_gen"
edges=""
[ -n "${FUZZ_DIFF_EDGES:-}" ] && edges=--edges
# issue 29: the chains mode rides on $edges, which every generator call passes on
[ -n "${FUZZ_DIFF_CHAINS:-}" ] && edges="$edges --chains"
run_args=${FUZZ_DIFF_RUN_ARGS:-}
[ -n "${FUZZ_DIFF_TIERS:-}" ] && edges="$edges --tiers" # (passed to every gen call with --edges)
tinyaot="$build/tinyaot"
target=$(echo "${FUZZ_DIFF_TARGET:-host}" | tr ',' ' ')
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# on a target, FUZZ_DIFF_RUN_ARGS reach the conversion through a wrapper (run_case.sh takes a compiler)
target_tinyaot="$tinyaot"

for f in "$gen" "$tinyaot"; do
  [ -x "$f" ] || { echo "fuzz-diff: $f missing (make fuzz-diff builds it)" >&2; exit 2; }
done
[ -x "$oracle" ] || { echo "fuzz-diff: oracle $oracle missing" >&2; exit 2; }
# ---- targets (issue 29) ------------------------------------------------------------------
for t in $target; do
  case "$t" in
    host) ;;
    m4|m55) command -v qemu-system-arm >/dev/null 2>&1 && command -v arm-none-eabi-gcc >/dev/null 2>&1 ||
              { echo "fuzz-diff: $t needs gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm" >&2; exit 2; } ;;
    *) echo "fuzz-diff: FUZZ_DIFF_TARGET: host, m4 or m55, not $t" >&2; exit 2 ;;
  esac
done
case "$target" in
  *" "*) # several targets: the same graphs on each, then their verdicts side by side
    rc=0
    for t in $target; do
      mkdir -p "$out/$t"
      FUZZ_DIFF_TARGET=$t FUZZ_DIFF_OUT="$out/$t" sh "$0" "$build" "$oracle" >"$out/$t.log" 2>&1 || rc=1
      mv "$out/$t.log" "$out/$t/log.txt"
      grep -E '^(FOUND|INVALID|GENFAIL|BATCHFAIL|DISAGREE)' "$out/$t/log.txt" | sed "s/^/[$t] /"
    done
    # batches every target finished; a graph's verdict (exact, wrong, refused, crashed) must be
    # the same on each (a graph the oracle refuses is left out on all alike)
    common=""
    for t in $target; do
      b=$(awk '$1 == "RAN" { print $2 }' "$out/$t/results.txt" | sort -n)
      if [ -z "$common" ]; then common=$b; else common=$(printf '%s\n%s\n' "$common" "$b" | sort -n | uniq -d); fi
    done
    first=${target%% *}
    disagree=0
    for t in $target; do
      [ "$t" = "$first" ] && continue
      for b in $common; do
        v1=$(awk -v b="$b" '$1 == "VERDICT" && $2 == b { print $3, $4 }' "$out/$first/results.txt" | sort)
        v2=$(awk -v b="$b" '$1 == "VERDICT" && $2 == b { print $3, $4 }' "$out/$t/results.txt" | sort)
        if [ "$v1" != "$v2" ]; then
          echo "DISAGREE file $b: $first [$(echo "$v1" | tr '\n' ' ')] $t [$(echo "$v2" | tr '\n' ' ')]"
          disagree=$((disagree + 1))
        fi
      done
    done
    for t in $target; do tail -n 1 "$out/$t/log.txt"; done
    echo "fuzz-diff: targets $target: $(echo "$common" | grep -c .) files on all, $disagree with verdicts differing between targets"
    [ $rc -eq 0 ] && [ $disagree -eq 0 ]
    exit ;;
esac
mkdir -p "$out/cases" "$out/work"
rm -f "$out"/results.*
if [ -n "$run_args" ] && [ "$target" != host ]; then
  target_tinyaot="$out/work/tinyaot_args"
  printf '#!/bin/sh\nexec "%s" "$@" %s\n' "$tinyaot" "$run_args" >"$target_tinyaot"
  chmod +x "$target_tinyaot"
fi
start=$(date +%s)

# in-args DIR: the --in arguments of DIR/case_0 in input order.
in_args() {
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do printf ' --in %s' "$1/case_0/in$n.bin"; n=$((n + 1)); done
}

# run_ref DIR: oracle into DIR/ref; sets ref_ok.
run_ref() {
  rm -rf "$1/ref"
  # shellcheck disable=SC2046
  if "$oracle" "$1/model.tflite" $(in_args "$1") --out-dir "$1/ref" --quiet >"$1/ref.log" 2>&1; then ref_ok=1; else ref_ok=0; fi
}

# run_got DIR: tinyaot's module on the target into DIR/got/case_0 (log DIR/got.log); sets got_ok.
run_got() {
  rm -rf "$1/got"
  if [ "$target" = host ]; then
    # shellcheck disable=SC2086
    if "$tinyaot" run "$1/model.tflite" --case "$1/case_0" --out-dir "$1/got" $run_args >"$1/got.log" 2>&1; then got_ok=1; else got_ok=0; fi
    return
  fi
  # QEMU: convert for the core (its tiers), build the module at -O2, link with the case, run
  got_rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$target" --name fz --model "$1/model.tflite" --case "$1/case_0" \
    --out "$1/qemu" --tinyaot "$target_tinyaot" --timeout 120 >"$1/got.log" 2>&1 || got_rc=$?
  got_ok=0
  case $got_rc in
    0) got_ok=1; mkdir -p "$1/got/case_0"; cp "$1"/qemu/run/out*.bin "$1/got/case_0/" 2>/dev/null ;;
    10) echo "error: convert failed: $(grep -m1 -i error "$1/qemu/convert.log" || tail -n 1 "$1/qemu/convert.log")" >>"$1/got.log" ;;
    11) echo "error: module build failed: $(grep -m1 'error:' "$1/qemu/build.log" || tail -n 1 "$1/qemu/build.log")" >>"$1/got.log" ;;
    12) echo "error: link failed: $(grep -m1 -i -E 'error|overflow|undefined' "$1/qemu/link.log")" >>"$1/got.log" ;;
    13) echo "error: QEMU run failed: harness exit $(cat "$1/qemu/run/exit_code" 2>/dev/null) (124: timeout; 64+n: exception n; 2/3: init/run status) $(grep -m1 -i -E 'fault|harness|error' "$1/qemu/run/qemu.log")" >>"$1/got.log" ;;
    *) echo "error: run_case.sh exit $got_rc" >>"$1/got.log" ;;
  esac
  rm -rf "$1/qemu"
}

# converts DIR: tinyaot converts DIR/model.tflite for the target (else it refuses it).
converts() {
  platform=""
  [ "$target" = host ] || platform="--platform cortex-$target"
  # shellcheck disable=SC2086
  "$tinyaot" convert "$1/model.tflite" -o "$1/conv" $platform $run_args >"$1/conv.log" 2>&1
}

# run_both DIR: oracle into DIR/ref, tinyaot into DIR/got; sets ref_ok / got_ok and the logs.
run_both() {
  run_ref "$1"
  run_got "$1"
}

# reproduce BATCH GRAPH KIND: rebuild graph alone, check it again, write the case
# ($case, not $dir: check_batch removes its $dir when done). KIND: mismatch, refused, crashed
# or requested; prints "VERDICT BATCH GRAPH wrong|refused|crashed" for the counts.
reproduce() {
  name="s${seed}_b$1_g$2"
  [ "$target" = host ] || name="${name}_$target"
  case="$out/cases/$name"
  rm -rf "$case"
  case $3 in
    mismatch) echo "VERDICT $1 $2 wrong" ;;
    refused|crashed) echo "VERDICT $1 $2 $3" ;;
  esac
  "$gen" gen "$seed" "$1" "$graphs" "$case" --only "$2" $edges >/dev/null || return
  run_both "$case"
  verdict=$3
  if [ $ref_ok -eq 0 ]; then
    verdict="invalid ($(tail -n 1 "$case/ref.log" | sed 's/.*"status":"\([^"]*\)".*/\1/'))"
  elif [ $got_ok -eq 0 ]; then
    if converts "$case"; then verdict="crashed: $(grep -m1 error "$case/got.log")"
    else verdict="refused: $(grep -m1 error "$case/conv.log")"; fi
  elif cmp_out=$("$gen" compare "$case" "$case/ref" "$case/got/case_0"); then
    verdict="$3 (only together with other graphs)"
    [ "$3" = requested ] && verdict="equal to the reference alone"
  else
    verdict="mismatch: $(echo "$cmp_out" | head -n 1 | cut -d' ' -f3-)"
  fi
  where=""
  case "$target" in
    m4) where="on Cortex-M4 (QEMU mps2-an386, --platform cortex-m4, DSP tier): " ;;
    m55) where="on Cortex-M55 (QEMU mps3-an547, --platform cortex-m55, MVE tier): " ;;
  esac
  mkdir -p "$case/tinyaot_out"
  [ -d "$case/ref" ] && cp "$case"/ref/out*.bin "$case/case_0/" 2>/dev/null
  [ -d "$case/got/case_0" ] && cp "$case"/got/case_0/out*.bin "$case/tinyaot_out/" 2>/dev/null
  compare=exact
  grep -q ' exact ' "$case/outputs.txt" || compare=float32
  info=$("$oracle" "$case/model.tflite" --info --quiet 2>/dev/null | tail -n 1)
  ops=$(cut -d' ' -f4 "$case/outputs.txt" | head -n 1)
  cat >"$case/manifest.json" <<EOF
{
  "name": "$name",
  "source": "fuzz-diff: fuzz_diff_gen gen $seed $1 $graphs DIR --only $2 $edges ($ops)${run_args:+, tinyaot $run_args}",
  "target": "$target",
  "reference": "TensorFlow Lite Micro reference kernels (tflm_ref), outputs in case_0; tinyaot's in tinyaot_out",
  "found": "$(echo "$where$verdict" | sed 's/["\\]/ /g')",
  "compare": "$compare",
  "tflm": ${info:-null}
}
EOF
  rm -rf "$case/ref" "$case/got" "$case/ref.log" "$case/got.log" "$case/conv" "$case/conv.log"
  echo "FOUND $name $where$verdict [$ops]"
}

# graph_ops DIR: the operators of DIR's first graph (for the log).
graph_ops() { cut -d' ' -f4 "$1/outputs.txt" | head -n 1; }

# regen B DIR SKIP: file B without the graphs of SKIP (comma list) into DIR; sets made.
regen() {
  rm -rf "$2"
  made=$("$gen" gen "$seed" "$1" "$graphs" "$2" --skip "${3:-none}" $edges | sed -n 's/^graphs //p')
}

# check_batch B: one file of up to GRAPHS graphs; prints "RAN B n", VERDICT, FOUND and
# INVALID lines. A file tinyaot fails on is split: graphs it refuses (convert alone), then
# graphs that fail alone (crashed) are written as cases and the file is checked without them.
check_batch() {
  dir="$out/work/b$1"
  rm -rf "$dir"
  made=$("$gen" gen "$seed" "$1" "$graphs" "$dir" $edges | sed -n 's/^graphs //p')
  [ -n "$made" ] || { echo "GENFAIL $1"; return; }
  skip=""
  run_ref "$dir"
  if [ $ref_ok -eq 0 ]; then
    # the oracle refuses a graph: a generator bug; name it and check the others without it
    g=0
    while [ $g -lt "$made" ]; do
      sub="$dir/g$g"
      "$gen" gen "$seed" "$1" "$graphs" "$sub" --only $g $edges >/dev/null
      # shellcheck disable=SC2046
      if ! "$oracle" "$sub/model.tflite" $(in_args "$sub") --out-dir "$sub/ref" --quiet >"$sub/ref.log" 2>&1; then
        echo "INVALID s${seed}_b$1_g$g $(tail -n 1 "$sub/ref.log" | sed 's/.*"status":"\([^"]*\)".*/\1/') [$(graph_ops "$sub")]"
        skip="$skip$g,"
      fi
      g=$((g + 1))
    done
    regen "$1" "$dir" "$skip" # a fresh directory: the file loses the refused graphs' inputs
    run_ref "$dir"
  fi
  if [ $ref_ok -eq 0 ]; then
    echo "BATCHFAIL $1 $(tail -n 1 "$dir/ref.log")"
    echo "RAN $1 0"
    rm -rf "$dir"
    made=0 # nothing compared
    return
  fi
  run_got "$dir"
  failed=0 phase=0
  while [ $got_ok -eq 0 ]; do
    # tinyaot fails on the file: phase 1 finds the graphs it refuses, phase 2 those failing alone
    phase=$((phase + 1))
    if [ $phase -gt 2 ]; then
      echo "FOUND s${seed}_b$1 the file fails only as a whole on $target: $(grep -m1 error "$dir/got.log")"
      for g in $(cut -d' ' -f1 "$dir/outputs.txt" | sort -un); do echo "VERDICT $1 $g crashed"; done
      made=$((made + failed))
      echo "RAN $1 $made"
      rm -rf "$dir"
      return
    fi
    for g in $(cut -d' ' -f1 "$dir/outputs.txt" | sort -un); do
      sub="$out/work/b$1_g$g"
      rm -rf "$sub"
      "$gen" gen "$seed" "$1" "$graphs" "$sub" --only "$g" $edges >/dev/null
      if [ $phase -eq 1 ]; then
        if converts "$sub"; then rm -rf "$sub"; continue; fi
        reproduce "$1" "$g" refused
      else
        run_got "$sub"
        if [ $got_ok -eq 1 ]; then rm -rf "$sub"; continue; fi
        reproduce "$1" "$g" crashed
      fi
      rm -rf "$sub"
      skip="$skip$g,"
      failed=$((failed + 1))
    done
    regen "$1" "$dir" "$skip"
    if [ "${made:-0}" -eq 0 ]; then # every graph refused or crashed: nothing left to compare
      echo "RAN $1 $failed"
      made=$failed
      rm -rf "$dir"
      return
    fi
    run_ref "$dir"
    run_got "$dir"
  done
  bad=$("$gen" compare "$dir" "$dir/ref" "$dir/got/case_0" | cut -d' ' -f2 | sort -un)
  for g in $bad; do reproduce "$1" "$g" "mismatch"; done
  made=$((made + failed)) # graphs checked (the worker's count)
  echo "RAN $1 $made"
  rm -rf "$dir"
}

# worker W: files W, W+JOBS, ... until its share of FUZZ_DIFF_MODELS graphs is checked.
worker() {
  b=$1
  quota=$(( (models + jobs - 1 - $1) / jobs ))
  done_graphs=0
  while [ "$done_graphs" -lt "$quota" ]; do
    if [ "$seconds" -gt 0 ] && [ $(( $(date +%s) - start )) -ge "$seconds" ]; then break; fi
    check_batch "$b"
    done_graphs=$((done_graphs + ${made:-0}))
    [ -n "$made" ] || break
    b=$((b + jobs))
  done
}

if [ -n "${FUZZ_DIFF_REPRODUCE:-}" ]; then # "B J": write graph J of file B as a case
  # shellcheck disable=SC2086
  reproduce $FUZZ_DIFF_REPRODUCE "requested"
  exit 0
fi

w=0
while [ $w -lt "$jobs" ]; do
  worker $w >"$out/results.$w" 2>&1 &
  w=$((w + 1))
done
wait
cat "$out"/results.* >"$out/results.txt"
ran=$(awk '$1 == "RAN" { n += $3 } END { print n + 0 }' "$out/results.txt")
files=$(grep -c '^RAN' "$out/results.txt")
found=$(grep -c '^FOUND' "$out/results.txt")
invalid=$(grep -c -E '^(INVALID|BATCHFAIL|GENFAIL)' "$out/results.txt")
wrong=$(awk '$1 == "VERDICT" && $4 == "wrong"' "$out/results.txt" | wc -l)
refused=$(awk '$1 == "VERDICT" && $4 == "refused"' "$out/results.txt" | wc -l)
crashed=$(awk '$1 == "VERDICT" && $4 == "crashed"' "$out/results.txt" | wc -l)
grep -E '^(FOUND|INVALID|GENFAIL|BATCHFAIL)' "$out/results.txt" | sort
echo "fuzz-diff: seed $seed: $ran graphs in $files models of up to $graphs graphs on $target, $(( $(date +%s) - start )) s: $((ran - wrong - refused - crashed)) exact, $wrong wrong, $refused refused, $crashed crashed; $found mismatching or refused, $invalid invalid (generator), cases in $out/cases"
[ "$found" -eq 0 ] && [ "$invalid" -eq 0 ]
