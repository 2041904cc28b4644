# Shared prologue of the feature suites (tests/suites/*.sh, run as `sh SUITE BUILD CORPUS WORKDIR`).
# suite_setup NAME BUILD CORPUS WORKDIR sets build, corpus and work as absolute paths, work
# being a fresh WORKDIR/NAME; returns non-zero when that folder cannot be made.
suite_setup() {
  build=$2 corpus=$3 work=$4
  case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
  case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
  case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac
  work="$work/$1"
  rm -rf "$work" && mkdir -p "$work"
}

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
