#!/bin/sh
# `make cost-measure`: the measurements the cost model needs besides bench/layers.json.
# Runs bench/bench.sh twice into a scratch folder (never over bench/'s own results):
# once with every conversion at --opt size (the portable kernels' instructions per
# operator -> bench/cost/layers_portable.json), once as is (the tiers' link maps), and
# takes each runtime kernel family's code bytes per core from both runs' link maps
# (-> bench/cost/code_bytes.json). Then run `make cost-model` to refit the C table.
# With COST_MEASURE_CYCLES=1 only the first run is done, and its layers go to
# bench/cost/portable_cycles.json: the portable kernels' modelled cycles (docs/cycles.md) for
# the cycle formulas alone, leaving layers_portable.json and code_bytes.json, and so the
# instruction formulas and the tier choices they drive, as they are (`make cost-cycles`).
# usage: tools/cost_measure.sh BUILD_DIR CORPUS_DIR   (BENCH_MODELS as bench.sh; a few minutes)
set -e
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
corpus=${2:-../shared/corpus}
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
[ -x "$build/tinyaot" ] || { echo "cost_measure: $build/tinyaot is missing (run make first)" >&2; exit 1; }
tmp="${TMPDIR:-/tmp}/tinyaot-cost-$$"
mkdir -p "$tmp/portable"
# bench.sh runs BUILD/tinyaot: a folder whose tinyaot converts with --opt size
cat >"$tmp/portable/tinyaot" <<WRAP
#!/bin/sh
if [ "\$1" = convert ]; then shift; exec "$build/tinyaot" convert --opt size "\$@"; fi
exec "$build/tinyaot" "\$@"
WRAP
chmod +x "$tmp/portable/tinyaot"
[ -x "$build/compare" ] && ln -s "$build/compare" "$tmp/portable/compare"
run_bench() { # build out log -> prints the kept work directory
  KEEP=1 TMPDIR="$tmp" sh "$TA_ROOT/bench/bench.sh" "$1" "$corpus" "$2" >"$3" 2>&1 || true
  sed -n 's/^work directory: //p' "$3" | tail -n 1
}
echo "cost_measure: portable kernels (--opt size) under QEMU..."
work_port=$(run_bench "$tmp/portable" "$tmp/out-portable" "$tmp/portable.log")
if [ -n "$COST_MEASURE_CYCLES" ]; then
  [ -f "$tmp/out-portable/layers.json" ] || { echo "cost_measure: the bench run failed (log in $tmp)" >&2; exit 1; }
  grep -q '"cycles": [0-9]' "$tmp/out-portable/layers.json" ||
    { echo "cost_measure: the run has no cycles (the QEMU plugin has no cycle model)" >&2; exit 1; }
  mkdir -p "$TA_ROOT/bench/cost"
  cp "$tmp/out-portable/layers.json" "$TA_ROOT/bench/cost/portable_cycles.json"
  grep -h 'mismatch\|error' "$tmp/portable.log" || true
  rm -rf "$tmp"
  echo "cost_measure: wrote bench/cost/portable_cycles.json; now make cost-model"
  exit 0
fi
echo "cost_measure: DSP/MVE tiers (link maps)..."
work_fast=$(run_bench "$build" "$tmp/out-fast" "$tmp/fast.log")
[ -f "$tmp/out-portable/layers.json" ] && [ -n "$work_port" ] && [ -n "$work_fast" ] ||
  { echo "cost_measure: a bench run failed (logs in $tmp)" >&2; exit 1; }
mkdir -p "$TA_ROOT/bench/cost"
cp "$tmp/out-portable/layers.json" "$TA_ROOT/bench/cost/layers_portable.json"
python3 "$TA_ROOT/tools/cost_code_bytes.py" "$TA_ROOT/bench/cost/code_bytes.json" "$work_port" "$work_fast"
grep -h 'mismatch\|error' "$tmp/portable.log" "$tmp/fast.log" || true
rm -rf "$tmp"
echo "cost_measure: wrote bench/cost/layers_portable.json and bench/cost/code_bytes.json; now make cost-model"
