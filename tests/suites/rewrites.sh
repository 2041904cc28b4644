#!/bin/sh
# rewrites (issue 17 item 2): graph rewrites that save RAM and keep outputs bit-exact.
# fold_pad (src/transform/fold_pad.c):
# 1. A built model (tests/suites/rewrites_models.c) with four PAD branches: asymmetric
#    PAD -> CONV_2D and PADV2(zero point) -> DEPTHWISE_CONV_2D stride 2 must fold,
#    PAD -> AVERAGE_POOL_2D and PADV2(another value) -> CONV_2D must not (the report
#    counts exactly 2 folds; 0 with --no-fold-pad). Every output equals TensorFlow Lite
#    Micro's reference runner with the fold on and off (skipped without the runner).
# 2. mcunet_vww and mcunet_det (explicit PADs from PyTorch): exact against the corpus
#    goldens with the fold on (default) and off; the arena is smaller with the fold on
#    and the report names the folds.
# elide_quantize (src/transform/elide_quantize.c):
# 3. A built model (rewrites_models OUTDIR quant): a DEQUANTIZE->QUANTIZE round trip and
#    an identity QUANTIZE elide (report: 2), a QUANTIZE to another scale does not; exact
#    against the reference runner with the rewrite on and off (--no-elide-quantize: 0),
#    and the arena is smaller with it on.
# usage: sh tests/suites/rewrites.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup rewrites "$@" || { fail setup "no work folder"; exit 0; }
oracle=${TINYAOT_ORACLE:-$(dirname "$corpus")/oracle/tflm_ref}

# report.json's field as a number ("" when absent)
json_num() { grep -o "\"$2\": *[0-9]*" "$1" 2>/dev/null | head -n 1 | sed 's/.*: *//'; }

# 1. the built model
sm="$work/pad_models"
rm -rf "$sm"
mkdir -p "$sm"
if ! cc -std=c11 -Wall -Wextra -Werror -I"$TA_ROOT/tools" "$TA_ROOT/tests/suites/rewrites_models.c" \
    "$TA_ROOT/tools/fbwriter.c" -o "$work/rewrites_models" 2>"$work/gen.log" || ! "$work/rewrites_models" "$sm"; then
  fail pad_fold_models "the model generator failed: $(head -n 1 "$work/gen.log")"
else
  for mode in on off; do
    flag=""
    [ "$mode" = off ] && flag=--no-fold-pad
    # shellcheck disable=SC2086
    if ! "$build/tinyaot" convert "$sm/model.tflite" -o "$sm/conv_$mode" $flag >"$sm/conv_$mode.log" 2>&1; then
      fail "pad_fold_report_$mode" "convert failed: $(tail -n 1 "$sm/conv_$mode.log")"
      continue
    fi
    want=2
    [ "$mode" = off ] && want=0
    got=$(json_num "$sm/conv_$mode/report.json" pad_folds)
    if [ "$got" = "$want" ]; then pass "pad_fold_count_$mode"; else fail "pad_fold_count_$mode" "pad_folds '$got', expected $want"; fi
    if [ ! -x "$oracle" ]; then
      skip "pad_fold_exact_$mode" "the reference runner $oracle is absent"
      continue
    fi
    [ -d "$sm/ref" ] || "$oracle" "$sm/model.tflite" --in "$sm/case_0/in0.bin" --out-dir "$sm/ref" --quiet >"$sm/ref.log" 2>&1
    # shellcheck disable=SC2086
    if ! "$build/tinyaot" run "$sm/model.tflite" --case "$sm/case_0" --out-dir "$sm/run_$mode" $flag >"$sm/run_$mode.log" 2>&1; then
      fail "pad_fold_exact_$mode" "run failed: $(tail -n 1 "$sm/run_$mode.log")"
      continue
    fi
    bad=""
    for i in 0 1 2 3; do
      cmp -s "$sm/ref/out$i.bin" "$sm/run_$mode/case_0/out$i.bin" || bad="$bad out$i"
    done
    if [ -z "$bad" ]; then pass "pad_fold_exact_$mode"; else fail "pad_fold_exact_$mode" "differs from the reference runner:$bad"; fi
  done
