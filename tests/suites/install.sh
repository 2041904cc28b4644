#!/bin/sh
# make install / make uninstall (issue 18 item 3) into a temporary prefix (and with
# DESTDIR): the installed compiler runs from anywhere (--version, converts the demo model,
# and the module builds: the kernels are embedded), the man page renders without warnings
# and names every command and every convert option of --help, the bash completion
# registers and completes commands, options and .tflite/.yaml files; bin/helia-aot is a
# link whose convert writes heliaAOT's default module (and one that is not ours is left
# alone); uninstall leaves nothing of ours, the empty prefix folders it created included
# (and keeps what was there before).
# usage: sh tests/suites/install.sh BUILD CORPUS WORKDIR   (the corpus is not needed)
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup install "$@" || { fail setup "no work folder"; exit 0; }
# the build directory relative to the repository, as make sees it
bdir=$build
case "$build" in "$TA_ROOT"/*) bdir=${build#"$TA_ROOT"/} ;; esac
[ -x "$build/tinyaot" ] || { fail setup "$build/tinyaot is missing"; exit 0; }

p="$work/prefix"
mkdir -p "$p/share/man/man1" && echo keep >"$p/share/man/man1/other.1" # not ours: must survive
if make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$p" install >"$work/install.log" 2>&1 &&
   [ -x "$p/bin/tinyaot" ] && [ -f "$p/share/man/man1/tinyaot.1" ] && [ -f "$p/share/bash-completion/completions/tinyaot" ]
then pass installed_files
else fail installed_files "$(head -c 300 "$work/install.log")"; fi

# 1. The installed compiler, run from elsewhere.
T="$p/bin/tinyaot"
if [ "$("$T" --version 2>&1)" = "$("$build/tinyaot" --version 2>&1)" ] && "$T" --version | grep -q '^tinyaot '; then
  pass installed_version
else fail installed_version "$("$T" --version 2>&1 | head -c 200)"; fi
demo="$work/demo.tflite"
if [ -x "$build/demo_model" ] || make -s -C "$TA_ROOT" BUILD="$bdir" "$bdir/demo_model" >"$work/demo_build.log" 2>&1; then
  "$build/demo_model" "$demo" "$work/demo_in.bin" >/dev/null 2>&1
fi
if [ -f "$demo" ] && (cd "$work" && "$T" convert "$demo" -o "$work/demo_module" >"$work/convert.log" 2>&1) &&
   make -s -C "$work/demo_module" CFLAGS="-O1 -Wall -Werror" >"$work/module_build.log" 2>&1 &&
   ls "$work/demo_module"/lib*.a >/dev/null 2>&1
then pass installed_converts_demo
else fail installed_converts_demo "$(cat "$work/convert.log" "$work/module_build.log" 2>/dev/null | head -c 300)"; fi

# 2. The man page: renders without warnings, found by man, true to --help.
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
  M="$p/share/man/man1/tinyaot.1"
  MANWIDTH=80 man -l "$M" >"$work/man.txt" 2>"$work/man.err"
  groff -man -Tutf8 -ww "$M" >/dev/null 2>>"$work/man.err"
  if [ ! -s "$work/man.err" ] && grep -q "SHARED SCRATCH\|SEVERAL MODELS" "$work/man.txt" &&
     MANPATH="$p/share/man" man -w tinyaot 2>/dev/null | grep -q "$M"
  then pass man_renders
  else fail man_renders "$(head -c 300 "$work/man.err")"; fi
  # every command of tinyaot --help and every option of convert --help and run --help
  missing=""
  for c in $("$T" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p'); do
    grep -q "^\\.B tinyaot $c" "$M" || missing="$missing $c"
  done
  for o in $({ "$T" convert --help; "$T" run --help; "$T" inspect --help; } | grep -o -- '--[a-z][a-z0-9._-]*' | sort -u); do
    man_o=$(echo "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$man_o" "$M" || missing="$missing $o"
  done
  [ -z "$missing" ] && pass man_true_to_help || fail man_true_to_help "not in the man page:$missing"
else
  fail man_renders "man/groff missing (tools/prereqs.sh test installs man-db and groff-base)"
fi

# 3. Bash completion: registered; commands, options, files by extension.
C="$p/share/bash-completion/completions/tinyaot"
mkdir -p "$work/files" && : >"$work/files/a.tflite" && : >"$work/files/b.yaml" && : >"$work/files/c.txt"
out=$(cd "$work/files" && bash -c '
  source "$1" || exit 1
  complete -p tinyaot
  q() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _tinyaot; echo "${COMPREPLY[*]}"; }
  q tinyaot conv
  q tinyaot convert --shared
  q tinyaot convert --platform cortex-m5
  q tinyaot convert ""
' sh "$C" 2>&1)
expect="complete -F _tinyaot tinyaot
convert
--shared-scratch
cortex-m55
a.tflite b.yaml"
[ "$out" = "$expect" ] && pass bash_completion || fail bash_completion "got: $(echo "$out" | tr '\n' '|')"
missing=""
for o in $("$T" convert --help | grep -o -- '--[a-z][a-z0-9._-]*' | sort -u); do
  grep -q -- "$o" "$C" || missing="$missing $o"
done
[ -z "$missing" ] && pass completion_knows_every_convert_option || fail completion_knows_every_convert_option "$missing"

# 3b. helia-aot: installed beside tinyaot as a link; under that name convert applies
# heliaAOT's defaults (model.tflite, helia_aot_nn, a neuralspot module with includes-api/
# and a LICENSE) while tinyaot keeps its own (no model guessed, its own layout).
H="$p/bin/helia-aot"
if [ -L "$H" ] && [ "$(readlink "$H")" = tinyaot ] && "$H" --help | grep -q "^usage: helia-aot convert"; then pass helia_aot_installed
else fail helia_aot_installed "$(ls -l "$H" 2>&1 | head -c 200)"; fi
hw="$work/helia"
mkdir -p "$hw" && [ -f "$demo" ] && cp "$demo" "$hw/model.tflite"
hm="$hw/out"
if (cd "$hw" && "$H" convert --module.path out >"$hw/convert.log" 2>&1) &&
   [ -f "$hm/includes-api/helia_aot_nn_model.h" ] && [ -f "$hm/includes-api/helia_aot_nn_platform.h" ] &&
   [ -f "$hm/module.mk" ] && [ -f "$hm/src/helia_aot_nn_model.c" ] && [ ! -e "$hm/include" ] &&
   [ ! -e "$hm/CMakeLists.txt" ] && [ ! -e "$hm/Makefile" ] && grep -q "MIT-0" "$hm/LICENSE" &&
   head -n 1 "$hm/LICENSE" | grep -q "generated inference module helia_aot_nn" &&
   grep -q "helia_aot_nn_model_init" "$hm/includes-api/helia_aot_nn_model.h"
then pass helia_aot_default_module
else fail helia_aot_default_module "$(head -c 300 "$hw/convert.log") $(cd "$hm" 2>/dev/null && find . -maxdepth 2 | tr '\n' ' ')"; fi
# the same folder under tinyaot: no model is guessed; given one, tinyaot's own defaults
if (cd "$hw" && ! "$T" convert --module.path out2 >"$hw/tinyaot.log" 2>&1) && grep -q "no model given" "$hw/tinyaot.log" &&
   (cd "$hw" && "$T" convert --model.path model.tflite --module.path out3 >>"$hw/tinyaot.log" 2>&1) &&
   [ -f "$hw/out3/include/model_model.h" ] && [ -f "$hw/out3/CMakeLists.txt" ] && [ ! -e "$hw/out3/LICENSE" ]
then pass tinyaot_keeps_its_defaults
else fail tinyaot_keeps_its_defaults "$(head -c 300 "$hw/tinyaot.log")"; fi
# a helia-aot that is not ours (heliaAOT's own) is neither replaced nor removed
q="$work/prefix2"
mkdir -p "$q/bin" && printf '#!/bin/sh\necho theirs\n' >"$q/bin/helia-aot" && chmod +x "$q/bin/helia-aot"
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$q" install >"$work/install2.log" 2>&1
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$q" uninstall >>"$work/install2.log" 2>&1
if [ "$("$q/bin/helia-aot")" = theirs ] && grep -q "helia-aot exists" "$work/install2.log" && [ ! -e "$q/bin/tinyaot" ]
then pass helia_aot_not_ours_kept
else fail helia_aot_not_ours_kept "$(head -c 300 "$work/install2.log")"; fi

# 4. Uninstall: nothing of ours remains; the file that was there stays.
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$p" uninstall >"$work/uninstall.log" 2>&1
left=$(cd "$p" && find . -mindepth 1 | LC_ALL=C sort | tr '\n' ' ')
if [ "$left" = "./share ./share/man ./share/man/man1 ./share/man/man1/other.1 " ]; then pass uninstall_removes_exactly_ours
else fail uninstall_removes_exactly_ours "left: $left"; fi

# 5. DESTDIR: staged under DESTDIR/PREFIX, removed from there.
d="$work/stage"
if make -s -C "$TA_ROOT" BUILD="$bdir" DESTDIR="$d" PREFIX=/opt/tinyaot install >"$work/destdir.log" 2>&1 &&
   [ -x "$d/opt/tinyaot/bin/tinyaot" ] && [ -f "$d/opt/tinyaot/share/man/man1/tinyaot.1" ] &&
   make -s -C "$TA_ROOT" BUILD="$bdir" DESTDIR="$d" PREFIX=/opt/tinyaot uninstall >>"$work/destdir.log" 2>&1 &&
   [ -z "$(find "$d/opt/tinyaot" -mindepth 1 2>/dev/null)" ]
then pass destdir
else fail destdir "$(head -c 300 "$work/destdir.log")"; fi

# 6. The prefix folders install created are removed with it when empty; a folder that
# existed before, or holds someone else's file, stays.
f="$work/fresh"
mkdir -p "$f" && echo keep >"$f/mine.txt"
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$f/a/b" install >"$work/fresh.log" 2>&1
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$f/a/b" uninstall >>"$work/fresh.log" 2>&1
g="$work/fresh2"
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$g/p" install >>"$work/fresh.log" 2>&1
echo keep >"$g/p/notes.txt"
make -s -C "$TA_ROOT" BUILD="$bdir" PREFIX="$g/p" uninstall >>"$work/fresh.log" 2>&1
if [ ! -e "$f/a" ] && [ "$(cat "$f/mine.txt")" = keep ] && [ "$(cat "$g/p/notes.txt" 2>/dev/null)" = keep ] &&
   [ -z "$(find "$g/p" -mindepth 1 ! -name notes.txt)" ]
then pass uninstall_removes_created_prefix
else fail uninstall_removes_created_prefix "left: $(find "$f" "$g" | tr '\n' ' ' | head -c 300)"; fi
exit 0
