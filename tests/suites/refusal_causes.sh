#!/bin/sh
# Refusals that name their cause first (issue 33), on small models tests/hostile/make_hostile.c
# writes (--causes): each is one stderr line, non-zero exit, and says what the model is:
#   hybrid_fc      float32 activations with int8 weights: "hybrid-quantised", once (not a dtype clause per operator)
#   ethos_u        a Vela custom operator 'ethos-u' (with its NPU scratch input): "Ethos-U" before any graph symptom
#   signal_window  CUSTOM 'SignalWindow': "Signal library"
#   dtype_uint64   a UINT64 tensor: "dtype uint64", not "unknown (12)"
# usage: sh tests/suites/refusal_causes.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup refusal_causes "$@" || { echo "FAIL refusal_causes: no work folder"; exit 0; }
root=$TA_ROOT
gen="$work/make_hostile"
models="$work/models"
mkdir -p "$models"
if ! cc -std=c11 -I"$root/src" -I"$root/tools" "$root/tests/hostile/make_hostile.c" "$root/tools/fbwriter.c" \
     "$root/src/load/flatbuffer.c" -lm -o "$gen" >"$work/gen.log" 2>&1 || ! "$gen" --causes "$models" >>"$work/gen.log" 2>&1; then
  fail generate "$(head -n 2 "$work/gen.log")"
  exit 0
fi
# cause LABEL NAME PATTERN [CONVERT ARGS]: one line on stderr, the model's prefix, then PATTERN
cause() {
  label=$1 name=$2 pattern=$3; shift 3
  "$build/tinyaot" convert "$models/$name.tflite" -o "$work/out_$label" "$@" >/dev/null 2>"$work/$label.err"; rc=$?
  first=$(head -n 1 "$work/$label.err")
  if [ $rc -ne 0 ] && [ "$(wc -l <"$work/$label.err")" -eq 1 ] && [ "$(grep -c 'has dtype' "$work/$label.err")" -eq 0 ] &&
     echo "$first" | grep -q -- "^tinyaot: error: $models/$name.tflite: $pattern"; then pass "$label"
  else fail "$label" "rc $rc: $(head -c 300 "$work/$label.err")"; fi
}
cause hybrid_fc hybrid_fc "operator 0 (FULLY_CONNECTED): the model is hybrid-quantised .*tensor 1 'dense/w'.* TensorFlow Lite Micro"
cause ethos_u ethos_u "the model was compiled for the Arm Ethos-U NPU (custom operator 'ethos-u'"
cause signal_window signal_window "custom operator 'SignalWindow' is from TensorFlow Lite Micro's Signal library"
cause dtype_uint64 dtype_uint64 "tensor 0 'a': dtype uint64 is not supported"
# on an MVE platform too (the cause does not depend on the kernels)
cause hybrid_fc_m55 hybrid_fc "operator 0 (FULLY_CONNECTED): the model is hybrid-quantised" --platform apollo510_evb
exit 0
