#!/bin/sh
# Output safety (issue 14): tinyaot never overwrites or deletes a file it did not write.
# The output folder's manifest (.tinyaot-manifest) lists what tinyaot wrote; user files
# survive every conversion (also with --force), a folder with foreign files is refused
# without --force, a re-conversion under another name leaves a module that builds, an
# edited generated file stops the conversion, and a refusal writes nothing.
# usage: sh tests/suites/output_safety.sh BUILD CORPUS WORKDIR   (the corpus is not needed:
# the model is the built-in demo model; $SUITE_MODEL overrides it)
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup output_safety "$@" || { fail setup "no work folder"; exit 0; }
B="$build/tinyaot"

model=${SUITE_MODEL:-}
if [ -z "$model" ]; then
  model="$work/demo.tflite"
  "$build/demo_model" "$model" "$work/demo_in.bin" >/dev/null 2>&1 || { fail setup "cannot write the demo model"; exit 1; }
fi

# A folder's file list with a content hash per file (what must not change).
snapshot() { [ -d "$1" ] || { echo "missing $1"; return; }; (cd "$1" && find . -type f -o -type l | LC_ALL=C sort | while read -r f; do echo "$f $(cksum <"$f")"; done); }
# Compiles every src/*.c of a module (a stale source from another conversion would break it).
compiles() {
  for f in "$1"/src/*.c; do
    cc -std=c99 -Wall -Werror -c "$f" -I"$1/include" -I"$1/src" -o "$work/obj.o" 2>>"$work/cc.log" || return 1
  done
}

# 1. A fresh folder: the manifest lists exactly the files written (with their hashes).
d="$work/fresh"; rm -rf "$d"
if "$B" convert "$model" -o "$d" --name first >"$work/out1" 2>&1 && [ -f "$d/.tinyaot-manifest" ]; then
  listed=$(grep -v '^#' "$d/.tinyaot-manifest" | cut -d' ' -f2 | LC_ALL=C sort)
  present=$(cd "$d" && find . -type f ! -name .tinyaot-manifest | sed 's|^\./||' | LC_ALL=C sort)
  if [ "$listed" = "$present" ] && [ -n "$listed" ]; then pass manifest_lists_every_file
  else fail manifest_lists_every_file "manifest and folder differ"; fi
else fail manifest_lists_every_file "conversion failed: $(head -c 300 "$work/out1")"; fi

# 2. A folder holding the user's files, no manifest: refused with one line naming the
#    folder and files; nothing written, the user's files unchanged.
u="$work/user"; rm -rf "$u"; mkdir -p "$u"
printf '# my project\n' >"$u/README.md"; printf 'all:\n\techo mine\n' >"$u/Makefile"
before=$(snapshot "$u")
"$B" convert "$model" -o "$u" >"$work/out2" 2>&1; rc=$?
if [ $rc -ne 0 ] && [ "$(wc -l <"$work/out2")" -eq 1 ] && grep -q "$u" "$work/out2" && grep -q "README.md" "$work/out2" &&
   grep -q -- "--force" "$work/out2" && [ "$(snapshot "$u")" = "$before" ]; then pass foreign_folder_refused
else fail foreign_folder_refused "rc $rc: $(head -c 300 "$work/out2")"; fi

# 3. `-o .` in the user's project: README.md and Makefile survive, also with --force (the
#    module needs those names: refused, never overwritten), and nothing is written.
(cd "$u" && "$B" convert "$model" -o . >"$work/out3" 2>&1); rc1=$?
(cd "$u" && "$B" convert "$model" -o . --force >"$work/out3f" 2>&1); rc2=$?
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ "$(snapshot "$u")" = "$before" ] && grep -q "not written by tinyaot" "$work/out3f"
then pass dot_output_keeps_user_files
else fail dot_output_keeps_user_files "rc $rc1/$rc2, files changed or wrong message: $(head -c 200 "$work/out3f")"; fi

# 4. --force into a folder with other user files: the module is written beside them.
f="$work/forced"; rm -rf "$f"; mkdir -p "$f/data"
printf 'notes\n' >"$f/notes.txt"; printf 'x' >"$f/data/mine.bin"
"$B" convert "$model" -o "$f" >"$work/out4a" 2>&1; rc1=$?
"$B" convert "$model" -o "$f" --force --name forced >"$work/out4" 2>&1; rc2=$?
if [ $rc1 -ne 0 ] && [ $rc2 -eq 0 ] && [ "$(cat "$f/notes.txt")" = notes ] && [ "$(cat "$f/data/mine.bin")" = x ] &&
   [ -f "$f/include/forced_model.h" ] && ! grep -q "notes.txt\|mine.bin" "$f/.tinyaot-manifest"; then pass force_writes_beside
else fail force_writes_beside "rc $rc1/$rc2: $(head -c 300 "$work/out4")"; fi

# 5. A second conversion under another name into the same folder: the first module's files
#    are gone, the user's file stays, and the module compiles (every src/*.c, and its Makefile).
d2="$work/second"; rm -rf "$d2"; cp -r "$d" "$d2"
printf 'keep me\n' >"$d2/my_notes.md"
if "$B" convert "$model" -o "$d2" --name second >"$work/out5" 2>&1; then
  left=$(cd "$d2" && find . -name 'first_*' | head -3)
  if [ -n "$left" ]; then fail reconvert_other_name "stale files of the first module: $left"
  elif [ "$(cat "$d2/my_notes.md")" != "keep me" ]; then fail reconvert_other_name "user file changed"
  elif ! compiles "$d2"; then fail reconvert_other_name "src/*.c does not compile: $(tail -n 3 "$work/cc.log")"
  elif ! make -s -C "$d2" >"$work/make5" 2>&1 || [ ! -f "$d2/libsecond.a" ]; then fail reconvert_other_name "module Makefile: $(tail -n 3 "$work/make5")"
  else pass reconvert_other_name; fi
else fail reconvert_other_name "$(head -c 300 "$work/out5")"; fi

# 6. Re-converting after the module was built (objects and library in the folder are the
#    user's): succeeds and keeps them.
if "$B" convert "$model" -o "$d2" --name second >"$work/out6" 2>&1 && [ -f "$d2/libsecond.a" ]; then pass reconvert_keeps_build_outputs
else fail reconvert_keeps_build_outputs "$(head -c 300 "$work/out6")"; fi

# 7. A generated file edited by the user stops the next conversion (both under the same
#    name and another); with --force, an edited file the new module does not need is kept.
e="$work/edited"; rm -rf "$e"
"$B" convert "$model" -o "$e" --name one >/dev/null 2>&1
printf '/* my change */\n' >>"$e/src/one_model.c"
before=$(snapshot "$e")
"$B" convert "$model" -o "$e" --name one >"$work/out7a" 2>&1; rc1=$?
"$B" convert "$model" -o "$e" --name two >"$work/out7b" 2>&1; rc2=$?
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && grep -q "one_model.c was changed" "$work/out7a" && [ "$(snapshot "$e")" = "$before" ]
then pass edited_file_stops_conversion
else fail edited_file_stops_conversion "rc $rc1/$rc2: $(head -c 300 "$work/out7a")"; fi
if "$B" convert "$model" -o "$e" --name two --force >"$work/out7c" 2>&1 && tail -n 1 "$e/src/one_model.c" | grep -q "my change" &&
   [ ! -f "$e/src/one_weights.c" ] && [ -f "$e/src/two_model.c" ]; then pass force_keeps_edited_file
else fail force_keeps_edited_file "$(head -c 300 "$work/out7c")"; fi

# 8. A refused conversion leaves no temporary or partial file (a folder that is a file, and a
#    model that does not compile, into an existing module).
printf 'not a folder' >"$work/plainfile"
"$B" convert "$model" -o "$work/plainfile" >"$work/out8" 2>&1; rc1=$?
printf 'garbage' >"$work/bad.tflite"
before=$(snapshot "$d2")
"$B" convert "$work/bad.tflite" -o "$d2" --name second >"$work/out8b" 2>&1; rc2=$?
if [ $rc1 -ne 0 ] && [ "$(cat "$work/plainfile")" = "not a folder" ] && [ $rc2 -ne 0 ] && [ "$(snapshot "$d2")" = "$before" ] &&
   [ -z "$(find "$work" -name '*.tinyaot-new')" ]; then pass refusal_writes_nothing
else fail refusal_writes_nothing "rc $rc1/$rc2: $(head -c 200 "$work/out8") $(head -c 200 "$work/out8b")"; fi

# 9. Deterministic: two conversions into fresh folders are byte-identical, manifest included.
rm -rf "$work/det_a" "$work/det_b"
"$B" convert "$model" -o "$work/det_a" --name det >/dev/null 2>&1
"$B" convert "$model" -o "$work/det_b" --name det >/dev/null 2>&1
if [ -f "$work/det_a/.tinyaot-manifest" ] && diff -r "$work/det_a" "$work/det_b" >/dev/null; then pass deterministic_with_manifest
else fail deterministic_with_manifest "the two folders differ"; fi

# 10. A damaged manifest is refused (never guessed at), and nothing is written.
rm -rf "$work/damaged" && cp -r "$work/det_a" "$work/damaged"
printf 'zz not-a-hash\n' >>"$work/damaged/.tinyaot-manifest"
before=$(snapshot "$work/damaged")
"$B" convert "$model" -o "$work/damaged" --name det >"$work/out10" 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "damaged" "$work/out10" && [ "$(snapshot "$work/damaged")" = "$before" ]; then pass damaged_manifest_refused
else fail damaged_manifest_refused "rc $rc: $(head -c 200 "$work/out10")"; fi
# 11. An archive path (--module.path X.zip): a file there that tinyaot did not write is never
#     replaced; tinyaot's own archive is (a re-conversion).
printf 'my archive\n' >"$work/user.zip"
"$B" convert "$model" -o "$work/user.zip" >"$work/out11" 2>&1; rc1=$?
"$B" convert "$model" -o "$work/mine.zip" >/dev/null 2>&1; rc2=$?
"$B" convert "$model" -o "$work/mine.zip" >"$work/out11b" 2>&1; rc3=$?
if [ $rc1 -ne 0 ] && [ "$(cat "$work/user.zip")" = "my archive" ] && grep -q "not an archive tinyaot wrote" "$work/out11" &&
   [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ]; then pass archive_never_over_user_file
else fail archive_never_over_user_file "rc $rc1/$rc2/$rc3: $(head -c 200 "$work/out11") $(head -c 200 "$work/out11b")"; fi
exit 0
