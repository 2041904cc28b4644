#!/bin/sh
# module_types: every --module.type built the way its ecosystem builds it, with what Debian
# provides (arm-none-eabi-gcc + newlib, CMake, GNU make, xmllint, unzip), for the demo model
# and the MLPerf Tiny kws model, for Cortex-M4 and Cortex-M55; each build links a program
# (tests/module_types/app_main.c: init + run through the module's API, newlib's nosys specs).
#   neuralspot  module.mk included by neuralSPOT's make machinery (tests/module_types/neuralspot.mk)
#   zephyr      zephyr/{module.yml,Kconfig,CMakeLists.txt} through a stub of Zephyr's CMake
#               functions that refuses missing sources and include folders (tests/module_types/zephyr_stub)
#   cmake       add_subdirectory + the module's own cmake/ toolchain file
#   nsx         add_subdirectory + nsx::<name>, the attributes-header hook checked in the objects
#   cmsis_pack  the .pack archive: unzip -t, xmllint, the pdsc's required elements (and its
#               <license> file), the vendor/name/version taken from Vendor.Name.Version.pack
#               or --model.version (other names refused with one line), its
#               component's files present, and the component's sources built
#   default     what tinyaot wrote before module types (CMake, Make, zephyr/, include/) + module.mk
# Usage: sh tests/suites/module_types.sh BUILD CORPUS WORKDIR
set -u
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup module_types "$@" || { fail setup "no work folder"; exit 0; }
tinyaot="$build/tinyaot"
tests="$TA_ROOT/tests"
mt="$tests/module_types"

for tool in arm-none-eabi-gcc cmake make xmllint unzip; do
  if ! command -v $tool >/dev/null 2>&1; then
    fail tools "$tool is not installed (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi cmake libxml2-utils unzip)"
    exit 1
  fi
done

arch_flags() {
  case $1 in
  cortex-m4) echo "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb" ;;
  cortex-m55) echo "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb" ;;
  esac
}
LINK="--specs=nosys.specs -Wl,--gc-sections"
OPT="-O2 -ffunction-sections -fdata-sections"

# convert NAME MODEL CORE TYPE OUT: one conversion; TYPE "default" passes no --module.type.
convert() {
  type_opt=""
  [ "$4" = default ] || type_opt="--module.type $4"
  # shellcheck disable=SC2086
  "$tinyaot" convert "$2" -o "$5" --name "$1" --platform "$3" $type_opt >"$5.log" 2>&1
}

# A CMake configure + build; the log is kept beside the build folder.
cmake_build() {
  dir=$1
  shift
  cmake "$@" -B "$dir" >"$dir.log" 2>&1 && cmake --build "$dir" >>"$dir.log" 2>&1
}

