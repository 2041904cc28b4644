#!/bin/sh
# Counts the include and call arrows that run against the layering rule of
# docs/architecture.md ("Dependency rule"); each count must be 0. Exits 1 if one is not.
# usage: tools/check_layering.sh [REPO_ROOT]   (prints "name: count", offenders below)
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/check_layering.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Every quoted include of src/, as "<including file> <included file>", both relative to
# the root (the included path resolved against the including file's folder).
grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' src --include='*.c' --include='*.h' |
  sed -E 's/^([^:]+):[0-9]+:[^"]*"([^"]+)".*/\1 \2/' |
  while read -r file inc; do
    printf '%s %s\n' "$file" "$(realpath -m --relative-to=. "$(dirname "$file")/$inc")"
  done >"$work/includes"

status=0
# count NAME FILE: prints the count of FILE's lines, and the lines themselves.
count() {
  n=$(wc -l <"$2" | tr -d ' ')
  echo "$1: $n"
  [ "$n" = 0 ] || { sed 's/^/  /' "$2"; status=1; }
}

# 1. operators include resolve/ (they sit beneath it)
grep -E '^src/ops/[^ ]* src/resolve/' "$work/includes" >"$work/c1" || true
count "ops including resolve" "$work/c1"

# 2. files outside src/transform and src/cli using transform helpers: including a
# transform header, or calling a function src/transform/transform.h declares
grep -E '^src/[^ ]* src/transform/' "$work/includes" | grep -vE '^src/(transform|cli)/' | cut -d' ' -f1 >"$work/users" || true
grep -hE '^[A-Za-z].*\(' src/transform/*.h | sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]//' | sort -u >"$work/helpers"
if [ -s "$work/helpers" ]; then
  grep -rlwFf "$work/helpers" src --include='*.c' --include='*.h' | grep -vE '^src/(transform|cli)/' >>"$work/users" || true
fi
sort -u "$work/users" >"$work/c2"
count "files outside transform and cli using transform helpers" "$work/c2"

# 3. transform, load and config include ops (operators sit above them)
grep -E '^src/(transform|load|config)/[^ ]* src/ops/' "$work/includes" >"$work/c3" || true
count "transform/load/config including ops" "$work/c3"

# 4. emit and load include config (they get what config says as plain data)
grep -E '^src/(emit|load)/[^ ]* src/config/' "$work/includes" >"$work/c4" || true
count "emit/load including config" "$work/c4"

# 5. operators include only ir, common, platform, the emit API and each other
grep -E '^src/ops/' "$work/includes" | grep -vE ' (src/(ops|ir|common|platform)/|src/emit/emit_api\.h$|runtime/kernels/)' >"$work/c5" || true
count "ops including outside ir, common, platform and emit_api.h" "$work/c5"

exit $status
