#!/bin/sh
# Regenerates the README's measured tables from the runs that measure them, so they cannot
# go stale; --check only compares (exit 1 and a diff when the README is out of date).
# Each table sits between "<!-- table: NAME (tools/readme_tables.sh) -->" and "<!-- /table -->".
#   multi_model  KWS + IC + AD converted together with --shared-scratch on host, cortex-m4 and
#                cortex-m55: the group report.json's shared scratch, combined_arena_bytes,
#                separate_arena_bytes and each model's arena_bytes.
#   mlperf_memory  kws, vww, ic, ad, strww on the host: report.json's arena_bytes and
#                activation_lower_bound, the corpus manifest's tflm_arena_used_bytes_host64,
#                and arena_bytes again with --memory.optimize max.
# Both modes also check that the README's package paragraph ("Both first check ...") names
# every package tools/prereqs.sh checks for.
# usage: tools/readme_tables.sh [--check] [BUILD_DIR [CORPUS [README]]]   (make readme-tables)
set -eu
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
build=${1:-build}
corpus=${2:-../shared/corpus}
readme=${3:-README.md}
m="$corpus/models"
for f in kws ic ad vww strww; do
  [ -f "$m/$f/model.tflite" ] || { echo "readme_tables: $m/$f/model.tflite is absent" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-tables-XXXXXX")
trap 'rm -rf "$work"' EXIT

commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
field() { sed -n "s/.*\"$1\": \([0-9][0-9]*\).*/\1/p" "$2" | head -n 1; }

multi_model() {
  echo "| platform | shared scratch (B) | together (B) | three separate arenas (B) | saved |"
  echo "|---|---:|---:|---:|---:|"
  for p in host cortex-m4 cortex-m55; do
    "$build/tinyaot" convert "$m/kws/model.tflite" "$m/ic/model.tflite" "$m/ad/model.tflite" --shared-scratch \
      --platform "$p" -o "$work/$p" >"$work/$p.log" 2>&1 || { echo "readme_tables: $p: $(head -n 1 "$work/$p.log")" >&2; exit 1; }
    r="$work/$p/report.json"
    shared=$(field shared_scratch_bytes "$r") comb=$(field combined_arena_bytes "$r") sep=$(field separate_arena_bytes "$r")
    parts=$(sed -n 's/.*"name": "\(kws\|ic\|ad\)".*"arena_bytes": \([0-9]*\).*/\2/p' "$r" | while read -r b; do commas "$b"; done |
            paste -sd '+' - | sed 's/+/ + /g')
    echo "| $p | $(commas "$shared") | $(commas "$comb") | $(commas "$sep") ($parts) | $(( (100 * (sep - comb) + sep / 2) / sep )) % |"
  done
}

mlperf_memory() {
  echo "| model | tinyaot arena (B) | lower bound (B) | TFLM arena (B) | tinyaot / TFLM | \`--memory.optimize max\` (B) |"
  echo "|---|---:|---:|---:|---:|---:|"
  for n in kws vww ic ad strww; do
    for mode in default max; do
      "$build/tinyaot" convert "$m/$n/model.tflite" --memory.optimize "$mode" -o "$work/mm_${n}_$mode" \
        >"$work/mm.log" 2>&1 || { echo "readme_tables: $n ($mode): $(head -n 1 "$work/mm.log")" >&2; exit 1; }
    done
    arena=$(field arena_bytes "$work/mm_${n}_default/report.json")
    lb=$(field activation_lower_bound "$work/mm_${n}_default/report.json")
    max=$(field arena_bytes "$work/mm_${n}_max/report.json")
    tflm=$(field tflm_arena_used_bytes_host64 "$m/$n/manifest.json")
    ratio=$(awk -v a="$arena" -v t="$tflm" 'BEGIN { printf "%.2f", a / t }')
    echo "| $n | $(commas "$arena") | $(commas "$lb") | $(commas "$tflm") | $ratio | $(commas "$max") |"
  done
}

# replace NAME FILE IN: IN with table NAME's body replaced by FILE's lines
replace() {
  awk -v name="$1" -v body="$2" '
    index($0, "<!-- table: " name " ") == 1 { print; while ((getline line < body) > 0) print line; skip = 1; next }
    skip && $0 == "<!-- /table -->" { skip = 0 }
    !skip { print }' "$3"
}

here=$(cd "$(dirname "$0")" && pwd)
para=$(sed -n '/^Both first check the Debian packages/,/^$/p' "$readme")
for pkg in $(sh "$here/prereqs.sh" list test); do
  echo "$para" | grep -qw -- "$pkg" || { echo "readme_tables: $readme's package list lacks $pkg (tools/prereqs.sh)" >&2; exit 1; }
done

cp "$readme" "$work/README.new"
for t in multi_model mlperf_memory; do
  $t >"$work/$t.md"
  grep -q "^<!-- table: $t " "$readme" || { echo "readme_tables: $readme has no $t table marker" >&2; exit 2; }
  cp "$work/README.new" "$work/README.cur"
  replace "$t" "$work/$t.md" "$work/README.cur" >"$work/README.new"
done
if [ $check -eq 1 ]; then
  if cmp -s "$work/README.new" "$readme"; then echo "readme_tables: $readme is current"; exit 0; fi
  diff "$readme" "$work/README.new" || true
  echo "readme_tables: $readme is out of date: run make readme-tables" >&2
  exit 1
fi
cat "$work/README.new" >"$readme"
echo "readme_tables: $readme updated"