fi

# 2. corpus models with explicit PADs
for model in mcunet_vww mcunet_det; do
  dir="$corpus/models/$model"
  if [ ! -d "$dir" ]; then
    skip "$model" "$dir is absent"
    continue
  fi
  for mode in on off; do
    args=""
    [ "$mode" = off ] && args=--no-fold-pad
    line=$(TINYAOT_RUN_ARGS="$args" sh "$TA_ROOT/tests/corpus_case.sh" "$dir" "$build" "$work/case_$mode" 2>&1 | tail -n 1)
    case "$line" in
      PASS*) pass "${model}_exact_$mode" ;;
      *) fail "${model}_exact_$mode" "${line#* * }" ;;
    esac
    # shellcheck disable=SC2086
    "$build/tinyaot" convert "$dir/model.tflite" -o "$work/${model}_$mode" $args >"$work/${model}_$mode.log" 2>&1
  done
  on=$(json_num "$work/${model}_on/report.json" arena_bytes)
  off=$(json_num "$work/${model}_off/report.json" arena_bytes)
  folds=$(json_num "$work/${model}_on/report.json" pad_folds)
  if [ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ]; then
    pass "${model}_arena_smaller"
  else
    fail "${model}_arena_smaller" "arena with the fold '$on', without '$off'"
  fi
  if [ -n "$folds" ] && [ "$folds" -gt 0 ] && grep -q "PAD(s) folded" "$work/${model}_on/report.md"; then
    pass "${model}_report"
  else
    fail "${model}_report" "report.json pad_folds '$folds' or report.md without the rewrite line"
  fi
done

# 3. quantize elision
qm="$work/quant_model"
rm -rf "$qm"
mkdir -p "$qm"
if [ ! -x "$work/rewrites_models" ] || ! "$work/rewrites_models" "$qm" quant; then
  fail elide_quantize_model "the model generator failed"
else
  for mode in on off; do
    flag=""
    [ "$mode" = off ] && flag=--no-elide-quantize
    # shellcheck disable=SC2086
    "$build/tinyaot" convert "$qm/model.tflite" -o "$qm/conv_$mode" $flag >"$qm/conv_$mode.log" 2>&1
    want=2
    [ "$mode" = off ] && want=0
    got=$(json_num "$qm/conv_$mode/report.json" quantizes_elided)
    if [ "$got" = "$want" ]; then pass "elide_quantize_count_$mode"; else fail "elide_quantize_count_$mode" "quantizes_elided '$got', expected $want"; fi
    if [ ! -x "$oracle" ]; then
      skip "elide_quantize_exact_$mode" "the reference runner $oracle is absent"
      continue
    fi
    [ -d "$qm/ref" ] || "$oracle" "$qm/model.tflite" --in "$qm/case_0/in0.bin" --out-dir "$qm/ref" --quiet >"$qm/ref.log" 2>&1
    # shellcheck disable=SC2086
    if ! "$build/tinyaot" run "$qm/model.tflite" --case "$qm/case_0" --out-dir "$qm/run_$mode" $flag >"$qm/run_$mode.log" 2>&1; then
      fail "elide_quantize_exact_$mode" "run failed: $(tail -n 1 "$qm/run_$mode.log")"
      continue
    fi
    bad=""
    for i in 0 1; do
      cmp -s "$qm/ref/out$i.bin" "$qm/run_$mode/case_0/out$i.bin" || bad="$bad out$i"
    done
    if [ -z "$bad" ]; then pass "elide_quantize_exact_$mode"; else fail "elide_quantize_exact_$mode" "differs from the reference runner:$bad"; fi
  done
  on=$(json_num "$qm/conv_on/report.json" arena_bytes)
  off=$(json_num "$qm/conv_off/report.json" arena_bytes)
  if [ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ]; then
    pass elide_quantize_arena_smaller
  else
    fail elide_quantize_arena_smaller "arena with the rewrite '$on', without '$off'"
  fi
fi
