# Shared prologue of the feature suites (tests/suites/*.sh, run as `sh SUITE BUILD CORPUS WORKDIR`).
# suite_setup NAME BUILD CORPUS WORKDIR sets build, corpus and work as absolute paths, work
# being a fresh WORKDIR/NAME (defaults: build, ../shared/corpus, $TMPDIR/tinyaot-suites), and
# NAME as the label of pass / fail / skip; returns non-zero when that folder cannot be made.
suite_setup() {
  suite_label=$1 build=${2:-build} corpus=${3:-../shared/corpus} work=${4:-${TMPDIR:-/tmp}/tinyaot-suites}
  case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
  case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
  case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac
  work="$work/$1"
  rm -rf "$work" && mkdir -p "$work"
}

# pass CHECK / fail CHECK WHY / skip CHECK WHY: one result line of check CHECK of this suite.
pass() { echo "PASS $suite_label:$1"; }
fail() { echo "FAIL $suite_label:$1: $2"; }
skip() { echo "SKIP $suite_label:$1: $2"; }

# suite_qemu_exact CHECK CORE MODEL_DIR OUT [run_case.sh options]: runs case 0 of MODEL_DIR on
# QEMU (target/run_case.sh, log in OUT.log) into OUT; prints "FAIL CHECK: why" and returns 1
# unless the run succeeded and out0.bin equals the golden (the caller prints its PASS line).
suite_qemu_exact() {
  sq_check=$1 sq_core=$2 sq_dir=$3 sq_out=$4
  shift 4
  sq_rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$sq_core" --name "$(basename "$sq_dir")" --model "$sq_dir/model.tflite" \
    --case "$sq_dir/case_0" --out "$sq_out" "$@" >"$sq_out.log" 2>&1 || sq_rc=$?
  if [ $sq_rc -ne 0 ]; then
    echo "FAIL $sq_check: run_case.sh exit $sq_rc"
    return 1
  fi
  if ! cmp -s "$sq_dir/case_0/out0.bin" "$sq_out/run/out0.bin"; then
    echo "FAIL $sq_check: out0.bin differs from the golden"
    return 1
  fi
  return 0
}

# suite_check_image LABEL DIR MACHINE WHAT: runs DIR/image.elf (a bare-metal check printing
# checked=N and mismatches=M) on QEMU machine MACHINE (mps2-an386: Cortex-M4, mps3-an547:
# Cortex-M55); prints PASS (N WHAT) and returns 0 when it exits 0 with no mismatch, else FAIL.
suite_check_image() {
  sc_rc=0
  (cd "$2" && exec timeout 300 qemu-system-arm -M "$3" -nodefaults -display none -monitor none -serial null \
    -semihosting-config enable=on,target=native -kernel image.elf) >"$2/run.log" 2>&1 || sc_rc=$?
  sc_checked=$(sed -n 's/^checked=//p' "$2/run.log") sc_bad=$(sed -n 's/^mismatches=//p' "$2/run.log")
  if [ $sc_rc -ne 0 ] || [ "$sc_bad" != 0 ] || [ -z "$sc_checked" ]; then
    echo "FAIL $1: exit $sc_rc, ${sc_bad:-?} mismatches in ${sc_checked:-?} checked"
    return 1
  fi
  echo "PASS $1 ($sc_checked $4)"
}

# suite_gen_case LABEL GEN ORACLE KIND SEED DIR ARGS...: a generated one-operator model
# (GEN = a build of tools/fuzz_diff/fuzz_diff_gen: `GEN KIND SEED DIR ARGS`) and its case 0
# golden from TFLite Micro's reference kernels (ORACLE, shared/oracle/tflm_ref); prints
# "FAIL LABEL: ..." and returns 1 when either fails.
suite_gen_case() {
  sg_label=$1 sg_gen=$2 sg_oracle=$3 sg_kind=$4 sg_seed=$5 sg_dir=$6
  shift 6
  if ! "$sg_gen" "$sg_kind" "$sg_seed" "$sg_dir" "$@" >/dev/null 2>&1 ||
     ! "$sg_oracle" "$sg_dir/model.tflite" --in "$sg_dir/case_0/in0.bin" --out-dir "$sg_dir/case_0" --quiet \
       >"$sg_dir/ref.log" 2>&1; then
    echo "FAIL $sg_label: generator or oracle failed"
    return 1
  fi
}

# suite_module_exact LABEL MODULE NAME CASE_DIR OUT FLAGS: builds the converted module MODULE
# for Cortex-M4 (its Makefile, CFLAGS=FLAGS; library libNAME.a), runs CASE_DIR/case_0 through
# it on QEMU (target/run_case.sh) into OUT; prints "FAIL LABEL: why" and returns 1 unless every
# output equals the golden (the caller prints its PASS line).
suite_module_exact() {
  sm_label=$1 sm_module=$2 sm_name=$3 sm_case=$4/case_0 sm_out=$5
  if ! make -C "$sm_module" TARGET=cortex-m4 CFLAGS="$6" >"$sm_out.build.log" 2>&1; then
    echo "FAIL $sm_label: module build with $6"
    return 1
  fi
  if ! sh "$TA_ROOT/target/run_case.sh" --core m4 --name "$sm_name" --lib "$sm_module/lib$sm_name.a" \
       --include "$sm_module/include" --case "$sm_case" --out "$sm_out" >"$sm_out.run.log" 2>&1; then
    echo "FAIL $sm_label: run_case.sh failed (see $sm_out)"
    return 1
  fi
  if sm_bad=$(ta_golden_mismatch "$sm_case" "$sm_out/run"); then :; else
    echo "FAIL $sm_label: $sm_bad differs from the golden"
    return 1
  fi
}

# contract_bit EXPR: the variant bit EXPR names (a name or macro call of the runtime's contract
# headers, runtime/kernels/ta_*_contract.h, e.g. TA_GEMM_DSP_BIT_FCS or TA_S16_DSP_BIT_GEMM(2, 1)),
# evaluated by the C preprocessor, so that no suite writes a bit number itself.
# contract_mask EXPR...: the mask of those bits.
contract_bit() {
  cb_e=$(for cb_h in "$TA_ROOT"/runtime/kernels/ta_*_contract.h; do printf '#include "%s"\n' "$cb_h"; done |
    { cat; printf 'contract_bit: %s\n' "$1"; } | ${HOST_CC:-cc} -E -P - | sed -n 's/^contract_bit: //p')
  echo $(($cb_e))
}
contract_mask() {
  cm_m=0
  for cm_x in "$@"; do cm_m=$((cm_m | 1 << $(contract_bit "$cm_x"))); done
  echo "$cm_m"
}
