# Shared steps of the kernel-tier suites (tests/suites/*_tiers_m4.sh, *_tiers_m55.sh): convert
# for a core, read and rewrite a module's variant masks, build and run on QEMU against the
# golden, bare-metal kernel checks, generated layers, per-operator instruction limits; so that
# each suite states only its layers, masks and limits. Source it with TA_ROOT set (the
# repository root); it sources target/lib.sh and tests/suite_lib.sh. Every step that fails
# prints why on stdout and returns 1; the caller prints the FAIL line with its check's name.
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"

# tier_setup NAME BUILD CORPUS WORKDIR: suite_setup; a FAIL line and the end of the suite when the
# work folder cannot be made.
tier_setup() {
  suite_setup "$@" || { fail setup "no work folder"; exit 0; }
}

# tier_need_cross fail|skip CHECK: ends the suite with a FAIL (or SKIP) line of CHECK when the
# cross tools are missing (ta_ensure_packages installs them as root).
tier_need_cross() {
  ta_ensure_packages >/dev/null 2>&1 && return 0
  "$1" "$2" "cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"
  exit 0
}

# tier_need_plugin DIR: sets plugin to the instruction-counting QEMU plugin, built into DIR; ends
# the suite with a FAIL line when it does not build.
tier_need_plugin() {
  # shellcheck disable=SC2034 # plugin: the suites pass it to run_case.sh
  plugin=$(ta_build_plugin "$1") && return 0
  fail plugin "the QEMU instruction-counting plugin does not build"
  exit 0
}

# tier_platform CORE: the --platform of CORE (m4, m55).
tier_platform() {
  case "$1" in m4) echo cortex-m4 ;; m55) echo cortex-m55 ;; esac
}

# tier_convert CORE MODEL OUT NAME [convert options]: converts MODEL (a .tflite) for CORE into
# OUT with name and prefix NAME (log OUT.convert.log); prints the first error line on failure.
tier_convert() {
  tc_core=$1 tc_model=$2 tc_out=$3 tc_name=$4
  shift 4
  mkdir -p "$(dirname "$tc_out")"
  "$build/tinyaot" convert "$tc_model" --platform "$(tier_platform "$tc_core")" -o "$tc_out" --name "$tc_name" \
    --prefix "$tc_name" "$@" >"$tc_out.convert.log" 2>&1 && return 0
  grep -m1 error "$tc_out.convert.log"
  return 1
}

# tier_mask CONFIG FAMILY: the variant mask of kernel family FAMILY (GEMM_DSP, DEPTHWISE_CONV_MVE,
# S16_DSP, ...) in a module's ta_config.h CONFIG, as written there (0x...); nothing when absent.
tier_mask() {
  sed -n "s/^#define \([A-Za-z0-9_]*_\)\{0,1\}TA_$2_VARIANTS \(0x[0-9a-fA-F]*\)u.*/\2/p" "$1" 2>/dev/null | head -n 1
}

# tier_mask_has CONFIG FAMILY BIT 1|0: whether FAMILY's mask in CONFIG has the variant bit BIT (a
# name of the contract headers, see contract_bit) set (1) or clear (0); false without a mask.
tier_mask_has() {
  th_m=$(tier_mask "$1" "$2")
  [ -n "$th_m" ] && [ $(( (th_m >> $(contract_bit "$3")) & 1 )) -eq "$4" ]
}