check_neuralspot() { # name core module
  [ -f "$3/module.mk" ] && [ -f "$3/includes-api/$1_model.h" ] || { echo "no module.mk or includes-api/$1_model.h"; return 1; }
  [ ! -e "$3/CMakeLists.txt" ] || { echo "a neuralspot module has a CMakeLists.txt"; return 1; }
  # neuralSPOT includes modules by relative folder from the application's root.
  (cd "$(dirname "$3")" && make -s -f "$mt/neuralspot.mk" MODULE="$(basename "$3")" APP="$mt/app_main.c" \
    CC=arm-none-eabi-gcc AR=arm-none-eabi-ar CFLAGS="$(arch_flags "$2") $OPT" LDFLAGS="$LINK" \
    MODEL_NAME="$1" MODEL_PREFIX="$1" BINDIR="build-$(basename "$3")" >"$3.ns.log" 2>&1) ||
    { echo "make failed: $(grep -m1 -i error "$3.ns.log")"; return 1; }
  bin="$(dirname "$3")/build-$(basename "$3")"
  [ -f "$bin/app.axf" ] || { echo "no program linked"; return 1; }
  nsrc=$(ls "$3"/src/*.c | wc -l)
  nobj=$(find "$bin/$(basename "$3")/src" -name '*.o' | wc -l)
  [ "$nsrc" -eq "$nobj" ] || { echo "module.mk built $nobj of $nsrc sources"; return 1; }
}

check_zephyr() { # name core module api_dir
  for f in zephyr/module.yml zephyr/Kconfig zephyr/CMakeLists.txt "$4/$1_model.h"; do
    [ -f "$3/$f" ] || { echo "no $f"; return 1; }
  done
  cmake_build "$3.zb" -S "$mt/zephyr_stub" -DMODULE_DIR="$3" -DMODULE_NAME="$1" -DMODEL_PREFIX="$1" \
    -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_C_COMPILER=arm-none-eabi-gcc -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
    -DCMAKE_C_FLAGS="$(arch_flags "$2") $OPT" -DLINK_FLAGS="$LINK" ||
    { echo "stub build failed: $(grep -m1 -iE 'error|cannot' "$3.zb.log")"; return 1; }
  grep -q "CONFIG_TINYAOT_.*=y" "$3.zb.log" || { echo "the Kconfig symbol is not on by default"; return 1; }
  [ -f "$3.zb/app" ] || { echo "no program linked"; return 1; }
}

check_cmake() { # name core module
  [ -f "$3/CMakeLists.txt" ] && [ -f "$3/cmake/arm-none-eabi-$2.cmake" ] || { echo "no CMakeLists.txt or toolchain file"; return 1; }
  cmake_build "$3.cb" -S "$mt/cmake_app" -DMODULE_DIR="$3" -DMODULE_NAME="$1" -DMODULE_TARGET="$1" -DMODEL_PREFIX="$1" \
    -DCMAKE_TOOLCHAIN_FILE="$3/cmake/arm-none-eabi-$2.cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$OPT" \
    -DLINK_FLAGS="$LINK" ||
    { echo "cmake build failed: $(grep -m1 -i error "$3.cb.log")"; return 1; }
  [ -f "$3.cb/app" ] || { echo "no program linked"; return 1; }
}

check_nsx() { # name core module
  grep -q "nsx::$1" "$3/nsx-module.yaml" 2>/dev/null || { echo "nsx-module.yaml does not name nsx::$1"; return 1; }
  P=$(echo "$1" | tr 'a-z' 'A-Z')
  attrs="$3.attrs.h"
  : >"$attrs"
  for mem in ITCM DTCM SRAM MRAM PSRAM; do
    echo "#define ${P}_PUT_IN_${mem} __attribute__((section(\".nsx_hook_arena\")))" >>"$attrs"
  done
  cmake_build "$3.xb" -S "$mt/cmake_app" -DMODULE_DIR="$3" -DMODULE_NAME="$1" -DMODULE_TARGET="nsx::$1" \
    -DMODEL_PREFIX="$1" -D"${P}_ATTRIBUTES_HEADER=$attrs" -DCMAKE_TOOLCHAIN_FILE="$3/cmake/arm-none-eabi-$2.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$OPT" -DLINK_FLAGS="$LINK" ||
    { echo "cmake build failed: $(grep -m1 -i error "$3.xb.log")"; return 1; }
  [ -f "$3.xb/app" ] || { echo "no program linked"; return 1; }
  # The hook's header reached the module's sources: its arenas are in the section it names.
  arm-none-eabi-objdump -h "$3.xb/module/lib$1.a" | grep -q nsx_hook_arena ||
    { echo "${P}_ATTRIBUTES_HEADER did not place the arenas"; return 1; }
}

check_pack() { # name core pack-file
  unzip -tq "$3" >"$3.log.unzip" 2>&1 || { echo "unzip -t: $(head -1 "$3.log.unzip")"; return 1; }
  x="$3.x"
  rm -rf "$x" && mkdir -p "$x" && unzip -q "$3" -d "$x" || { echo "unzip failed"; return 1; }
  pdsc=$(ls "$x"/*.pdsc 2>/dev/null)
  [ "$(echo "$pdsc" | grep -c .)" -eq 1 ] || { echo "not exactly one .pdsc at the archive's root"; return 1; }
  xmllint --noout "$pdsc" 2>"$3.log.xml" || { echo "xmllint: $(head -1 "$3.log.xml")"; return 1; }
  for el in vendor name description; do
    [ -n "$(xmllint --xpath "string(/package/$el)" "$pdsc")" ] || { echo "pdsc has no <$el>"; return 1; }
  done
  [ "$(xmllint --xpath 'string(/package/name)' "$pdsc")" = "$1" ] || { echo "pdsc <name> is not $1"; return 1; }
  vendor=$(xmllint --xpath 'string(/package/vendor)' "$pdsc")
  [ "$(basename "$pdsc")" = "$vendor.$1.pdsc" ] || { echo "pdsc file name is not <vendor>.<name>.pdsc"; return 1; }
  [ -n "$(xmllint --xpath 'string(/package/releases/release[1]/@version)' "$pdsc")" ] ||
    { echo "pdsc has no release version"; return 1; }
  xmllint --xpath 'string(/package/releases/release[1]/@date)' "$pdsc" | grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' ||
    { echo "pdsc release has no YYYY-MM-DD date"; return 1; }
  lic=$(xmllint --xpath 'string(/package/license)' "$pdsc")
  [ -n "$lic" ] && [ -f "$x/$lic" ] && grep -q "MIT-0" "$x/$lic" || { echo "pdsc names no <license> file in the archive"; return 1; }
  ncomp=$(xmllint --xpath 'count(/package/components/component[@Cclass and @Cgroup and @Cversion])' "$pdsc")
  [ "$ncomp" -ge 1 ] || { echo "pdsc has no component with Cclass/Cgroup/Cversion"; return 1; }
  # Every file the component lists is in the archive; its sources build and link.
  files=$(xmllint --xpath '/package/components/component/files/file/@name' "$pdsc" | sed 's/ name="\([^"]*\)"/\1\n/g')
  incs=""
  srcs=""
  for f in $files; do
    [ -e "$x/$f" ] || { echo "pdsc lists $f, absent from the archive"; return 1; }
  done
  for f in $(xmllint --xpath '/package/components/component/files/file[@category="include"]/@name' "$pdsc" |
    sed 's/ name="\([^"]*\)"/\1\n/g'); do incs="$incs -I$x/$f"; done
  for f in $(xmllint --xpath '/package/components/component/files/file[@category="source"]/@name' "$pdsc" |
    sed 's/ name="\([^"]*\)"/\1\n/g'); do srcs="$srcs $x/$f"; done
  [ "$(echo "$srcs" | wc -w)" -eq "$(ls "$x"/src/*.c | wc -l)" ] || { echo "the component does not list every source"; return 1; }
  # shellcheck disable=SC2086
  arm-none-eabi-gcc -std=c99 $(arch_flags "$2") $OPT $incs "-DMODEL_HEADER=\"$1_model.h\"" -DMODEL_PREFIX="$1" \
    "$mt/app_main.c" $srcs $LINK -lm -o "$3.axf" >"$3.log.cc" 2>&1 || { echo "component build: $(grep -m1 error "$3.log.cc")"; return 1; }
}

check_default() { # name core module
  for f in CMakeLists.txt Makefile module.mk zephyr/module.yml zephyr/Kconfig zephyr/CMakeLists.txt \
    "cmake/arm-none-eabi-$2.cmake" "include/$1_model.h"; do
    [ -f "$3/$f" ] || { echo "no $f (tinyaot's default layout)"; return 1; }
  done
  [ ! -e "$3/includes-api" ] || { echo "the default layout has includes-api/"; return 1; }
  make -s -C "$3" TARGET="$2" CFLAGS="$OPT" >"$3.make.log" 2>&1 && [ -f "$3/lib$1.a" ] ||
    { echo "make TARGET=$2 failed: $(grep -m1 -i error "$3.make.log")"; return 1; }
  r=$(check_zephyr "$1" "$2" "$3" include) || { echo "zephyr/: $r"; return 1; }
  r=$(check_neuralspot_default "$1" "$2" "$3") || { echo "module.mk: $r"; return 1; }
}

# module.mk of the default layout: the same neuralSPOT build, headers from include/.
check_neuralspot_default() {
  (cd "$(dirname "$3")" && make -s -f "$mt/neuralspot.mk" MODULE="$(basename "$3")" APP="$mt/app_main.c" \
    CC=arm-none-eabi-gcc AR=arm-none-eabi-ar CFLAGS="$(arch_flags "$2") $OPT" LDFLAGS="$LINK" \
    MODEL_NAME="$1" MODEL_PREFIX="$1" BINDIR="build-$(basename "$3")" >"$3.ns.log" 2>&1) ||
    { echo "make failed: $(grep -m1 -i error "$3.ns.log")"; return 1; }
  [ -f "$(dirname "$3")/build-$(basename "$3")/app.axf" ] || { echo "no program linked"; return 1; }
}

# run_case NAME MODEL CORE TYPE
run_case() {
  id="$1:$3:$4"
  dir="$work/$1-$3"
  mkdir -p "$dir"
  out="$dir/$4"
  rm -rf "$out" "$out".* "$dir/build-$4"
  [ "$4" = cmsis_pack ] && out="$dir/tinyaot.$1.1.0.0.pack"
  if ! convert "$1" "$2" "$3" "$4" "$out"; then
    fail "$id" "convert failed: $(tail -1 "$out.log")"
    return
  fi
  case $4 in
  neuralspot) r=$(check_neuralspot "$1" "$3" "$out") ;;
  zephyr) r=$(check_zephyr "$1" "$3" "$out" includes-api) ;;
  cmake) r=$(check_cmake "$1" "$3" "$out") ;;
  nsx) r=$(check_nsx "$1" "$3" "$out") ;;
  cmsis_pack) r=$(check_pack "$1" "$3" "$out") ;;
  default) r=$(check_default "$1" "$3" "$out") ;;
  esac
  if [ $? -eq 0 ]; then pass "$id"; else fail "$id" "$r"; fi
}

# Models: the demo model (always) and kws from the corpus.
"$build/demo_model" "$work/demo.tflite" "$work/demo_input.bin" >/dev/null 2>&1 || {
  fail demo_model "cannot write the demo model ($build/demo_model)"
  exit 1
}
models="demo=$work/demo.tflite"
if [ -f "$corpus/models/kws/model.tflite" ]; then
  models="$models kws=$corpus/models/kws/model.tflite"
else
  skip kws "no corpus at $corpus"
fi

for entry in $models; do
  name=${entry%%=*}
  model=${entry#*=}
  for core in cortex-m4 cortex-m55; do
    for type in neuralspot zephyr cmake nsx cmsis_pack default; do
      run_case "$name" "$model" "$core" "$type"
    done
  done
done

# A cmsis_pack module written as a folder: the pdsc at its root, well formed.
d="$work/pack_folder"
rm -rf "$d"
if convert demo "$work/demo.tflite" cortex-m4 cmsis_pack "$d" && xmllint --noout "$d/tinyaot.demo.pdsc" 2>/dev/null &&
  [ -f "$d/src/demo_model.c" ] && [ -f "$d/includes-api/demo_model.h" ]; then
  pass pack_folder
else
  fail pack_folder "no well-formed tinyaot.demo.pdsc beside src/ and includes-api/ in $d"
fi

# .zip: the module's tree wrapped in <name>/, any module type.
z="$work/demo_cmake.zip"
rm -rf "$z" "$z.x" "$z.folder"
if ! convert demo "$work/demo.tflite" cortex-m55 cmake "$z"; then
  fail zip "convert failed: $(tail -1 "$z.log")"
elif ! unzip -tq "$z" >/dev/null 2>&1; then
  fail zip "unzip -t failed on $z"
elif ! mkdir -p "$z.x" || ! unzip -q "$z" -d "$z.x" || [ "$(ls "$z.x")" != demo ]; then
  fail zip "the archive is not one demo/ folder"
elif ! convert demo "$work/demo.tflite" cortex-m55 cmake "$z.folder" ||
  ! diff -r -x .tinyaot-manifest "$z.folder" "$z.x/demo" >"$z.diff" 2>&1; then
  fail zip "the archive's files differ from the same module written as a folder: $(head -1 "$z.diff")"
else
  r=$(check_cmake demo cortex-m55 "$z.x/demo") && pass zip || fail zip "$r"
fi

# --test.enabled: the test-case harness is in the glue like every other source (zephyr).
t="$work/test_case_zephyr"
rm -rf "$t" "$t".*
if ! "$tinyaot" convert "$work/demo.tflite" -o "$t" --name demo --platform cortex-m55 --module.type zephyr \
  --test.enabled >"$t.log" 2>&1; then
  fail test_case_in_glue "convert failed: $(tail -1 "$t.log")"
elif ! grep -q 'src/demo_test_case.c' "$t/zephyr/CMakeLists.txt" || [ ! -f "$t/includes-api/demo_test_case.h" ]; then
  fail test_case_in_glue "zephyr/CMakeLists.txt does not build src/demo_test_case.c (or no includes-api/demo_test_case.h)"
else
  r=$(check_zephyr demo cortex-m55 "$t" includes-api) && pass test_case_in_glue || fail test_case_in_glue "$r"
fi

# SOURCE_DATE_EPOCH: the same conversion gives the same archive, dated by it
# (1700000000 s = 2023-11-14 22:13:20 UTC).
mkdir -p "$work/repro1" "$work/repro2"
r1="$work/repro1/tinyaot.demo.1.0.0.pack"
r2="$work/repro2/tinyaot.demo.1.0.0.pack"
rm -rf "$r1" "$r2" "$r1.x"
if ! SOURCE_DATE_EPOCH=1700000000 convert demo "$work/demo.tflite" cortex-m4 cmsis_pack "$r1" ||
  ! { sleep 1; SOURCE_DATE_EPOCH=1700000000 convert demo "$work/demo.tflite" cortex-m4 cmsis_pack "$r2"; }; then
  fail pack_reproducible "convert failed: $(tail -1 "$r1.log") $(tail -1 "$r2.log")"
elif ! cmp -s "$r1" "$r2"; then
  fail pack_reproducible "two conversions with SOURCE_DATE_EPOCH differ"
elif ! unzip -p "$r1" tinyaot.demo.pdsc | grep -q 'date="2023-11-14"'; then
  fail pack_reproducible "the pdsc release is not dated 2023-11-14"
elif ! unzip -l "$r1" | grep -q "2023-11-14 22:13"; then
  fail pack_reproducible "the members are not dated 2023-11-14 22:13"
else
  pass pack_reproducible
fi

# A .pack of any other type is refused, and nothing is written.
p="$work/refused.pack"
rm -f "$p"
if convert demo "$work/demo.tflite" cortex-m4 zephyr "$p"; then
  fail pack_needs_cmsis_pack "a zephyr module was written as $p"
elif [ -e "$p" ]; then
  fail pack_needs_cmsis_pack "refused, but $p exists"
elif ! grep -q "cmsis_pack" "$p.log"; then
  fail pack_needs_cmsis_pack "the error does not say to use cmsis_pack: $(cat "$p.log")"
else
  pass pack_needs_cmsis_pack
fi

# The default type with a .pack path writes the CMSIS pack (the only thing a .pack holds).
mkdir -p "$work/dflt"
p="$work/dflt/tinyaot.demo.1.0.0.pack"
rm -f "$p"
if convert demo "$work/demo.tflite" cortex-m4 default "$p" && unzip -l "$p" 2>/dev/null | grep -q "tinyaot.demo.pdsc"; then
  pass pack_default_type
else
  fail pack_default_type "no pdsc in $p: $(tail -1 "$p.log")"
fi

# The pack's identity comes from its file name (Vendor.Name.Version.pack, CMSIS-Pack's
# rule) or --model.version; the pdsc names the module's LICENSE.
pdsc_field() { xmllint --xpath "string($2)" "$1" 2>/dev/null; }
mkdir -p "$work/ident"
p="$work/ident/Acme.demo-pack.2.3.1.pack"
rm -rf "$p" "$p.x"
if ! convert demo "$work/demo.tflite" cortex-m4 cmsis_pack "$p"; then fail pack_identity_from_name "$(tail -1 "$p.log")"
elif ! mkdir -p "$p.x" || ! unzip -q "$p" -d "$p.x" || [ ! -f "$p.x/Acme.demo-pack.pdsc" ]; then
  fail pack_identity_from_name "no Acme.demo-pack.pdsc in the archive: $(ls "$p.x" | tr '\n' ' ')"
else
  f="$p.x/Acme.demo-pack.pdsc"
  got="$(pdsc_field "$f" /package/vendor) $(pdsc_field "$f" /package/name) $(pdsc_field "$f" '/package/releases/release[1]/@version')"
  got="$got $(pdsc_field "$f" '/package/components/component[1]/@Cversion') $(pdsc_field "$f" /package/license)"
  if [ "$got" = "Acme demo-pack 2.3.1 2.3.1 LICENSE" ] && [ -f "$p.x/LICENSE" ]; then pass pack_identity_from_name
  else fail pack_identity_from_name "vendor name version Cversion license: $got"; fi
fi
d="$work/ident/folder"
rm -rf "$d"
if "$tinyaot" convert "$work/demo.tflite" -o "$d" --name demo --platform cortex-m4 --module.type cmsis_pack \
     --model.version v4.5.6 >"$d.log" 2>&1 &&
   [ "$(pdsc_field "$d/tinyaot.demo.pdsc" '/package/releases/release[1]/@version')" = 4.5.6 ] &&
   [ "$(pdsc_field "$d/tinyaot.demo.pdsc" /package/license)" = LICENSE ] && [ -f "$d/LICENSE" ]
then pass pack_version_from_model_version
else fail pack_version_from_model_version "$(tail -1 "$d.log")"; fi
# file names that break the rule, and a version the name and --model.version disagree on:
# one line naming the file, nothing written
for bad in demo.pack Acme.demo.pack Acme.demo.1.0.pack Acme.de.mo.1.0.0.pack Acme.demo.01.0.0.pack Acme.d@mo.1.0.0.pack \
           Acme.demo.2.0.0.pack; do
  p="$work/ident/$bad"
  rm -f "$p"
  extra=""
  [ "$bad" = Acme.demo.2.0.0.pack ] && extra="--model.version 1.0.0"
  # shellcheck disable=SC2086
  "$tinyaot" convert "$work/demo.tflite" -o "$p" --name demo --platform cortex-m4 $extra >"$p.log" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && [ "$(grep -c . "$p.log")" -eq 1 ] && grep -q "$bad" "$p.log" && [ ! -e "$p" ] &&
     { [ -n "$extra" ] && grep -q "model.version" "$p.log" || grep -q "Vendor.Name.Version.pack" "$p.log"; }
  then pass "pack_name_refused:$bad"
  else fail "pack_name_refused:$bad" "exit $rc: $(head -c 300 "$p.log")"; fi
done

# An unknown type is refused with the list of types.
if "$tinyaot" convert "$work/demo.tflite" -o "$work/bad_type" --module.type arduino >"$work/bad_type.log" 2>&1; then
  fail unknown_type "--module.type arduino was accepted"
elif ! grep -q "neuralspot" "$work/bad_type.log"; then
  fail unknown_type "the error does not list the types: $(cat "$work/bad_type.log")"
else
  pass unknown_type
fi
# The README's example, cut out of the generated README of an int8 and a float32 model, is a
# translation unit that compiles warning-free as C99 and as C++ against the module, each
# output declared with its own type (float for float32).
for rm in hello_world_int8:int8_t hello_world_float:float; do
  rn=${rm%%:*} rt=${rm#*:}
  if [ ! -f "$corpus/models/$rn/model.tflite" ]; then echo "SKIP module_types:readme_example_$rn: corpus absent"; continue; fi
  rd="$work/readme_$rn"
  if ! "$tinyaot" convert "$corpus/models/$rn/model.tflite" -o "$rd" --name rex >"$rd.log" 2>&1; then
    fail "readme_example_$rn" "conversion failed: $(head -n 1 "$rd.log")"; continue
  fi
  sed -n '/^```c$/,/^```$/p' "$rd/README.md" | sed '1d;$d' >"$rd.c"
  if ! grep -q "const $rt \*output0;" "$rd.c"; then fail "readme_example_$rn" "output0 is not declared const $rt *"
  elif ! cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$rd/include" -c "$rd.c" -o "$rd.o" 2>"$rd.cerr"; then
    fail "readme_example_$rn" "as C: $(head -n 2 "$rd.cerr")"
  elif ! c++ -Wall -Wextra -Werror -x c++ -I"$rd/include" -c "$rd.c" -o "$rd.o" 2>"$rd.cerr"; then
    fail "readme_example_$rn" "as C++: $(head -n 2 "$rd.cerr")"
  else pass "readme_example_$rn"; fi
done
# Build glue defaults: the CMake library compiles at -O2 when no build type (and no -O in
# CMAKE_C_FLAGS) is given, and leaves a given build type alone; the plain Makefile writes
# its objects under obj/<target>/ (none in src/); a plain `make` of a Cortex-M module stops
# with the TARGET to give.
if [ -f "$corpus/models/kws/model.tflite" ]; then
  gd="$work/glue_m55"
  if ! "$tinyaot" convert "$corpus/models/kws/model.tflite" -o "$gd" --platform apollo510_evb >"$gd.log" 2>&1; then
    fail glue_defaults "conversion failed: $(head -n 1 "$gd.log")"
  else
    cmake -S "$gd" -B "$gd/b_none" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m55.cmake \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$gd/none.log" 2>&1
    cmake -S "$gd" -B "$gd/b_dbg" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m55.cmake -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$gd/dbg.log" 2>&1
    if grep -q '"command".*-O2.*ta_gemm_mve.c' "$gd/b_none/compile_commands.json" 2>/dev/null &&
       ! grep -q -- '-O2' "$gd/b_dbg/compile_commands.json" 2>/dev/null; then pass cmake_default_o2
    else fail cmake_default_o2 "no -O2 without a build type, or -O2 with Debug (see $gd/b_none)"; fi
    (cd "$gd" && make >"$gd/plain.out" 2>"$gd/plain.err"); rc=$?
    if [ $rc -ne 0 ] && grep -q 'make TARGET=cortex-m55' "$gd/plain.err" && ! grep -q '#error' "$gd/plain.err" &&
       [ ! -e "$gd/obj" ]; then pass make_without_target_hint
    else fail make_without_target_hint "rc $rc: $(head -c 300 "$gd/plain.err")"; fi
    if make -C "$gd" TARGET=cortex-m55 >"$gd/m55.log" 2>&1 && [ -f "$gd/libkws.a" ] &&
       [ -z "$(find "$gd/src" -name '*.o')" ] && [ -n "$(find "$gd/obj/cortex-m55" -name '*.o')" ] &&
       make -C "$gd" clean >/dev/null 2>&1 && [ ! -e "$gd/obj" ]; then pass make_objects_outside_src
    else fail make_objects_outside_src "$(tail -n 2 "$gd/m55.log")"; fi
  fi
else echo "SKIP module_types:glue_defaults: corpus absent"; fi
exit 0
