#!/bin/sh
# Typed builtin options (issue 17, step 1; "options-ir"). usage: sh tests/suites/options-ir.sh BUILD CORPUS WORKDIR
#  - layering: src/ir includes nothing of src/load, and no stage after load reads the
#    FlatBuffer (no fb_* call, no raw options table) — operators read node->opts;
#  - malformed options tables are refused by the loader with the operator's location, and an
#    options table of another kind by the operator, one line each;
#  - one corpus case per options layout whose fields change the numbers (dilation, padding,
#    depth multiplier, masks, squeeze dims, pack/unpack axis, split counts, resize flags, LSTM
#    time_major and clip, BATCH_MATMUL adjoints, gather axis, concatenation axis and
#    activation) runs exactly through `tinyaot run`.
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup options-ir "$@" || { fail setup "no work folder"; exit 0; }
root=$TA_ROOT
B="$build/tinyaot"

# ---- layering -----------------------------------------------------------------------------------
hits=$(grep -n '#include *"\.\./load/' "$root"/src/ir/*.c "$root"/src/ir/*.h 2>/dev/null)
if [ -z "$hits" ]; then pass ir_independent_of_load; else fail ir_independent_of_load "$hits"; fi
hits=$(grep -nE '\bfb_[a-z0-9_]+\(|node->options\b|FbTable|FbVec' "$root"/src/ops/*.[ch] "$root"/src/transform/*.[ch] \
  "$root"/src/resolve/*.[ch] "$root"/src/plan/*.[ch] "$root"/src/emit/*.[ch] 2>/dev/null | head -n 3)
if [ -z "$hits" ]; then pass stages_read_typed_options; else fail stages_read_typed_options "$hits"; fi

# ---- refusals -----------------------------------------------------------------------------------
# refused NAME FILE EXPECTED: convert must fail with exactly one stderr line containing EXPECTED
refused() {
  rm -rf "$work/out_$1"
  "$B" convert "$2" -o "$work/out_$1" >"$work/$1.out" 2>"$work/$1.err"
  rc=$?
  if [ $rc -eq 0 ]; then fail "$1" "accepted"; return; fi
  if [ "$(wc -l <"$work/$1.err")" -ne 1 ]; then fail "$1" "not one line: $(tr '\n' '|' <"$work/$1.err")"; return; fi
  if grep -qF "$3" "$work/$1.err"; then pass "$1"; else fail "$1" "expected '$3' in: $(cat "$work/$1.err")"; fi
}
h="$root/tests/hostile/cases"
refused malformed_vtable_located "$h/vtable_outside_file_options.tflite" \
  "malformed model: operator 0 (CONV_2D) options: vtable of table at"
refused table_past_end_located "$h/table_size_past_end_options.tflite" \
  "malformed model: operator 0 (CONV_2D) options: table at"
refused other_kind_refused_by_operator "$h/options_wrong_type_tag.tflite" \
  "operator 0 (CONV_2D): builtin options have type 8, expected 1"
refused unknown_tag_refused_by_operator "$h/options_tag_out_of_range.tflite" \
  "operator 3 (SOFTMAX): builtin options have type 250, expected 9"

# ---- corpus cases whose options matter ----------------------------------------------------------
if [ ! -d "$corpus/ops" ]; then
  skip corpus "no $corpus/ops"
  exit 0
fi
for c in conv_2d_int8_00_k3x3_s1_d2_same_none_c5to1 conv_2d_float32_04_k7x1_s1_d2_valid_relu6_c16to3 \
  depthwise_conv_2d_int8_07_m2_k5x5_s1_d2_same_relu_c8 depthwise_conv_2d_int16_03_m1_k7x1_s2_d1_same_relu6_c8 \
  batch_matmul_int8_01_b2_adjy_m3k16n4 batch_matmul_int8_03_adjx_m3k16n4 concatenation_int8_03_r4_axis-1_n3; do
  d="$corpus/ops/$c"
  if [ ! -d "$d" ]; then skip "$c" "not in the corpus"; continue; fi
  line=$(sh "$root/tests/corpus_case.sh" "$d" "$build" "$work/cases" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "$c" ;;
    *) fail "$c" "$line" ;;
  esac
done
# first case of each further operator whose options are read
for op in average_pool_2d_int8 max_pool_2d_int16 fully_connected_int8 strided_slice_int8 squeeze_int8 pack_int8 \
  unpack_int8 split_int8 split_v_int8 resize_bilinear_int8 resize_nearest_neighbor_int8 gather_int8 \
  unidirectional_sequence_lstm_int8 svdf_int8 transpose_conv_int8 leaky_relu_int8 softmax_int8 \
  space_to_depth_int8 depth_to_space_int8; do
  d=$(ls -d "$corpus/ops/${op}_"* 2>/dev/null | head -n 1)
  if [ -z "$d" ]; then skip "$op" "no case in the corpus"; continue; fi
  line=$(sh "$root/tests/corpus_case.sh" "$d" "$build" "$work/cases" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "$(basename "$d")" ;;
    *) fail "$(basename "$d")" "$line" ;;
  esac
done
