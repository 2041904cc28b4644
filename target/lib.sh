# Shell helpers shared by target/run_case.sh, bench/bench.sh and tests/run_target_tests.sh
# (POSIX sh; source it with TA_ROOT set to the repository root).

# The Debian packages of the cross toolchain / emulator that are missing (none: empty).
ta_missing_packages() {
  missing=""
  command -v arm-none-eabi-gcc >/dev/null 2>&1 || missing="$missing gcc-arm-none-eabi"
  # newlib: the compiler finds libc.a for the hard-float M4 multilib only when it is installed
  if ! command -v arm-none-eabi-gcc >/dev/null 2>&1 ||
     [ ! -f "$(arm-none-eabi-gcc -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb -print-file-name=libc.a)" ]; then
    missing="$missing libnewlib-arm-none-eabi"
  fi
  command -v qemu-system-arm >/dev/null 2>&1 || missing="$missing qemu-system-arm"
  command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
  echo "$missing"
}

# Installs what is missing when running as root; otherwise says how and fails.
ta_ensure_packages() {
  missing=$(ta_missing_packages)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing" >&2
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2; then
      missing=$(ta_missing_packages)
      [ -z "$missing" ] && return 0
    fi
    echo "error: could not install:$missing" >&2
    return 1
  fi
  echo "error: missing:$missing" >&2
  echo "install them with: sudo apt-get update && sudo apt-get install -y$missing" >&2
  return 1
}

# Builds the instruction-counting QEMU plugin into $1 (a directory) unless up to date;
# prints its absolute path.
ta_build_plugin() {
  dir=$1
  src="$TA_ROOT/target/qemu_plugin/insn_count.c"
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 1
  so="$dir/libinsn_count.so"
  if [ ! -f "$so" ] || [ "$src" -nt "$so" ] || [ "$TA_ROOT/target/qemu_plugin/mve_classify.h" -nt "$so" ] ||
     [ "$TA_ROOT/target/qemu_plugin/timing.h" -nt "$so" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden "$src" -o "$so.tmp.$$" &&
      mv "$so.tmp.$$" "$so" || return 1
  fi
  echo "$so"
}

# The timing-model plugin arguments for a core (docs/cycles.md): core=, then the default memory
# (m55: data reads of the code region, .rodata in MRAM on the Apollo510, through a 64 KiB
# 4-way D-cache with a 12-cycle line refill; TCM 0 waits. m4: no wait states). Append them to
# the plugin's arguments; the out file then has cycles= (and a 7th, cycles field per layer).
ta_timing_args() {
  case "$1" in
    m55) echo "core=m55,cached=0x0-0x80000:${CYCLES_MISS:-12},dcache=65536:4:32" ;;
    m4) echo "core=m4" ;;
    *) return 1 ;;
  esac
}

# Milliseconds since the epoch (GNU date).
ta_now_ms() {
  echo $(( $(date +%s%N) / 1000000 ))
}

# ta_golden_mismatch CASE_DIR RUN_DIR: byte-compares every golden CASE_DIR/out*.bin with the
# file of the same name in RUN_DIR; prints the first that differs (or is missing), returns 1 then.
ta_golden_mismatch() {
  for g in "$1"/out*.bin; do
    cmp -s "$g" "$2/$(basename "$g")" || { basename "$g"; return 1; }
  done
  return 0
}

# key=value lookup in a figures file: ta_get FILE KEY
ta_get() {
  sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n 1
}
