#!/bin/sh
# The per-operator cost model of --opt speed under a memory budget (src/plan/search.c,
# trade_step): when the DSP/MVE tiers' re-laid weight tables do not fit a memory, the
# compiler keeps the operators that lose the fewest estimated instructions per byte freed (the
# cost model, src/plan/cost_choice.c; tests/suites/cost_model.sh checks the order) on the portable kernels
# until the constants fit, says so in report.json/report.md, and the module stays exact.
# The budgets are derived from this compiler's own figures (constants with every tier and
# with --opt size), not written in: half way between them must trade, below --opt size
# must fail with the over-budget message, --opt size must never trade.
# Then the traded module runs on QEMU Cortex-M4 and must give the golden outputs.
# usage: tests/run_budget_trade_tests.sh BUILD_DIR CORPUS_DIR   (one line per check)
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

build=${1:-build}
corpus=${2:-../shared/corpus}
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
work="${TMPDIR:-/tmp}/tinyaot-budget-$$"
model=vww
dir="$corpus/models/$model"
mkdir -p "$work"
failed=0
pass() { echo "PASS budget-trade:$1"; }
fail() { echo "FAIL budget-trade:$1"; failed=1; }

json_num() { # file key -> first integer value of "key"
  sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1
}
budget_config() { # bytes file
  printf 'memory:\n  constraints:\n    - {name: MRAM, max_size: %s}\n' "$1" >"$2"
}

if [ ! -f "$dir/model.tflite" ]; then
  echo "FAIL budget-trade: no model at $dir"
  exit 1
fi
tinyaot="$build/tinyaot"
"$tinyaot" convert "$dir/model.tflite" --platform cortex-m4 -o "$work/speed" >/dev/null 2>&1 || fail "convert speed"
"$tinyaot" convert "$dir/model.tflite" --platform cortex-m4 --opt size -o "$work/size" >/dev/null 2>&1 || fail "convert size"
fast=$(json_num "$work/speed/report.json" constant_bytes)
small=$(json_num "$work/size/report.json" constant_bytes)
if [ -z "$fast" ] || [ -z "$small" ] || [ "$fast" -le "$small" ]; then
  fail "the DSP tier should need more constant bytes than --opt size (speed '$fast', size '$small')"
  rm -rf "$work"
  exit 1
fi
pass "tiers-cost-bytes"

# Half way: some operators must go back to the portable kernels, and the rest fit.
mid=$(( (fast + small) / 2 ))
budget_config "$mid" "$work/mid.yaml"
if "$tinyaot" convert "$dir/model.tflite" --platform cortex-m4 --config "$work/mid.yaml" -o "$work/mid" >"$work/mid.log" 2>&1; then
  got=$(json_num "$work/mid/report.json" constant_bytes)
  traded=$(sed -n 's/.*"portable_for_budget": \[\([^]]*\)\].*/\1/p' "$work/mid/report.json")
  if [ -z "$traded" ]; then fail "trade: no operator listed in portable_for_budget"
  elif [ "$got" -gt "$mid" ]; then fail "trade: constants $got bytes over the budget $mid"
  elif ! grep -q "Kernel tiers traded for memory" "$work/mid/report.md"; then fail "trade: report.md does not say so"
  elif ! grep -q "keep the portable kernels" "$work/mid.log"; then fail "trade: convert does not say so"
  else pass "trade (operators $traded portable, constants $got <= $mid)"
  fi
else
  fail "trade: convert failed: $(head -n 1 "$work/mid.log")"
fi

# Below what even the portable kernels need: the usual over-budget error, nothing written.
low=$(( small / 2 ))
budget_config "$low" "$work/low.yaml"
if "$tinyaot" convert "$dir/model.tflite" --platform cortex-m4 --config "$work/low.yaml" -o "$work/low" >"$work/low.log" 2>&1; then
  fail "impossible budget accepted"
elif ! grep -q "memory MRAM over budget" "$work/low.log" || [ -e "$work/low" ]; then
  fail "impossible budget: wrong message or output written: $(head -n 1 "$work/low.log")"
else
  pass "impossible-budget"
fi

# --opt size never trades (it has nothing to trade) and fits the half-way budget as is.
if "$tinyaot" convert "$dir/model.tflite" --platform cortex-m4 --opt size --config "$work/mid.yaml" -o "$work/size_mid" >/dev/null 2>&1 &&
   grep -q '"portable_for_budget": \[\]' "$work/size_mid/report.json"; then
  pass "opt-size-no-trade"
else
  fail "opt-size-no-trade"
fi

# The traded module (DSP and portable kernels side by side) on QEMU Cortex-M4.
if ta_ensure_packages >/dev/null 2>&1 && [ -f "$work/mid/report.json" ]; then
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core m4 --name "$model" --model "$dir/model.tflite" --case "$dir/case_0" \
    --out "$work/qemu" --tinyaot "$tinyaot" --config "$work/mid.yaml" >"$work/qemu.log" 2>&1 || rc=$?
  compare="$build/compare"
  if [ $rc -ne 0 ]; then
    fail "m4-exact: run_case.sh exit $rc: $(tail -n 1 "$work/qemu.log")"
  elif ! grep -q "portable_for_budget\": \[[0-9]" "$work/qemu/module/report.json" 2>/dev/null; then
    fail "m4-exact: the module run on QEMU did not trade tiers"
  elif ! msg=$("$compare" exact "$dir/case_0/out0.bin" "$work/qemu/run/out0.bin" 2>&1); then
    fail "m4-exact: $msg"
  else
    pass "m4-exact"
  fi
else
  fail "m4-exact: cross tools missing (run as root to install them)"
fi

[ $failed -eq 0 ] && [ -z "$KEEP" ] && rm -rf "$work"
exit $failed
