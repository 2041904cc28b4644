#!/bin/sh
# Checks the Debian 12 packages `make demo` or `make test` needs before anything is built;
# installs the missing ones with apt-get when run as root, otherwise prints the one
# `apt-get install` line and fails. usage: tools/prereqs.sh demo|test
#   tools/prereqs.sh list demo|test: prints every package it checks for (the README's list,
#   tools/readme_tables.sh --check compares them).
TA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$TA_ROOT/target/lib.sh"

what=${1:-demo}
if [ "$what" = list ]; then
  what=${2:-test}
  list_all=1
fi
host_missing() {
  m=""
  command -v gcc >/dev/null 2>&1 || m="$m gcc"
  command -v make >/dev/null 2>&1 || m="$m make"
  [ -z "${list_all:-}" ] && [ -f /usr/include/yaml.h ] || m="$m libyaml-dev"   # the configuration parser
  [ -z "${list_all:-}" ] && [ -f /usr/include/zlib.h ] || m="$m zlib1g-dev"    # .npz test data, .pack/.zip modules
  if [ "$what" = test ]; then
    command -v clang >/dev/null 2>&1 || m="$m clang" # modules are checked with gcc and clang
    command -v xmllint >/dev/null 2>&1 || m="$m libxml2-utils" # module_types: the .pdsc
    command -v unzip >/dev/null 2>&1 || m="$m unzip"           # module_types: the .pack/.zip
    command -v valgrind >/dev/null 2>&1 || m="$m valgrind"     # config_helia: the config parser
    command -v python3 >/dev/null 2>&1 || m="$m python3"       # helia_api (.npz files), architecture (call cycles)
    command -v man >/dev/null 2>&1 || m="$m man-db"            # install: the man page renders
    command -v groff >/dev/null 2>&1 || m="$m groff-base"      # install: groff -ww finds no warning
    command -v chromium >/dev/null 2>&1 || m="$m chromium"     # report_html: the report in a browser
    command -v chromedriver >/dev/null 2>&1 || m="$m chromium-driver" # report_html: WebDriver for it
  fi
  echo "$m"
}
all_missing() {
  m=$(host_missing)
  # the target tests (QEMU Cortex-M4/M55): cross compiler, newlib, QEMU, CMake
  [ "$what" = test ] && m="$m$(ta_missing_packages)"
  echo "$m"
}

if [ -n "${list_all:-}" ]; then
  (PATH=/nonexistent; all_missing) | tr ' ' '\n' | sed '/^$/d'
  exit 0
fi
missing=$(all_missing)
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tinyaot: installing:$missing" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
  missing=$(all_missing)
  [ -z "$missing" ] && exit 0
  echo "tinyaot: error: could not install:$missing" >&2
  exit 1
fi
echo "tinyaot: error: make $what needs:$missing" >&2
echo "install them with: sudo apt-get install -y$missing" >&2
exit 1
