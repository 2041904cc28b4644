#!/bin/sh
# `make demo`: write the built-in demo model, convert it, build and run the module
# on this host, print the scores and the memory summary. No downloads.
set -eu
build=${1:-build}
work="$build/demo"
rm -rf "$work"
mkdir -p "$work"
"$build/demo_model" "$work/demo.tflite" "$work/input.bin"
echo "== tinyaot inspect"
"$build/tinyaot" inspect "$work/demo.tflite" | sed -n '1,8p'
echo "== tinyaot convert"
"$build/tinyaot" convert "$work/demo.tflite" -o "$work/module" --name demo
echo "== tinyaot run (host build of the module, one inference)"
"$build/tinyaot" run "$work/demo.tflite" --in "$work/input.bin" --out-dir "$work/out"
printf 'scores (int8, scale 1/256, zero point -128):'
od -An -v -t d1 "$work/out/out0.bin"
echo "== memory (from $work/module/report.md)"
sed -n '3p' "$work/module/report.md"
awk '/^## Arenas/{on=1; next} /^## /{on=0} on && /^\|/' "$work/module/report.md"
echo "module written to $work/module"
