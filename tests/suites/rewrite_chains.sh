#!/bin/sh
# Graph rewrites composed with data-movement chains (issue 29; docs/robustness.md,
# "Differential fuzzing"): random chains of 2-5 data-movement operators (PAD, PADV2,
# MIRROR_PAD, SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK, PACK, CONCATENATION, RESHAPE,
# SQUEEZE, EXPAND_DIMS, TRANSPOSE, GATHER, REVERSE_V2, BROADCAST_TO, DEPTH_TO_SPACE /
# SPACE_TO_DEPTH, identity QUANTIZE, PAD -> CONV_2D) over int8, int16, int32, float32 and
# bool, from model inputs or computed tensors (`fuzz_diff_gen gen ... --chains`), checked
# against TensorFlow Lite Micro's reference kernels (../shared/oracle/tflm_ref) by
# tools/fuzz_diff/fuzz_diff.sh under three settings: default, --memory.optimize max, and
# every rewrite off (--no-slice-views --no-concat-views --no-fold-pad --no-elide-quantize
# --no-alias --no-inplace).
# - the generator is deterministic and its chains exercise the rewrites: one fixed file's
#   report.json counts slice views, concatenation views, PAD folds and elided QUANTIZEs;
# - no model output shares a model input's buffer (seed 2902's chains; default and max mode);
# - the cases found with views aliased by model outputs (issue 29: corpus/found/
#   padv2_slice_reshape_int16, a RESHAPE of a slice view; tests/diff_cases/chains_*, found by this generator
#   in tinyaot 0ac9e16: QUANTIZE, SQUEEZE and EXPAND_DIMS aliases of slice and split views)
#   are exact under all three settings (diff_cases.sh runs them in the default one);
# - a fixed-seed run per setting: 240 chains each (about 2 minutes in all), 2400 each
#   with TEST_FULL=1 (seed 2900 either way; REWRITE_CHAINS_SEED overrides it).
# SKIP without the oracle.
# usage: sh tests/suites/rewrite_chains.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup rewrite_chains "$@" || { fail setup "no work folder"; exit 0; }
oracle=${ORACLE:-$(dirname "$corpus")/oracle/tflm_ref}
json_num() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }
off="--no-slice-views --no-concat-views --no-fold-pad --no-elide-quantize --no-alias --no-inplace"
setting_args() {
  case $1 in
    default) echo "" ;;
    max) echo "--memory.optimize max" ;;
    off) echo "$off" ;;
  esac
}

# the generator and a build folder fuzz_diff.sh takes (BUILD/fuzz_diff_gen, BUILD/tinyaot)
bin="$work/bin"
mkdir -p "$bin"
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
  "$TA_ROOT/tools/fbwriter.c" -o "$bin/fuzz_diff_gen" -lm >"$work/gen_build.log" 2>&1; then
  fail generator_build "$(head -n 1 "$work/gen_build.log")"
  exit 0
fi
ln -sf "$build/tinyaot" "$bin/tinyaot"
gen="$bin/fuzz_diff_gen"

# ---- determinism, and the rewrites the chains reach --------------------------------
"$gen" gen 2900 0 40 "$work/c1" --chains >/dev/null && "$gen" gen 2900 0 40 "$work/c2" --chains >/dev/null &&
  "$gen" gen 2900 0 40 "$work/g1" >/dev/null
if cmp -s "$work/c1/model.tflite" "$work/c2/model.tflite" && ! cmp -s "$work/c1/model.tflite" "$work/g1/model.tflite"; then
  pass deterministic
else
  fail deterministic "the same seed gave different chains, or --chains the same file as gen"
fi
if "$build/tinyaot" convert "$work/c1/model.tflite" -o "$work/c1/conv" >"$work/c1/conv.log" 2>&1; then
  r="$work/c1/conv/report.json"
  sv=$(json_num "$r" slices_viewed) cv=$(json_num "$r" concats_viewed) pf=$(json_num "$r" pad_folds)
  qe=$(json_num "$r" quantizes_elided)
  if [ "${sv:-0}" -gt 0 ] && [ "${cv:-0}" -gt 0 ] && [ "${pf:-0}" -gt 0 ] && [ "${qe:-0}" -gt 0 ]; then
    pass "rewrites_reached: $sv slice views, $cv concatenation views, $pf PAD folds, $qe QUANTIZEs elided"
  else
    fail rewrites_reached "slices_viewed '$sv', concats_viewed '$cv', pad_folds '$pf', quantizes_elided '$qe' (each must be > 0)"
  fi
