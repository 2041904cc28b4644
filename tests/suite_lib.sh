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
