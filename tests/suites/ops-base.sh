#!/bin/sh
# Issue 16 foundations and the comparison / logic / cast / select / fill / shape operators
# ("ops-base"). usage: sh tests/suites/ops-base.sh BUILD CORPUS WORKDIR
#  - differential: a sample of the ops-new cases of these operators (each operator's first, all
#    int8 comparisons, all casts from float32) once more with fresh inputs (seeded
#    random bytes: full-range integers, float32 bit patterns including NaN, infinities and
#    values outside every integer range; bool inputs 0/1), tinyaot run against TensorFlow Lite
#    Micro's reference runner (../shared/oracle/tflm_ref), byte for byte;
#  - the ops-new reporting of tests/corpus_case.sh: a refused ops-new case is a counted SKIP
#    naming the reason, the same refusal outside ops-new is a FAIL;
#  - inspect names what is missing: unsupported operators with their indices, refused
#    configurations, and the operators of a model it cannot load.
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ops-base "$@" || { fail setup "no work folder"; exit 0; }
root=$TA_ROOT
B="$build/tinyaot"

new="$corpus/ops-new"
if [ ! -d "$new" ]; then
  skip corpus "no $new"
  exit 0
fi

# ---- differential against the reference runner ------------------------------------------------
oracle=${TFLM_REF:-$corpus/../oracle/tflm_ref}
ops="equal not_equal greater greater_equal less less_equal logical_and logical_or logical_not select_v2
zeros_like fill shape broadcast_to broadcast_args cast reduce_all reverse_v2
dynamic_update_slice space_to_batch_nd batch_to_space_nd" # (GATHER_ND and EMBEDDING_LOOKUP: random indices are outside the domain)

# random_bytes N SEED [bool]: N seeded pseudo-random bytes (0/1 when bool)
random_bytes() {
  LC_ALL=C awk -v n="$1" -v seed="$2" -v bool="${3:-}" 'BEGIN {
    srand(seed)
    for (i = 0; i < n; i++) printf "%c", bool ? int(rand() * 2) : int(rand() * 256)
  }'
}

is_bool_file() { [ "$(LC_ALL=C tr -d '\000\001' <"$1" | wc -c)" -eq 0 ]; }

if [ ! -x "$oracle" ]; then
  skip differential "no reference runner at $oracle"
else
  seed=1
  for op in $ops; do
    for dir in "$new/${op}"_*; do
      [ -f "$dir/model.tflite" ] || continue
      name=$(basename "$dir")
      # the operator's own cases only (less_* must not take less_equal_*)
      case "$op" in less|greater|equal) case "$name" in "${op}"_equal_*) continue ;; esac ;; esac
      # a sample keeps make test short (the host corpus pass runs every case on its goldens):
      # each operator's first case, every int8 comparison (rescaling) and every cast from float32
      case "$name" in *_00_*|*_int8_*|cast_float32_*|dynamic_update_slice_*_runtime_*) ;; *) continue ;; esac
      d="$work/diff/$name"
      mkdir -p "$d/ref" "$d/ta"
      args=""
      for f in "$dir"/case_0/in*.bin; do
        g="$d/$(basename "$f")"
        seed=$((seed + 1))
        if is_bool_file "$f"; then random_bytes "$(wc -c <"$f")" $seed bool >"$g"
        else random_bytes "$(wc -c <"$f")" $seed >"$g"; fi
        args="$args --in $g"
      done
      # shellcheck disable=SC2086
      if ! "$oracle" "$dir/model.tflite" $args --out-dir "$d/ref" --quiet >"$d/ref.log" 2>&1; then
        fail "differential/$name" "reference runner: $(tail -n 1 "$d/ref.log")"; continue
      fi
      # shellcheck disable=SC2086
      if ! "$B" run "$dir/model.tflite" $args --out-dir "$d/ta" >"$d/ta.log" 2>&1; then
        fail "differential/$name" "tinyaot run: $(grep -m1 error "$d/ta.log")"; continue
      fi
      bad=""
      for r in "$d"/ref/out*.bin; do
        cmp -s "$r" "$d/ta/$(basename "$r")" || bad="$bad $(basename "$r")"
      done
      if [ -n "$bad" ]; then fail "differential/$name" "outputs differ from the reference:$bad (inputs kept in $d)"
      else pass "differential/$name"; rm -rf "$d"; fi
    done
  done
