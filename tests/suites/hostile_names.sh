#!/bin/sh
# Names from the model end up in generated C comments, report.json and report.md: a tensor
# name holding a comment end, a nested comment, a trigraph, a backslash, quotes, a directive
# and control bytes must still give a module that compiles and runs exact, and valid JSON.
# kws with two tensor names replaced in place (same length) by such text.
# usage: sh tests/suites/hostile_names.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup hostile_names "$@" || { fail setup "no work folder"; exit 0; }
kws="$corpus/models/kws"
suite_require "$kws/model.tflite"
if ! python3 - "$kws/model.tflite" "$work/hostile.tflite" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
for old, new in [(b"functional_1/dense/BiasAdd", b'a*/ x;\n#error \x01"\\\t/*q??/'),
                 (b"functional_1/flatten/Reshape", b"// \r\nbad \x1b[31m */ \\u0000 '")]:
    new = new + b"_" * (len(old) - len(new))
    assert len(new) == len(old) and data.count(old) >= 1, old
    data = data.replace(old, new)
open(sys.argv[2], "wb").write(data)
PY
then
  fail rename "could not rename kws's tensors"
  exit 0
fi
if "$build/tinyaot" run "$work/hostile.tflite" --case "$kws/case_0" --out-dir "$work/run" >"$work/run.log" 2>&1 &&
  cmp -s "$work/run/case_0/out0.bin" "$kws/case_0/out0.bin"; then
  pass module_compiles_exact
else
  fail module_compiles_exact "$(grep -m1 -E 'error|differ' "$work/run.log")"
fi
if "$build/tinyaot" convert "$work/hostile.tflite" -o "$work/conv" >"$work/conv.log" 2>&1 &&
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/conv/report.json" 2>"$work/json.log"; then
  pass report_json_valid
else
  fail report_json_valid "$(tail -n 1 "$work/conv.log" "$work/json.log" | tr '\n' ' ')"
fi
