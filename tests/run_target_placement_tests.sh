#!/bin/sh
# On-target placement tests: the MLPerf models KWS and VWW (case 0) on QEMU mps3-an547
# (Cortex-M55) under every configuration tests/placement/m55_*.yaml. run_case.sh --config
# turns the module's placement macros into section attributes that target/mps3-an547.ld
# maps to ITCM / DTCM / ISRAM / QSPI / DDR; each run must give the golden outputs
# (exact, or float32 within 1e-5*max(1,|b|) as the manifest says), and
# target/check_placement.sh must find every arena and constant image in the memory
# report.json gives it. One line per run: PASS / FAIL target-m55-placement:<config>:<model>.
# Missing cross tools are installed with apt-get when running as root; otherwise the
# script prints the install command and fails.
# usage: tests/run_target_placement_tests.sh BUILD_DIR CORPUS_DIR
#   KEEP=1 keeps the work directory; PLACEMENT_MODELS="kws" runs only those models.
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

build=${1:-build}
corpus=${2:-../shared/corpus}
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
work="${TMPDIR:-/tmp}/tinyaot-target-placement-$$"
models=${PLACEMENT_MODELS:-kws vww}

ta_ensure_packages || exit 1
if [ ! -x "$build/tinyaot" ]; then
  echo "error: $build/tinyaot is missing (run make first)" >&2
  exit 1
fi
mkdir -p "$work"
compare="$build/compare"
if [ ! -x "$compare" ]; then
  ${CC:-cc} -std=c11 -O1 "$TA_ROOT/tests/tools/compare.c" -o "$work/compare" -lm || exit 1
  compare="$work/compare"
fi
results="$work/results"
: >"$results"
say() { echo "$1"; echo "$1" >>"$results"; }

reason_of() { # first error-looking line of a log
  r=$(grep -m1 -i -E 'error|undefined|overflow' "$1" 2>/dev/null | sed 's/^tinyaot: error: [^:]*: //')
  [ -n "$r" ] || r=$(tail -n 2 "$1" 2>/dev/null | tr '\n' ' ')
  echo "$r"
}

run_one() { # config.yaml model
  cfg=$1 model=$2
  c=$(basename "$cfg" .yaml)
  label="target-m55-placement:$c:$model"
  dir="$corpus/models/$model"
  out="$work/$c/$model"
  if [ ! -f "$dir/model.tflite" ]; then
    echo "FAIL $label: no model at $dir"
    return
  fi
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core m55 --name "$model" --model "$dir/model.tflite" --case "$dir/case_0" \
    --out "$out" --tinyaot "$build/tinyaot" --config "$cfg" >"$work/$c.$model.log" 2>&1 || rc=$?
  case $rc in
    0) ;;
    10) echo "FAIL $label: convert: $(reason_of "$out/convert.log")"; return ;;
    11) echo "FAIL $label: module build: $(reason_of "$out/build.log")"; return ;;
    12) echo "FAIL $label: link: $(reason_of "$out/link.log")"; return ;;
    13) echo "FAIL $label: QEMU: exit $(cat "$out/run/exit_code") $(grep -m1 -E 'harness|error' "$out/run/qemu.log")"; return ;;
    *) echo "FAIL $label: run_case.sh exit $rc: $(tail -n 1 "$work/$c.$model.log")"; return ;;
  esac
  mode=exact
  grep -q '"compare": *"float32' "$dir/manifest.json" && mode=float32
  for g in "$dir"/case_0/out*.bin; do
    if ! msg=$("$compare" "$mode" "$g" "$out/run/$(basename "$g")" 2>&1); then
      echo "FAIL $label: $(basename "$g"): $msg"
      return
    fi
  done
  if ! msg=$(sh "$TA_ROOT/target/check_placement.sh" "$out" "$model" 2>&1); then
    echo "FAIL $label: $(echo "$msg" | head -n 1)"
    return
  fi
  echo "PASS $label"
  [ -n "$KEEP" ] || rm -rf "$out"
}

found=0
for cfg in "$TA_ROOT"/tests/placement/m55_*.yaml; do
  [ -f "$cfg" ] || continue
  found=1
  # the models of one config in parallel (this machine has two cores)
  for model in $models; do run_one "$cfg" "$model" >"$work/line.$model" & done
  wait
  for model in $models; do say "$(cat "$work/line.$model")"; done
done
[ "$found" -eq 1 ] || say "FAIL target-m55-placement: no tests/placement/m55_*.yaml"

passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
echo "target placement: $passed passed, $failed failed"
if [ "$failed" -eq 0 ] && [ -z "$KEEP" ]; then
  rm -rf "$work"
elif [ "$failed" -ne 0 ] || [ -n "$KEEP" ]; then
  echo "work directory kept: $work"
fi
[ "$failed" -eq 0 ]