fi

# ---- corpus_case.sh: a refused case is a FAIL in ops-new as in ops -------------------------------
# The same refused model (a supported operator refusing its dtypes: tests/hostile) laid out as
# an ops-new case and as an ops case; the conversion fails before any input is read.
hostile="$root/tests/hostile/cases"
for kind in ops-new ops; do
  mkdir -p "$work/$kind/refused/case_0"
  cp "$hostile/dtype_float_input_int8_conv.tflite" "$work/$kind/refused/model.tflite"
  echo '{"compare": "exact"}' >"$work/$kind/refused/manifest.json"
  : >"$work/$kind/refused/case_0/in0.bin"
  : >"$work/$kind/refused/case_0/out0.bin"
  line=$(sh "$root/tests/corpus_case.sh" "$work/$kind/refused" "$build" "$work/cc" 2>&1)
  case "$line" in
    "FAIL $kind/refused: not supported: operator 0 (CONV_2D): "*) pass "corpus-case:$kind-refusal-fails" ;;
    *) fail "corpus-case:$kind-refusal-fails" "a refusal must be a located FAIL, got: $line" ;;
  esac
done

# ---- inspect: what is missing, before anyone converts -------------------------------------------
# a model that does not load still has its operators named (and the missing ones marked)
"$B" inspect "$hostile/buffer_index_out_of_range.tflite" >"$work/inspect_bad.out" 2>"$work/inspect_bad.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$work/inspect_bad.err")" -eq 1 ] &&
   grep -qx 'operators used by the model: CONV_2D RESHAPE FULLY_CONNECTED SOFTMAX' "$work/inspect_bad.out" &&
   grep -qx '0 of them missing in tinyaot' "$work/inspect_bad.out"; then pass inspect:unloadable-model-names-operators
else fail inspect:unloadable-model-names-operators "rc $rc: $(head -c 300 "$work/inspect_bad.out")"; fi
# an operator tinyaot lacks, and a supported operator refusing its dtypes (tests/hostile models)
m="$hostile/opcode_custom.tflite"
"$B" inspect "$m" >"$work/inspect_custom.out" 2>&1
if grep -q "^  CUSTOM 'EVIL?OP' *operators 3 (int8 -> int8)" "$work/inspect_custom.out" &&
   grep -q '^1 operator type missing, 0 operators refused' "$work/inspect_custom.out"; then
  pass inspect:lists-missing-operators
else fail inspect:lists-missing-operators "$(tail -n 5 "$work/inspect_custom.out")"; fi
m="$hostile/dtype_float_input_int8_conv.tflite"
"$B" inspect "$m" >"$work/inspect_dtype.out" 2>&1
if grep -q "^  operator 0 (CONV_2D): tensor 3 'conv/relu' has dtype int8, expected float32" "$work/inspect_dtype.out" &&
   grep -q '^0 operator types missing, 1 operator refused' "$work/inspect_dtype.out"; then
  pass inspect:lists-refused-configurations
else fail inspect:lists-refused-configurations "$(tail -n 5 "$work/inspect_dtype.out")"; fi
m="$new/equal_int8_00_same4d_narrow/model.tflite"
if [ -f "$m" ]; then
  if "$B" inspect "$m" >"$work/inspect_eq.out" 2>&1 && ! grep -q 'missing\|refused\|not compilable' "$work/inspect_eq.out"; then
    pass inspect:supported-model-reports-nothing-missing
  else fail inspect:supported-model-reports-nothing-missing "$(tail -n 3 "$work/inspect_eq.out")"; fi
fi
exit 0
