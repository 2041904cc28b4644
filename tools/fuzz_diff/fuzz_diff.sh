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
#   FUZZ_DIFF_REPRODUCE="B J"  only write graph J of file B (same seed and GRAPHS) as a case
#   FUZZ_DIFF_CFLAGS=F    $TINYAOT_RUN_CFLAGS for the module's host build (default -O1: the
#                         compile is most of the time; set it empty for tinyaot run's -O2)
#   FUZZ_DIFF_CHAINS=1    data-movement chains under the rewrites instead (issue 29:
#                         fuzz_diff_gen gen --chains; tests/suites/rewrite_chains.sh)
#   FUZZ_DIFF_RUN_ARGS=A  appended to every `tinyaot run` / `tinyaot convert` (a setting:
#                         "--memory.optimize max", "--no-slice-views --no-concat-views ...")
# Every mismatch (or refusal of a generated model) is rebuilt alone and written to
# DIR/cases/<name>/ in the corpus layout (model.tflite, case_0/in*.bin, case_0/out*.bin
# from the oracle, tinyaot_out/out*.bin, manifest.json); copy it to tests/diff_cases/
# to make it a regression case. Exit 0 when every graph matched, 1 otherwise.
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
tinyaot="$build/tinyaot"

for f in "$gen" "$tinyaot"; do
  [ -x "$f" ] || { echo "fuzz-diff: $f missing (make fuzz-diff builds it)" >&2; exit 2; }
done
[ -x "$oracle" ] || { echo "fuzz-diff: oracle $oracle missing" >&2; exit 2; }
mkdir -p "$out/cases" "$out/work"
rm -f "$out"/results.*
start=$(date +%s)

# in-args DIR: the --in arguments of DIR/case_0 in input order.
in_args() {
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do printf ' --in %s' "$1/case_0/in$n.bin"; n=$((n + 1)); done
}

# run_both DIR: oracle into DIR/ref, tinyaot into DIR/got; sets ref_ok / got_ok and the logs.
run_both() {
  rm -rf "$1/ref" "$1/got"
  # shellcheck disable=SC2046
  if "$oracle" "$1/model.tflite" $(in_args "$1") --out-dir "$1/ref" --quiet >"$1/ref.log" 2>&1; then ref_ok=1; else ref_ok=0; fi
  # shellcheck disable=SC2086
  if "$tinyaot" run "$1/model.tflite" --case "$1/case_0" --out-dir "$1/got" $run_args >"$1/got.log" 2>&1; then got_ok=1; else got_ok=0; fi
}

# reproduce BATCH GRAPH KIND: rebuild graph alone, check it again, write the case
# ($case, not $dir: check_batch removes its $dir when done).
reproduce() {
  name="s${seed}_b$1_g$2"
  case="$out/cases/$name"
  rm -rf "$case"
  "$gen" gen "$seed" "$1" "$graphs" "$case" --only "$2" $edges >/dev/null || return
  run_both "$case"
  verdict=$3
  if [ $ref_ok -eq 0 ]; then
    verdict="invalid ($(tail -n 1 "$case/ref.log" | sed 's/.*"status":"\([^"]*\)".*/\1/'))"
  elif [ $got_ok -eq 0 ]; then
    verdict="refused: $(grep -m1 error "$case/got.log")"
  elif cmp_out=$("$gen" compare "$case" "$case/ref" "$case/got/case_0"); then
    verdict="$3 (only together with other graphs)"
    [ "$3" = requested ] && verdict="equal to the reference alone"
  else
    verdict="mismatch: $(echo "$cmp_out" | head -n 1 | cut -d' ' -f3-)"
  fi
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
  "source": "fuzz-diff: fuzz_diff_gen gen $seed $1 $graphs DIR --only $2 $edges ($ops)${run_args:+, tinyaot run $run_args}",
  "reference": "TensorFlow Lite Micro reference kernels (tflm_ref), outputs in case_0; tinyaot's in tinyaot_out",
  "found": "$(echo "$verdict" | sed 's/["\\]/ /g')",
  "compare": "$compare",
  "tflm": ${info:-null}
}
EOF
  rm -rf "$case/ref" "$case/got" "$case/ref.log" "$case/got.log"
  echo "FOUND $name $verdict [$ops]"
}

# graph_ops DIR: the operators of DIR's first graph (for the log).
graph_ops() { cut -d' ' -f4 "$1/outputs.txt" | head -n 1; }

# check_batch B: one file of up to GRAPHS graphs; prints "RAN B n" and FOUND/INVALID lines.
check_batch() {
  dir="$out/work/b$1"
  rm -rf "$dir"
  made=$("$gen" gen "$seed" "$1" "$graphs" "$dir" $edges | sed -n 's/^graphs //p')
  [ -n "$made" ] || { echo "GENFAIL $1"; return; }
  skip=""
  run_both "$dir"
  if [ $ref_ok -eq 0 ]; then
    # the oracle refuses a graph: a generator bug; name it and check the others without it
    skip=""
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
    rm -rf "$dir/case_0" # the file loses the refused graphs' inputs
    made=$("$gen" gen "$seed" "$1" "$graphs" "$dir" --skip "${skip:-none}" $edges | sed -n 's/^graphs //p')
    run_both "$dir"
  fi
  if [ $ref_ok -eq 1 ] && [ $got_ok -eq 1 ]; then
    bad=$("$gen" compare "$dir" "$dir/ref" "$dir/got/case_0" | cut -d' ' -f2 | sort -un)
    for g in $bad; do reproduce "$1" "$g" "mismatch"; done
  elif [ $ref_ok -eq 1 ]; then
    # tinyaot refuses (or fails to build) the file: find the graph(s), each alone
    refused=0
    for g in $(cut -d' ' -f1 "$dir/outputs.txt" | sort -un); do
      sub="$dir/g$g"
      rm -rf "$sub"
      "$gen" gen "$seed" "$1" "$graphs" "$sub" --only "$g" $edges >/dev/null
      # shellcheck disable=SC2086
      if ! "$tinyaot" convert "$sub/model.tflite" -o "$sub/conv" $run_args >/dev/null 2>&1; then
        reproduce "$1" "$g" "refused"
        refused=1
      fi
    done
    [ $refused -eq 1 ] || echo "FOUND s${seed}_b$1 the file fails only as a whole: $(grep -m1 error "$dir/got.log")"
  else
    echo "BATCHFAIL $1 $(tail -n 1 "$dir/ref.log")"
    made=0 # nothing compared
  fi
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
grep -E '^(FOUND|INVALID|GENFAIL)' "$out/results.txt" | sort
echo "fuzz-diff: seed $seed: $ran graphs in $files models of up to $graphs graphs, $(( $(date +%s) - start )) s, $found mismatching or refused, $invalid invalid (generator), cases in $out/cases"
[ "$found" -eq 0 ] && [ "$invalid" -eq 0 ]
