#!/bin/sh
# make install / make uninstall (issue 18 item 3) into a temporary prefix (and with
# DESTDIR): the installed compiler runs from anywhere (--version, converts the demo model,
# and the module builds: the kernels are embedded), the man page renders without warnings
# and names every command and every convert option of --help, the bash completion
# registers and completes commands, options and .tflite/.yaml files; uninstall leaves
# nothing of ours (and keeps what was there before).
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
exit 0
