#!/bin/sh
# The layering and contract rules of docs/architecture.md, checked on the source tree: each
# check counts what the rule forbids and fails with the offending lines. Run as
# `sh tests/suites/architecture.sh BUILD CORPUS WORKDIR` from the project root.
. tests/suite_lib.sh
suite_setup architecture "$1" "$2" "$3" || exit 1
status=0

# rule LABEL: reads offending lines on stdin; PASS when there are none.
rule() {
  found=$(cat)
  if [ -z "$found" ]; then
    pass " $1"
  else
    fail " $1" "$(printf '%s\n' "$found" | wc -l) offending line(s):"
    printf '%s\n' "$found" | head -n 10 | sed 's/^/    /'
    status=1
  fi
}

# (the capability flags of op.h and math_unary.h's type mask are shifts too, not variant bits)
grep -rn '1u *<<' src/ops | grep -v 'CAP_[A-Z_]* = 1u <<\|define MU_TYPE' | rule "no variant bit written as a number in src/ops (runtime/kernels/*_contract.h names them)"
grep -rn 'table_sources' src | rule "tables name their source tensor (no table_sources map in emit)"
grep -rnE 'enum *\{[^}]*_OPTIONS' src/ops | rule "operators use the shared OPTS_* option layouts"
grep -rnE 'include "(\.\./)+resolve/' src/ops | rule "operators do not include resolve/"
grep -rnE 'include "(\.\./)+ops/' src/transform src/load src/config | rule "transform, load and config do not include ops/"
grep -rnE 'include "(\.\./)+config/' src/emit src/load | rule "emit and load do not include config/"
grep -rnE 'strcmp\([^;]*"[A-Z][A-Z0-9_]*_[A-Z0-9_]*"' src/resolve src/plan | rule "resolve and plan compare no operator names as strings"
grep -nE '^static [^=]*\b(bin_walk|bcast_run|cmp_walk)\b' runtime/kernels/*.c | rule "runtime kernels share one broadcast walker (ta_bcast.h)"
for k in ta_binary.c ta_compare.c; do
  grep -q '#include "ta_bcast.h"' "runtime/kernels/$k" || echo "runtime/kernels/$k: does not include ta_bcast.h"
done | rule "binary and compare kernels walk broadcasts with ta_bcast.h"
# tests/suites/README: each suite names itself after its file and prints its results through
# suite_lib.sh's pass / fail / skip (no pass() of its own, no result line of its own)
for s in tests/suites/*.sh; do
  grep -qE "^(suite_setup|tier_setup) $(basename "$s" .sh)( |\$)" "$s" || echo "$s: no suite_setup $(basename "$s" .sh)"
  grep -nE '^[[:space:]]*(pass|fail|skip)[[:space:]]*\(\)|echo "(PASS|FAIL|SKIP) ' "$s" | sed "s|^|$s:|"
done | rule "every suite reports through tests/suite_lib.sh, named after its file"

if sh tools/check_layering.sh >"$work/layering.log" 2>&1; then
  pass " tools/check_layering.sh (transform helpers stay in transform and cli)"
else
  fail " tools/check_layering.sh" "counts:"; sed 's/^/    /' "$work/layering.log" | head -n 20; status=1
fi
if python3 tools/check_file_cycles.py "$build" >"$work/cycles.log" 2>&1; then
  pass " no call cycle between compiler source files"
else
  fail " call cycles between source files" "tools/check_file_cycles.py:"; sed 's/^/    /' "$work/cycles.log" | head -n 20; status=1
fi
exit $status
