#!/bin/sh
# On-target tests: every model of CORPUS/models and every case of CORPUS/found, case 0, on QEMU mps2-an386 (Cortex-M4,
# module built with its Makefile) and mps3-an547 (Cortex-M55, module built with CMake and
# its toolchain file), outputs compared with the golden as the manifest says (exact, or
# float32 within 1e-5*max(1,|b|)); plus self-checks of the harness and the instruction
# counter, and kws/vww with the kernels' general fallback loops in place of the tuned ones
# (docs/kernels.md). One line per check: PASS / FAIL ...: reason / SKIP ...: reason (SKIP only
# when the compiler reports an unsupported operator, as tests/corpus_case.sh does).
# Missing cross tools are installed with apt-get when running as root; otherwise the
# script prints the install command and fails: target tests are never silently skipped.
# usage: tests/run_target_tests.sh BUILD_DIR CORPUS_DIR
#   KEEP=1 keeps the work directory; TARGET_MODELS="ad kws" runs only those models.
#   Operator cases (case 0 of each): by default the int8 operators that have DSP/MVE
#   tiers (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB) and the int16x8 CONV_2D,
#   DEPTHWISE_CONV_2D and FULLY_CONNECTED cases; TARGET_OPS=all runs every
#   op directory of the corpus, ops/ and ops-new/ (`make test-full`), TARGET_OPS=none none,
#   TARGET_OPS="equal_* less_int8_*" the op directories matching those shell patterns.
#   TARGET_TINYAOT_ARGS="--memory.optimize max" converts the models and op cases with these
#   options appended (their labels name them); the self-checks and fallback loops then stay out.
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh" # contract_mask

