#!/bin/sh
# Compiles the module of every corpus model (and, with OBJECT_SNAPSHOT_OPS=1, every op case)
# for Cortex-M4 and Cortex-M55 with arm-none-eabi-gcc -O2, and the host module with cc -O2,
# and writes one line per object: "<platform> <kind>/<case> <object> <sha256 of the object
# without debug sections>". It proves that edits to the shipped kernel sources (a contract
# header, moved #defines, comments) changed no machine code.
# usage: tools/snapshot/object_snapshot.sh OUT.txt [BUILD_DIR] [CORPUS]
set -eu
out=$1
build=${2:-build}
corpus=${3:-../shared/corpus}
platforms=${SNAPSHOT_PLATFORMS:-host cortex-m4 cortex-m55}
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-objsnap.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
dirs="$corpus/models/*"
[ "${OBJECT_SNAPSHOT_OPS:-0}" = 1 ] && dirs="$dirs $corpus/ops/* $corpus/ops-new/* $corpus/found/*"
: >"$out"
for p in $platforms; do
  case $p in
    host) cc=${HOST_CC:-cc}; strip=strip; flags="-O2" ;;
    cortex-m4) cc=arm-none-eabi-gcc; strip=arm-none-eabi-strip
      flags="-O2 -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb -ffunction-sections -fdata-sections" ;;
    cortex-m55) cc=arm-none-eabi-gcc; strip=arm-none-eabi-strip
      flags="-O2 -mcpu=cortex-m55 -mfloat-abi=hard -mthumb -ffunction-sections -fdata-sections" ;;
    *) echo "object_snapshot: unknown platform $p" >&2; exit 2 ;;
  esac
  for d in $dirs; do
    [ -f "$d/model.tflite" ] || continue
    name="$(basename "$(dirname "$d")")/$(basename "$d")"
    m="$work/m"
    rm -rf "$m"
    if ! "$build/tinyaot" convert "$d/model.tflite" -o "$m" --platform "$p" >"$work/log" 2>&1; then
      echo "$p $name - refused" >>"$out"
      continue
    fi
    for c in "$m"/src/*.c; do
      o="$work/$(basename "$c" .c).o"
      # shellcheck disable=SC2086
      if ! $cc -std=c99 $flags -I"$m/include" -I"$m/src" -c "$c" -o "$o" 2>"$work/cc.log"; then
        echo "$p $name $(basename "$c") compile-failed" >>"$out"
        continue
      fi
      $strip --strip-debug "$o"
      echo "$p $name $(basename "$c" .c).o $(sha256sum <"$o" | cut -c1-16)" >>"$out"
    done
  done
done
echo "object_snapshot: $(wc -l <"$out") objects -> $out"
