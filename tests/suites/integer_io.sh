#!/bin/sh
# --integer-io (issue 17; src/transform/integer_io.c, docs/memory.md "Integer model I/O"):
# a float input whose only reader is a QUANTIZE becomes that integer tensor, a float output
# made by a DEQUANTIZE its integer input. The application side is
# tests/suites/integer_io_quant.py: it quantizes the corpus's float inputs with TFLite's
# formula (x / scale in float32, half away from zero, clamped) and re-quantizes the golden
# float outputs (exactly invertible: each is an integer times the scale).
# - help documents the option; without it mcunet_det keeps its float I/O and no
#   "integer_io" report; an all-integer model (kws) is unchanged by it (same module files);
# - mcunet_det and mcunet_vww with it: report.json "integer_io" names input 0 and every
#   output, the header's I/O tables give the int8 tensors with the report's scale and zero
#   point; exact on every corpus case in max mode (and case 0 in the default mode);
# - max-mode arenas: mcunet_det <= 168,512 bytes (half its 337,024 before the PAD folds,
#   issue 17) and patched, mcunet_vww <= 64,000 (its stretch target); both below max mode
#   without the option;
# - mcunet_det in max mode with the option on QEMU Cortex-M55, case 0 exact (SKIP without
#   the cross tools).
# usage: sh tests/suites/integer_io.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup integer_io "$@" || { fail setup "no work folder"; exit 0; }
q="$TA_ROOT/tests/suites/integer_io_quant.py"

json_num() { # FILE KEY: the first integer value of "KEY"
  sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1
}

if "$build/tinyaot" convert --help 2>&1 | grep -q -- "--integer-io"; then pass help; else fail help "convert --help does not document --integer-io"; fi

if [ ! -d "$corpus/models/mcunet_det" ] || [ ! -d "$corpus/models/mcunet_vww" ] || [ ! -d "$corpus/models/kws" ]; then
  skip models "corpus absent ($corpus)"
  exit 0
fi

# convert MODEL OUT [options]: converts, "" on success, else the last line of the log
convert() {
  cm=$1 co=$2
  shift 2
  "$build/tinyaot" convert "$corpus/models/$cm/model.tflite" -o "$co" "$@" >"$co.log" 2>&1 || tail -n 1 "$co.log"
}

# off: float I/O as in the file
why=$(convert mcunet_det "$work/det_off" --memory.optimize max)
if [ -n "$why" ]; then fail off "convert failed: $why"
elif grep -q '"integer_io"' "$work/det_off/report.json"; then fail off "report.json has integer_io without the option"
elif ! grep -A1 'mcunet_det_input_info\[' "$work/det_off/src/mcunet_det_model.c" | grep -q DTYPE_FLOAT32; then
  fail off "input 0 is not float32 without the option"
else pass off; fi
det_off_arena=$(json_num "$work/det_off/report.json" arena_bytes)

# an all-integer model: nothing to change, same module
why=$(convert kws "$work/kws_off")$(convert kws "$work/kws_on" --integer-io)
if [ -n "$why" ]; then fail kws_unchanged "convert failed: $why"
elif ! diff -r -x .tinyaot-manifest "$work/kws_off" "$work/kws_on" >/dev/null; then fail kws_unchanged "the module differs"
else pass kws_unchanged; fi

# check_io MODEL OUT N_OUTPUTS: report.json lists input 0 and every output as int8, and the
# header's tables hold the same scale and zero point
check_io() {
  python3 - "$2/report.json" "$2/src/$1_model.c" "$1" "$3" <<'EOF'
import json, re, sys
report, source, name, n_out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
io = json.load(open(report)).get("integer_io")
if not io: sys.exit("no integer_io in report.json")
if [e["index"] for e in io["inputs"]] != [0] or [e["index"] for e in io["outputs"]] != list(range(n_out)):
    sys.exit("integer_io lists inputs %s, outputs %s" % (io["inputs"], io["outputs"]))
text = open(source).read()
for side, entries in (("input", io["inputs"]), ("output", io["outputs"])):
    table = re.search(r"%s_%s_info\[[^]]*\] = \{(.*?)\n\};" % (name, side), text, re.S).group(1)
    rows = re.findall(r'\{"[^"]*", (\d+), \w+_DTYPE_(\w+), .*?\}, ([-0-9.e]+)f, (-?\d+), \d+u\}', table)
    for e in entries:
        tid, dtype, scale, zp = rows[e["index"]]
        if int(tid) != e["tensor"] or dtype != "INT8" or e["dtype"] != "int8" or float(scale) != e["scale"] \
                or int(zp) != e["zero_point"] or e["replaces_dtype"] != "float32":
            sys.exit("%s %d: header %s, report %s" % (side, e["index"], rows[e["index"]], e))
EOF
}