build=${1:-build}
corpus=${2:-../shared/corpus}
case "$build" in /*) ;; *) build="$(pwd)/$build" ;; esac
case "$corpus" in /*) ;; *) corpus="$(pwd)/$corpus" ;; esac
work="${TMPDIR:-/tmp}/tinyaot-target-$$"

ta_ensure_packages || exit 1
if [ ! -x "$build/tinyaot" ]; then
  echo "error: $build/tinyaot is missing (run make first)" >&2
  exit 1
fi
if [ ! -d "$corpus/models" ]; then
  echo "error: no corpus at $corpus/models" >&2
  exit 1
fi
mkdir -p "$work"
# the models' and op cases' compiler: tinyaot itself, or a wrapper appending TARGET_TINYAOT_ARGS
model_tinyaot="$build/tinyaot" label_suffix=""
if [ -n "${TARGET_TINYAOT_ARGS:-}" ]; then
  model_tinyaot="$work/tinyaot_args"
  printf '#!/bin/sh\nexec "%s" "$@" %s\n' "$build/tinyaot" "$TARGET_TINYAOT_ARGS" >"$model_tinyaot"
  chmod +x "$model_tinyaot"
  label_suffix="[$(echo "$TARGET_TINYAOT_ARGS" | tr " " ",")]"
fi
compare="$build/compare"
if [ ! -x "$compare" ]; then
  ${CC:-cc} -std=c11 -O1 "$TA_ROOT/tests/tools/compare.c" -o "$work/compare" -lm || exit 1
  compare="$work/compare"
fi
plugin=$(ta_build_plugin "$build/target") || { echo "error: cannot build the QEMU plugin" >&2; exit 1; }

results="$work/results"
: >"$results"
say() { echo "$1"; echo "$1" >>"$results"; }

# ---- self-checks: encoding classifier, and exact counts of a known instruction sequence ----
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 "$TA_ROOT/target/qemu_plugin/classify_test.c" -o "$work/classify_test" \
     >"$work/classify.log" 2>&1 && "$work/classify_test" >>"$work/classify.log" 2>&1; then
  say "PASS target-plugin:mve-classify"
else
  say "FAIL target-plugin:mve-classify: $(grep -m1 -v passed "$work/classify.log")"
fi

arch_flags() {
  case "$1" in
    m4) echo "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb" ;;
    m55) echo "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb" ;;
  esac
}

probe_check() { # core: the probe module's model_run has a known count (target/selftest/expected.txt)
  core=$1
  d="$work/probe-$core"
  mkdir -p "$d/case"
  printf 'tinyaot target!!' >"$d/case/in0.bin"
  sel="$TA_ROOT/target/selftest"
  if ! { arm-none-eabi-gcc $(arch_flags "$core") -O2 -Wall -Wextra -Werror -c "$sel/probe.c" -o "$d/probe.o" &&
         arm-none-eabi-gcc $(arch_flags "$core") -c "$sel/probe_run.S" -o "$d/probe_run.o" &&
         arm-none-eabi-ar rcs "$d/libprobe.a" "$d/probe.o" "$d/probe_run.o"; } >"$d/build.log" 2>&1; then
    echo "FAIL target-$core:probe: build: $(grep -m1 -i error "$d/build.log")"
    return
  fi
  if ! sh "$TA_ROOT/target/run_case.sh" --core "$core" --name probe --lib "$d/libprobe.a" --include "$sel" \
       --case "$d/case" --out "$d/out" --plugin "$plugin" --repeat 2 >"$d/run.log" 2>&1; then
    echo "FAIL target-$core:probe: run_case.sh exit $? (see $d)"
    return
  fi
  want=$(sed -n "s/^$core //p" "$sel/expected.txt")
  got="insns=$(ta_get "$d/out/run/count.txt" insns) mve=$(ta_get "$d/out/run/count.txt" mve) loop_ends=$(ta_get "$d/out/run/count.txt" loop_ends)"
  if [ "$got" != "$want" ]; then
    echo "FAIL target-$core:probe: counted $got, expected $want"
  elif ! cmp -s "$d/out/run/out0.bin" "$d/case/in0.bin"; then
    echo "FAIL target-$core:probe: output bytes differ from the input"
  else
    echo "PASS target-$core:probe"
  fi
}
for core in m4 m55; do say "$(probe_check $core)"; done

# ---- every corpus model, case 0, on both machines --------------------------------------------
reason_of() { # first error-looking line of a log
  r=$(grep -m1 -i -E 'error|undefined|overflow' "$1" 2>/dev/null | sed 's/^tinyaot: error: [^:]*: //')
  [ -n "$r" ] || r=$(tail -n 2 "$1" 2>/dev/null | tr '\n' ' ')
  echo "$r"
}

exit_meaning() {
  case "$1" in
    124) echo "timed out" ;;
    2) echo "model_init failed" ;;
    3) echo "model_run failed" ;;
    4) echo "inputs do not match the model" ;;
    5) echo "semihosting write failed" ;;
    6) echo "stack overflow" ;;
    6[4-9]|7[0-9]) echo "fault (exception $(($1 - 64)))" ;;
    *) echo "exit code $1" ;;
  esac
}

# ---- the modules build with GCC and clang at every usual optimisation level -------------------
# The DSP/MVE kernels hold inline assembly whose register needs depend on the optimisation
# level and the frame pointer; every module source of kws and ic (conv, depthwise, fully
# connected, pooling, softmax) must compile warning-free for both cores.
flags_check() { # core
  core=$1
  d="$work/flags-$core"
  mkdir -p "$d"
  label="target-$core:compile-flags"
  fails=0 n=0
  for model in kws ic; do
    [ -f "$corpus/models/$model/model.tflite" ] || continue
    "$build/tinyaot" convert "$corpus/models/$model/model.tflite" --platform "cortex-$core" -o "$d/$model" --prefix "$model" \
      >"$d/$model.convert.log" 2>&1 || { echo "FAIL $label: convert $model: $(reason_of "$d/$model.convert.log")"; return; }
    fp_define="-D$(echo "$model" | tr a-z A-Z)_TA_NO_WIDE_ASM"
    for cc in gcc clang; do
      for level in -O0 -Os -O2 -O3 "-O2 -fno-omit-frame-pointer"; do
        extra=""
        case "$level" in *frame-pointer*) extra=$fp_define ;; esac
        for f in "$d/$model"/src/*.c; do
          case "$f" in *_weights.c) continue ;; esac # tables only
          n=$((n + 1))
          if [ "$cc" = gcc ]; then
            set -- arm-none-eabi-gcc $(arch_flags "$core")
          else
            set -- clang --target=arm-none-eabi $(arch_flags "$core") -isystem /usr/lib/arm-none-eabi/include
          fi
          # shellcheck disable=SC2086
          if ! "$@" $level $extra -std=c99 -Wall -Wextra -Werror -I"$d/$model/include" -I"$d/$model/src" -c "$f" \
               -o "$d/x.o" >"$d/err.log" 2>&1; then
            fails=$((fails + 1))
            [ $fails -le 3 ] && echo "FAIL $label: $cc $level $(basename "$f"): $(grep -m1 -i error "$d/err.log")"
          fi
        done
      done
    done
  done
  [ $fails -eq 0 ] && echo "PASS $label ($n compilations: gcc and clang, -O0 -Os -O2 -O3, frame pointer)"
}
if [ -z "${TARGET_TINYAOT_ARGS:-}" ]; then
  flags_check m4 >"$work/line.m4" &
  flags_check m55 >"$work/line.m55" &
  wait
  while read -r line; do say "$line"; done <"$work/line.m4"
  while read -r line; do say "$line"; done <"$work/line.m55"
fi

# ---- the kernels' fallback loops ---------------------------------------------------------------
# A module's src/ta_config.h names the specialised loops its layers call (docs/kernels.md);
# a loop left out must fall back to a general one with the same outputs. Here the masks
# leave out nearly everything: depthwise MVE none (plain C loops over the MVE tables),
# depthwise DSP only CLAMP (and the row-pair and classic forms' code, bits 3 and 4: their layers need it), gemm MVE only the mode with left shift and negative fix and no
# byte-offset gathers. kws and vww (3x3 depthwise with borders, stride 2, 1x1 and 3x3 convs,
# FULLY_CONNECTED) must stay exact on both cores; so must a build with a frame pointer
# (-fno-omit-frame-pointer: the C equivalents of the widest asm loops, TA_NO_WIDE_ASM).
fallback_check() { # core model
  core=$1 model=$2
  dir="$corpus/models/$model"
  label="target-$core:fallback-loops/$model"
  [ -f "$dir/model.tflite" ] || { echo "SKIP $label: no model in the corpus"; return; }
  d="$work/fallback-$core-$model"
  mkdir -p "$d"
  platform=cortex-$core
  if ! "$build/tinyaot" convert "$dir/model.tflite" --platform "$platform" -o "$d/tuned" --name fb --prefix fb \
       >"$d/convert.log" 2>&1; then
    echo "FAIL $label: convert: $(reason_of "$d/convert.log")"
    return
  fi
  grep -q VARIANTS "$d/tuned/src/ta_config.h" || { echo "FAIL $label: ta_config.h names no kernel variants"; return; }
  cp -R "$d/tuned" "$d/fallback"
  cp -R "$d/tuned" "$d/framepointer"
  printf '%s\n' '#ifndef FB_TA_CONFIG_H' '#define FB_TA_CONFIG_H' '#define FB_TA_DEPTHWISE_CONV_MVE_VARIANTS 0x0u' \
    "#define FB_TA_DEPTHWISE_CONV_DSP_VARIANTS $(printf 0x%xu "$(contract_mask TA_DW_DSP_CLAMP TA_DW_DSP_ROWPAIR_BIT \
      TA_DW_DSP_CLASSIC_BIT)")" \
    "#define FB_TA_GEMM_MVE_VARIANTS $(printf 0x%xu "$(contract_mask "TA_GEMM_MVE_MODE(TA_GEMM_MVE_CONV_BIT, 1, 1)")")" \
    "#define FB_TA_POOLING_VARIANTS $(printf 0x%xu "$(contract_mask TA_POOL_AVG_GENERIC_BIT)")" '#endif' \
    >"$d/fallback/src/ta_config.h"
  for v in tuned fallback framepointer; do
    flags=-O2
    [ "$v" = framepointer ] && flags="-O2 -fno-omit-frame-pointer" # the Makefile then drops the widest asm loops
    if ! make -C "$d/$v" TARGET="$platform" CFLAGS="$flags" >"$d/$v.build.log" 2>&1; then
      echo "FAIL $label: $v module build: $(reason_of "$d/$v.build.log")"
      return
    fi
    if ! sh "$TA_ROOT/target/run_case.sh" --core "$core" --name fb --lib "$d/$v/libfb.a" --include "$d/$v/include" \
         --case "$dir/case_0" --out "$d/$v.out" --plugin "$plugin" >"$d/$v.run.log" 2>&1; then
      echo "FAIL $label: $v: run_case.sh failed (see $d)"
      return
    fi
    for g in "$dir"/case_0/out*.bin; do
      if ! msg=$("$compare" exact "$g" "$d/$v.out/run/$(basename "$g")" 2>&1); then
        echo "FAIL $label: $v: $(basename "$g"): $msg"
        return
      fi
    done
  done
  tuned=$(ta_get "$d/tuned.out/run/count.txt" insns)
  fallback=$(ta_get "$d/fallback.out/run/count.txt" insns)
  # the general loops do more work: equal counts would mean the masks changed nothing
  if [ -z "$tuned" ] || [ -z "$fallback" ] || [ "$fallback" -le "$tuned" ]; then
    echo "FAIL $label: instructions with the fallback loops ${fallback:-?}, with the tuned ones ${tuned:-?}: expected more"
    return
  fi
  echo "PASS $label (exact, also with a frame pointer; $fallback instructions against $tuned)"
}
for model in kws vww; do
  [ -z "${TARGET_TINYAOT_ARGS:-}" ] || break # the fallback loops are checked with the default options
  if [ -n "$TARGET_MODELS" ]; then case " $TARGET_MODELS " in *" $model "*) ;; *) continue ;; esac; fi
  fallback_check m4 "$model" >"$work/line.m4" &
  fallback_check m55 "$model" >"$work/line.m55" &
  wait
  say "$(cat "$work/line.m4")"
  say "$(cat "$work/line.m55")"
done

run_model() { # dir core
  dir=$1 core=$2
  model=$(basename "$dir")
  label="target-$core:$(basename "$(dirname "$dir")")/$model$label_suffix"
  name=$(echo "$model" | tr -c 'A-Za-z0-9_\n' '_')
  case "$name" in [0-9]*) name="m_$name" ;; esac
  [ ${#name} -le 32 ] || name=op_case # module names are C identifiers of at most 32 characters
  out="$work/$core/$model"
  how=make
  [ "$core" = m55 ] && how=cmake
  rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$core" --name "$name" --model "$dir/model.tflite" --case "$dir/case_0" \
    --out "$out" --tinyaot "$model_tinyaot" --build "$how" --plugin "$plugin" >"$work/$core.$model.log" 2>&1 || rc=$?
  case $rc in
    0) ;;
    10) r=$(reason_of "$out/convert.log")
        case "$r" in *"unsupported operator"*) echo "SKIP $label: $r"; rm -rf "$out"; return ;; esac
        echo "FAIL $label: convert: $r"; return ;;
    11) echo "FAIL $label: module build ($how): $(reason_of "$out/build.log")"; return ;;
    12) echo "FAIL $label: link: $(reason_of "$out/link.log")"; return ;;
    13) echo "FAIL $label: QEMU: $(exit_meaning "$(cat "$out/run/exit_code")") $(grep -m1 -E 'harness|error' "$out/run/qemu.log")"; return ;;
    *) echo "FAIL $label: run_case.sh exit $rc: $(tail -n 1 "$work/$core.$model.log")"; return ;;
  esac
  mode=exact
  grep -q '"compare": *"float32' "$dir/manifest.json" && mode=float32
  for g in "$dir"/case_0/out*.bin; do
    o="$out/run/$(basename "$g")"
    if ! msg=$("$compare" "$mode" "$g" "$o" 2>&1); then
      echo "FAIL $label: $(basename "$g"): $msg"
      return
    fi
  done
  windows=$(ta_get "$out/run/count.txt" windows)
  if [ "$windows" != 1 ]; then
    echo "FAIL $label: the instruction counter saw ${windows:-no} measurement windows, expected 1"
    return
  fi
  echo "PASS $label"
  rm -rf "$out"
}

# the optimised tiers' operators; `make test-full` runs them all
op_selected() { # op directory name
  default=tiers
  [ -n "$TARGET_MODELS" ] && default=none # a model selection runs only those models
  case "${TARGET_OPS:-$default}" in
    all) return 0 ;;
    none) return 1 ;;
    tiers) ;;
    *) for p in $TARGET_OPS; do
         # shellcheck disable=SC2254
         case "$1" in $p) return 0 ;; esac
       done
       return 1 ;;
  esac
  case "$1" in conv_2d_int8_*|depthwise_conv_2d_int8_*|fully_connected_int8_*|add_int8_*|sub_int8_*) return 0 ;; esac
  case "$1" in conv_2d_int16_*|depthwise_conv_2d_int16_*|fully_connected_int16_*) return 0 ;; esac # int16x8 tiers
  return 1
}

for dir in "$corpus"/models/*/ "$corpus"/found/*/ "$corpus"/ops/*/ "$corpus"/ops-new/*/; do
  dir=${dir%/}
  [ -f "$dir/model.tflite" ] || continue
  model=$(basename "$dir")
  kind=$(basename "$(dirname "$dir")")
  if [ "$kind" = ops ] || [ "$kind" = ops-new ]; then
    op_selected "$model" || continue
  elif [ -n "$TARGET_MODELS" ]; then
    case " $TARGET_MODELS " in *" $model "*) ;; *) continue ;; esac
  fi
  # the two machines in parallel (this machine has two cores)
  run_model "$dir" m4 >"$work/line.m4" &
  run_model "$dir" m55 >"$work/line.m55" &
  wait
  say "$(cat "$work/line.m4")"
  say "$(cat "$work/line.m55")"
done

passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
skipped=$(grep -c '^SKIP' "$results")
echo "target: $passed passed, $failed failed, $skipped skipped"
if [ "$failed" -eq 0 ] && [ -z "$KEEP" ]; then
  rm -rf "$work"
elif [ "$failed" -ne 0 ]; then
  echo "work directory kept: $work"
fi
[ "$failed" -eq 0 ]