else
  fail rewrites_reached "convert failed: $(tail -n 1 "$work/c1/conv.log")"
fi

# No model output shares a model input's buffer (through any chain of aliases and views:
# transform_joins_io), in the default and the max mode: seed 2902's file once gave output 12
# the buffer of input 10 (two identity QUANTIZEs after it, each elided; graph 5).
"$gen" gen 2902 0 40 "$work/io" --chains >/dev/null
for s in default max; do
  o="$work/io/io_$s"
  # shellcheck disable=SC2046
  if "$build/tinyaot" convert "$work/io/model.tflite" -o "$o" $(setting_args $s) >"$o.log" 2>&1; then
    c=$(ls "$o"/src/*_model.c | head -n 1)
    ins=$(sed -n 's/.*ctx->inputs\[[0-9]*\]\.data = .*T\([0-9][0-9]*\).*/\1/p' "$c" | sort -u)
    outs=$(sed -n 's/.*ctx->outputs\[[0-9]*\]\.data = .*T\([0-9][0-9]*\).*/\1/p' "$c" | sort -u)
    both=$(printf '%s\n%s\n' "$ins" "$outs" | sort | uniq -d | tr '\n' ' ')
    if [ -z "$ins" ] || [ -z "$outs" ]; then fail "io_buffers_distinct_$s" "no I/O bindings found in $c"
    elif [ -n "$both" ]; then fail "io_buffers_distinct_$s" "outputs in the buffers of inputs (storage tensors $both)"
    else pass "io_buffers_distinct_$s"; fi
  else
    fail "io_buffers_distinct_$s" "convert failed: $(tail -n 1 "$o.log")"
  fi
done

# ---- found cases under every setting ----------------------------------------------
# (found/padv2_slice_reshape_int16 is read from the corpus; the chains_* cases live here)
for name in found/padv2_slice_reshape_int16 chains_slice_quantize_squeeze_output_int8 \
  chains_concat_mirror_pad_slice_output_float32 chains_split_v_expand_dims_output_int8; do
  case "$name" in
    found/*) dir="$corpus/$name"; name=${name#found/}
             [ -f "$dir/model.tflite" ] || { skip "case_$name" "no $dir"; continue; } ;;
    *) dir="$TA_ROOT/tests/diff_cases/$name"
       [ -f "$dir/model.tflite" ] || { fail "case_$name" "missing $dir"; continue; } ;;
  esac
  for s in default max off; do
    line=$(TINYAOT_RUN_ARGS="$(setting_args $s)" sh "$TA_ROOT/tests/corpus_case.sh" "$dir" "$build" "$work/cases")
    case "$line" in
      PASS*) pass "case_${name}_$s" ;;
      *) fail "case_${name}_$s" "${line#* }" ;;
    esac
  done
done

# ---- fixed-seed runs against the reference ----------------------------------------
if [ ! -x "$oracle" ]; then
  for s in default max off; do skip "chains_$s" "no reference runner at $oracle"; done
  exit 0
fi
seed=${REWRITE_CHAINS_SEED:-2900}
models=240
[ -n "${TEST_FULL:-}" ] && models=2400
for s in default max off; do
  log="$work/run_$s.log"
  FUZZ_DIFF_CHAINS=1 FUZZ_DIFF_RUN_ARGS="$(setting_args $s)" FUZZ_DIFF_MODELS=$models FUZZ_DIFF_SEED=$seed \
    FUZZ_DIFF_JOBS=${FUZZ_DIFF_JOBS:-2} FUZZ_DIFF_OUT="$work/run_$s" \
    sh "$TA_ROOT/tools/fuzz_diff/fuzz_diff.sh" "$bin" "$oracle" >"$log" 2>&1
  rc=$?
  ran=$(tail -n 1 "$log" | sed -n 's/.*: \([0-9]*\) graphs in.*/\1/p')
  if [ $rc -eq 0 ] && [ "${ran:-0}" -ge "$models" ]; then
    pass "chains_$s: $(tail -n 1 "$log" | sed 's/^fuzz-diff: //; s/, cases in.*//')"
  else
    fail "chains_$s" "$(grep -E '^(FOUND|INVALID|GENFAIL|BATCHFAIL)' "$log" | head -n 1) ($(tail -n 1 "$log" | sed 's/, cases in.*//'); cases in $work/run_$s/cases"
  fi
done