# exact MODEL OUT N_OUTPUTS CASES... : quantized inputs through `tinyaot run` with the
# conversion's options (one build for every case), outputs against the re-quantized goldens
exact() {
  em=$1 eo=$2 en=$3
  shift 3
  eargs=""
  for k in "$@"; do
    python3 "$q" quantize "$eo/report.json" "$corpus/models/$em/case_$k" "$eo.cases/case_$k" || return 1
    eargs="$eargs --case $eo.cases/case_$k"
  done
  # shellcheck disable=SC2086
  "$build/tinyaot" run "$corpus/models/$em/model.tflite" $eargs --out-dir "$eo.run" $opts >"$eo.run.log" 2>&1 ||
    { echo "run failed: $(tail -n 1 "$eo.run.log")"; return 1; }
  for k in "$@"; do
    v=$(python3 "$q" compare "$eo/report.json" "$corpus/models/$em/case_$k" "$eo.run/case_$k" "$en") ||
      { echo "case $k: $v"; return 1; }
  done
}

# model n_outputs max_arena_limit cases_in_max
for spec in "mcunet_det 3 168512" "mcunet_vww 1 64000"; do
  set -- $spec
  m=$1 nout=$2 limit=$3
  for mode in max default; do
    out="$work/${m}_$mode"
    opts="--memory.optimize $mode --integer-io"
    # shellcheck disable=SC2086
    why=$(convert "$m" "$out" $opts)
    if [ -n "$why" ]; then fail "${m}_$mode" "convert failed: $why"; continue; fi
    if why=$(check_io "$m" "$out" "$nout" 2>&1); then pass "${m}_${mode}_io_tables"; else fail "${m}_${mode}_io_tables" "$why"; fi
    cases="0 1 2 3"
    [ "$mode" = default ] && cases=0
    # shellcheck disable=SC2086
    if why=$(exact "$m" "$out" "$nout" $cases); then pass "${m}_${mode}_exact (cases $cases)"; else fail "${m}_${mode}_exact" "$why"; fi
  done
  arena=$(json_num "$work/${m}_max/report.json" arena_bytes)
  why=$(convert "$m" "$work/${m}_max_float" --memory.optimize max)
  float_arena=$(json_num "$work/${m}_max_float/report.json" arena_bytes)
  if [ -z "$arena" ] || [ -z "$float_arena" ]; then fail "${m}_max_arena" "no arena_bytes ($why)"
  elif [ "$arena" -gt "$limit" ]; then fail "${m}_max_arena" "$arena bytes, above $limit"
  elif [ "$arena" -ge "$float_arena" ]; then fail "${m}_max_arena" "$arena bytes, not below max without the option ($float_arena)"
  elif ! grep -o '"patch": {[^}]*}' "$work/${m}_max/report.json" | grep -q '"enabled": true'; then
    fail "${m}_max_arena" "$arena bytes but the first stage is not patched"
  else pass "${m}_max_arena ($arena bytes <= $limit; $float_arena with float I/O)"; fi
done
[ -n "$det_off_arena" ] || fail det_off_arena "no arena_bytes in the float-I/O report"

# QEMU Cortex-M55: mcunet_det, max mode, integer I/O, case 0
. "$TA_ROOT/target/lib.sh"
if ! ta_ensure_packages >/dev/null 2>&1; then
  skip mcunet_det_qemu_m55 "cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"
  exit 0
fi
wrap="$work/tinyaot_io"
printf '#!/bin/sh\nexec "%s" "$@" --memory.optimize max --integer-io\n' "$build/tinyaot" >"$wrap"
chmod +x "$wrap"
out="$work/qemu_m55"
rc=0
sh "$TA_ROOT/target/run_case.sh" --core m55 --name mcunet_det --model "$corpus/models/mcunet_det/model.tflite" \
  --case "$work/mcunet_det_max.cases/case_0" --out "$out" --tinyaot "$wrap" >"$out.log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
  fail mcunet_det_qemu_m55 "run_case.sh exit $rc ($(grep -m1 error "$out/build.log" 2>/dev/null))"
elif ! v=$(python3 "$q" compare "$out/module/report.json" "$corpus/models/mcunet_det/case_0" "$out/run" 3); then
  fail mcunet_det_qemu_m55 "$v"
else
  pass "mcunet_det_qemu_m55 (arena $(json_num "$out/module/report.json" arena_bytes) bytes)"
  rm -rf "$out"
fi