# tier_config CONFIG PREFIX [FAMILY MASK]...: replaces a module's ta_config.h CONFIG (prefix PREFIX,
# upper case) by one naming only these masks (an empty MASK is left out): the other families then
# compile all their variants.
tier_config() {
  tg_file=$1 tg_p=$2
  shift 2
  {
    echo "#ifndef ${tg_p}_TA_CONFIG_H"
    echo "#define ${tg_p}_TA_CONFIG_H"
    while [ $# -ge 2 ]; do
      [ -n "$2" ] && printf '#define %s_TA_%s_VARIANTS 0x%xu\n' "$tg_p" "$1" "$(($2))"
      shift 2
    done
    echo "#endif"
  } >"$tg_file"
}

# tier_run CORE CASE OUT [run_case.sh options]: runs case folder CASE on QEMU CORE through
# target/run_case.sh into OUT (log OUT.log); prints why and returns 1 unless it ran and every
# output equals CASE's golden.
tier_run() {
  tr_core=$1 tr_case=$2 tr_out=$3
  shift 3
  tr_rc=0
  sh "$TA_ROOT/target/run_case.sh" --core "$tr_core" --case "$tr_case" --out "$tr_out" "$@" >"$tr_out.log" 2>&1 ||
    tr_rc=$?
  if [ $tr_rc -ne 0 ]; then
    echo "run_case.sh exit $tr_rc ($(grep -m1 -i error "$tr_out.log" "$tr_out"/*.log 2>/dev/null | head -n 1))"
    return 1
  fi
  if tr_bad=$(ta_golden_mismatch "$tr_case" "$tr_out/run"); then :; else
    echo "$tr_bad differs from the golden"
    return 1
  fi
}

# tier_module_run CORE MODULE NAME CASE OUT FLAGS [run_case.sh options]: builds the converted
# module MODULE (library libNAME.a) for CORE with CFLAGS=FLAGS (log OUT.build.log) and runs case
# folder CASE through it (tier_run into OUT).
tier_module_run() {
  tm_core=$1 tm_mod=$2 tm_name=$3 tm_case=$4 tm_out=$5 tm_flags=$6
  shift 6
  if ! make -C "$tm_mod" TARGET="$(tier_platform "$tm_core")" CFLAGS="$tm_flags" >"$tm_out.build.log" 2>&1; then
    echo "module build with $tm_flags failed (see $tm_out.build.log)"
    return 1
  fi
  tier_run "$tm_core" "$tm_case" "$tm_out" --name "$tm_name" --lib "$tm_mod/lib$tm_name.a" \
    --include "$tm_mod/include" "$@"
}

# tier_image_check CHECK CORE DIR WHAT FLAGS FILE... [--ref REF_CORE REF_FLAGS REF_FILE...]: a
# bare-metal check (one of FILE prints checked=N and mismatches=M) built in DIR for CORE: the
# target's startup and semihosting with FILE... (paths below the repository root), each compiled
# with FLAGS as well, and REF_FILE... compiled again for REF_CORE (m4, m55, m55-nomve) with
# REF_FLAGS (the reference side, its functions renamed there); run on QEMU. Prints PASS CHECK
# (N WHAT) when it exits 0 with no mismatch, else FAIL; returns 0 on PASS.
tier_image_check() {
  ti_check=$1 ti_core=$2 ti_d=$3 ti_what=$4 ti_flags=$5
  shift 5
  ti_common="$TA_ROOT/target/common" ti_log="$ti_d/build.log"
  case "$ti_core" in
    m4) ti_machine=mps2-an386 ;;
    *) ti_machine=mps3-an547 ;;
  esac
  mkdir -p "$ti_d" && : >"$ti_log"
  # shellcheck disable=SC2046 # tier_arch: several words
  arm-none-eabi-gcc $(tier_arch "$ti_core") -I"$ti_common" -c "$ti_common/startup.S" -o "$ti_d/startup_s.o" \
    >>"$ti_log" 2>&1 &&
    tier_objects "$ti_d" "" "$ti_core" "$ti_flags" "$ti_common/startup.c" "$ti_common/semihost.c" >>"$ti_log" 2>&1
  ti_ok=$? ti_p="" ti_c=$ti_core ti_f=$ti_flags
  while [ $# -gt 0 ] && [ $ti_ok = 0 ]; do
    if [ "$1" = --ref ]; then
      ti_p=ref_ ti_c=$2 ti_f=$3
      shift 3
      continue
    fi
    tier_objects "$ti_d" "$ti_p" "$ti_c" "$ti_f" "$TA_ROOT/$1" >>"$ti_log" 2>&1 || ti_ok=1
    shift
  done
  # shellcheck disable=SC2046
  if [ $ti_ok != 0 ] || ! arm-none-eabi-gcc $(tier_arch "$ti_core") -nostartfiles -Wl,--gc-sections \
       -L"$TA_ROOT/target" -L"$ti_common" -T"$TA_ROOT/target/$ti_machine.ld" "$ti_d"/*.o -lm -o "$ti_d/image.elf" \
       >>"$ti_log" 2>&1; then
    fail "$ti_check" "build ($(grep -m1 error "$ti_log"))"
    return 1
  fi
  ti_rc=0
  (cd "$ti_d" && exec timeout 300 qemu-system-arm -M "$ti_machine" -nodefaults -display none -monitor none \
    -serial null -semihosting-config enable=on,target=native -kernel image.elf) >"$ti_d/run.log" 2>&1 || ti_rc=$?
  ti_n=$(sed -n 's/^checked=//p' "$ti_d/run.log") ti_bad=$(sed -n 's/^mismatches=//p' "$ti_d/run.log")
  if [ $ti_rc -ne 0 ] || [ "$ti_bad" != 0 ] || [ -z "$ti_n" ]; then
    fail "$ti_check" "exit $ti_rc, ${ti_bad:-?} mismatches in ${ti_n:-?} checked"
    return 1
  fi
  pass "$ti_check ($ti_n $ti_what)"
}

# tier_arch CORE: the cross compiler's flags for CORE (m4, m55, m55-nomve: the same core without MVE).
tier_arch() {
  case "$1" in
    m4) echo "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb" ;;
    m55) echo "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb" ;;
    m55-nomve) echo "-mcpu=cortex-m55+nomve -mfloat-abi=hard -mthumb" ;;
  esac
}

# tier_objects DIR PREFIX CORE FLAGS FILE...: compiles each C FILE for CORE, freestanding C99
# at -O2 with warnings as errors and the target's and the kernels' headers, and FLAGS, into
# DIR/PREFIX<name>.o.
# shellcheck disable=SC2086,SC2046 # flags: several words or none
tier_objects() {
  to_d=$1 to_p=$2 to_core=$3 to_flags=$4
  shift 4
  for to_f in "$@"; do
    arm-none-eabi-gcc $(tier_arch "$to_core") -O2 -std=c99 -Wall -Wextra -Werror -ffreestanding -ffunction-sections \
      -fdata-sections -I"$TA_ROOT/target/common" -I"$TA_ROOT/runtime/kernels" $to_flags -c "$to_f" \
      -o "$to_d/$to_p$(basename "$to_f" .c).o" || return 1
  done
}

# tier_generator: builds fuzz_diff_gen (tools/fuzz_diff) into gen=$work/fuzz_diff_gen and sets
# oracle to TensorFlow Lite Micro's reference runner (shared/oracle/tflm_ref); prints SKIP gen
# (no runner) or FAIL gen (no generator) and returns 1 when generated layers cannot be checked.
tier_generator() {
  oracle="$corpus/../oracle/tflm_ref" gen="$work/fuzz_diff_gen"
  if [ ! -x "$oracle" ]; then
    skip gen "oracle absent ($oracle)"
    return 1
  fi
  if ! ${CC:-cc} -std=c11 -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
       "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1; then
    fail gen "cannot build the generator"
    return 1
  fi
}

# tier_gen_case GEN_KIND SEED DIR ARGS...: a generated one-operator model (`$gen KIND SEED DIR
# ARGS`) and its case 0 golden from the reference runner ($oracle); prints why on failure.
tier_gen_case() {
  tn_kind=$1 tn_seed=$2 tn_dir=$3
  shift 3
  if ! "$gen" "$tn_kind" "$tn_seed" "$tn_dir" "$@" >/dev/null 2>&1 ||
     ! "$oracle" "$tn_dir/model.tflite" --in "$tn_dir/case_0/in0.bin" --out-dir "$tn_dir/case_0" --quiet \
       >"$tn_dir/ref.log" 2>&1; then
    echo "generator or oracle failed"
    return 1
  fi
}

# tier_model_generator TOOL: builds the model generator tools/TOOL/TOOL.c into gen=$work/TOOL and
# sets oracle to the reference runner; ends the suite with SKIP oracle (no runner) or FAIL gen
# (the generator does not build).
tier_model_generator() {
  oracle="$corpus/../oracle/tflm_ref" gen="$work/$1"
  [ -x "$oracle" ] || { skip oracle "absent ($oracle)"; exit 0; }
  if ! ${CC:-cc} -std=c11 -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/$1/$1.c" "$TA_ROOT/tools/fbwriter.c" \
       -o "$gen" -lm >"$work/gen.log" 2>&1; then
    fail gen "cannot build tools/$1"
    exit 0
  fi
}

# tier_model_case DIR SEED SPEC...: a model of several operators from tier_model_generator's
# generator (`$gen SEED DIR SPEC...`) and its case 0 golden from the reference runner, every
# input in order; prints why on failure.
tier_model_case() {
  tc_dir=$1 tc_seed=$2
  shift 2
  "$gen" "$tc_seed" "$tc_dir" "$@" >"$tc_dir.gen.log" 2>&1 || { echo "generator failed"; return 1; }
  tc_n=$(ls "$tc_dir"/case_0/in*.bin | wc -l)
  set -- # the inputs, in order
  tc_i=0
  while [ $tc_i -lt "$tc_n" ]; do set -- "$@" --in "$tc_dir/case_0/in$tc_i.bin"; tc_i=$((tc_i + 1)); done
  "$oracle" "$tc_dir/model.tflite" "$@" --out-dir "$tc_dir/case_0" --quiet >"$tc_dir.ref.log" 2>&1 ||
    { echo "oracle failed: $(tail -n 1 "$tc_dir.ref.log")"; return 1; }
}

# tier_kernel_choice MODEL OP NAME COUNT PLATFORM:KERNEL...: converts MODEL (a .tflite) for each
# PLATFORM with name NAME; PASS choice_PLATFORM when all COUNT operators OP call NAME_KERNEL.
tier_kernel_choice() {
  kc_model=$1 kc_op=$2 kc_name=$3 kc_count=$4
  shift 4
  for kc_target in "$@"; do
    kc_plat=${kc_target%%:*} kc_kernel=${kc_target#*:}
    kc_opt=""
    [ "$kc_plat" = host ] || kc_opt="--platform $kc_plat"
    # shellcheck disable=SC2086 # no option for the host
    if ! "$build/tinyaot" convert "$kc_model" $kc_opt -o "$work/conv_$kc_plat" --name "$kc_name" \
         >"$work/conv_$kc_plat.log" 2>&1; then
      fail "choice_$kc_plat" "convert failed: $(grep -m1 error "$work/conv_$kc_plat.log")"
    elif [ "$(grep -c "$kc_op, kernel ${kc_name}_$kc_kernel\$" "$work/conv_$kc_plat/src/${kc_name}_model.c")" -ne "$kc_count" ]; then
      fail "choice_$kc_plat" "the $kc_count ${kc_op}s do not all call $kc_kernel"
    else
      pass "choice_$kc_plat"
    fi
  done
}

# tier_op_insns CHECK LAYERS NOTE OP LIMIT [OP LIMIT]...: per-operator instruction counts of a
# run (LAYERS: run_case.sh --layers' layers.txt, "op instructions ..."): PASS CHECK when each
# operator OP ran at most LIMIT instructions (NOTE says what the limit stands for), else FAIL.
tier_op_insns() {
  ts_check=$1 ts_layers=$2 ts_note=$3 ts_got=""
  shift 3
  while [ $# -ge 2 ]; do
    ts_n=$(awk -v op="$1" '$1 == op { print $2 }' "$ts_layers")
    if [ -z "$ts_n" ]; then
      fail "$ts_check" "no count for operator $1 in layers.txt"
      return 1
    fi
    if [ "$ts_n" -gt "$2" ]; then
      fail "$ts_check" "operator $1 ran $ts_n instructions (limit $2, $ts_note)"
      return 1
    fi
    ts_got="${ts_got:+$ts_got, }$ts_n"
    shift 2
  done
  pass "$ts_check ($ts_got instructions)"
}

# tier_int16_cases: the corpus folders of the int16x8 tiers' suites: every a16w8 model and every
# int16 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED / ADD / SUB case (ops/ and ops-new/).
tier_int16_cases() {
  for tc_d in "$corpus"/models/*_a16w8 "$corpus"/ops/conv_2d_int16_* "$corpus"/ops/depthwise_conv_2d_int16_* \
              "$corpus"/ops/fully_connected_int16_* "$corpus"/ops-new/conv_2d_int16_* \
              "$corpus"/ops-new/depthwise_conv_2d_int16_* "$corpus"/ops-new/fully_connected_int16_* \
              "$corpus"/ops/add_int16_* "$corpus"/ops/sub_int16_* "$corpus"/ops-new/add_int16_* \
              "$corpus"/ops-new/sub_int16_*; do
    [ -f "$tc_d/model.tflite" ] && echo "$tc_d"
  done
}

# tier_calls MODULE_C WANT WHAT: whether the module source MODULE_C calls WANT (a fixed string;
# "!NAME": must not call NAME; "": nothing asked); prints why not (WHAT names the kernel kind).
tier_calls() {
  case "$2" in
    "") ;;
    !*) if grep -qF -- "${2#!}" "$1"; then
          echo "exact, but the module calls the $3 kernel (${2#!}) it must not use"
          return 1
        fi ;;
    *) if ! grep -qF -- "$2" "$1"; then
         echo "exact, but the module does not call the $3 kernel ($2)"
         return 1
       fi ;;
  esac
}

# tier_case_calls CORE DIR WANT KIND: case 0 of corpus folder DIR converted for CORE (module name
# t16), built and run on QEMU into $work/<DIR's name>: exact against the golden and calling WANT
# (tier_calls; KIND names the kernel kind in the message); prints the FAIL line of check <DIR's
# name> and returns 1 otherwise.
tier_case_calls() {
  tk_name=$(basename "$2") tk_out="$work/$(basename "$2")"
  if ! tk_why=$(tier_run "$1" "$2/case_0" "$tk_out" --name t16 --model "$2/model.tflite" --tinyaot "$build/tinyaot" \
       --build make) ||
     ! tk_why=$(tier_calls "$tk_out/module/src/t16_model.c" "$3" "$4"); then
    fail "$tk_name" "$tk_why"
    return 1
  fi
}

# tier_compile_matrix CHECK CORE MIN FP FLAGS FILE...: compiles each FILE that exists for CORE as
# C99 with warnings as errors, with arm-none-eabi-gcc and clang (those installed) at -O0, -Os, -O2
# and -O3 (FP "fp": each also with -fno-omit-frame-pointer), with -I<FILE's folder> and FLAGS;
# PASS CHECK (N compilations) when all compile and there were at least MIN, else FAIL.
# shellcheck disable=SC2086,SC2046 # flags: several words or none
tier_compile_matrix() {
  tx_check=$1 tx_core=$2 tx_min=$3 tx_fps=- tx_flags=$5 tx_fails="" tx_n=0
  [ "$4" = fp ] && tx_fps="- -fno-omit-frame-pointer"
  shift 5
  for tx_cc in arm-none-eabi-gcc clang; do
    command -v $tx_cc >/dev/null 2>&1 || continue
    tx_target=""
    [ $tx_cc = clang ] && tx_target="--target=arm-none-eabi -isystem /usr/lib/arm-none-eabi/include"
    for tx_opt in -O0 -Os -O2 -O3; do
      for tx_fp in $tx_fps; do
        [ "$tx_fp" = - ] && tx_fp=""
        for tx_f in "$@"; do
          [ -f "$tx_f" ] || continue
          tx_n=$((tx_n + 1))
          $tx_cc $tx_target $(tier_arch "$tx_core") -std=c99 -Wall -Wextra -Werror $tx_opt $tx_fp \
            -I"$(dirname "$tx_f")" $tx_flags -c "$tx_f" -o "$work/compile_matrix.o" >>"$work/compile_matrix.log" 2>&1 ||
            tx_fails="$tx_fails $tx_cc$tx_opt$tx_fp:$(basename "$tx_f")"
        done
      done
    done
  done
  if [ $tx_n -lt "$tx_min" ]; then fail "$tx_check" "only $tx_n compilations (kernel files not in the module?)"
  elif [ -n "$tx_fails" ]; then fail "$tx_check" "${tx_fails# }"
  else pass "$tx_check ($tx_n compilations)"; fi
}
