# Shared prologue of the feature suites (tests/suites/*.sh, run as `sh SUITE BUILD CORPUS WORKDIR`).
# suite_setup NAME BUILD CORPUS WORKDIR sets build, corpus and work as absolute paths, work
# being a fresh WORKDIR/NAME (defaults: build, ../shared/corpus, $TMPDIR/tinyaot-suites), and
# NAME (the suite's file name: the feature it checks) as the label of pass / fail / skip;
# returns non-zero when that folder cannot be made.
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

# suite_require PATH...: prints "SKIP NAME:corpus: absent (PATH)" and ends the suite (exit 0)
# unless every PATH (a corpus folder the suite needs) exists.
suite_require() {
  for sr_p in "$@"; do
    [ -e "$sr_p" ] || { skip corpus "absent ($sr_p)"; exit 0; }
  done
}

# suite_qemu_exact CHECK CORE MODEL_DIR OUT [run_case.sh options]: runs case 0 of MODEL_DIR on
# QEMU (target/run_case.sh, log in OUT.log) into OUT; prints "FAIL NAME:CHECK: why" and returns 1
# unless the run succeeded and out0.bin equals the golden (the caller prints its PASS line).
suite_qemu_exact() {
  sq_check=$1 sq_core=$2 sq_dir=$3 sq_out=$4
  shift 4
  sq_rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$sq_core" --name "$(basename "$sq_dir")" --model "$sq_dir/model.tflite" \
    --case "$sq_dir/case_0" --out "$sq_out" "$@" >"$sq_out.log" 2>&1 || sq_rc=$?
  if [ $sq_rc -ne 0 ]; then
    fail "$sq_check" "run_case.sh exit $sq_rc"
    return 1
  fi
  if ! cmp -s "$sq_dir/case_0/out0.bin" "$sq_out/run/out0.bin"; then
    fail "$sq_check" "out0.bin differs from the golden"
    return 1
  fi
  return 0
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
