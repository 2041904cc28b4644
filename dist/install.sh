#!/bin/sh
# make install / make uninstall (Makefile): the compiler, its helia-aot link (heliaAOT's
# command name: the same binary with heliaAOT's defaults), its man page and its bash
# completion. The runtime kernels are embedded in the binary: no kernel sources are
# installed. install records what it created in ROOT/share/tinyaot/installed (files, and
# the directories that did not exist before, ROOT and its parents included); uninstall removes
# exactly those files, then those directories when they are empty (a directory holding
# anything else stays).
# usage: sh dist/install.sh install ROOT BINARY | sh dist/install.sh uninstall ROOT
#   ROOT is $(DESTDIR)$(PREFIX)
set -u
what=$1 root=$2
here=$(cd "$(dirname "$0")" && pwd)
record="$root/share/tinyaot/installed"
FILES="bin/tinyaot share/man/man1/tinyaot.1 share/bash-completion/completions/tinyaot"

mkdirs() { # DIR (relative to root): creates it and its missing parents, recording each
  [ -d "$root/$1" ] && return 0
  parent=$(dirname "$1")
  [ "$parent" != . ] && { mkdirs "$parent" || return 1; }
  mkdir "$root/$1" || return 1
  echo "dir $1" >>"$new"
}

case "$what" in
  install)
    binary=$3
    [ -x "$binary" ] || { echo "install: no compiler at $binary (run make first)" >&2; exit 1; }
    new=$(mktemp) || exit 1
    trap 'rm -f "$new"' EXIT
    # an earlier install's directories stay recorded
    [ -f "$record" ] && grep '^dir \|^top ' "$record" >>"$new"
    # ROOT itself and its missing parents, recorded as "top PATH" (uninstall removes them if empty)
    top=$root
    while [ ! -d "$top" ]; do echo "top $top" >>"$new"; top=$(dirname "$top"); done
    mkdir -p "$root" || exit 1
    for d in bin share/man/man1 share/bash-completion/completions share/tinyaot; do mkdirs "$d" || exit 1; done
    install -m 755 "$binary" "$root/bin/tinyaot" &&
      install -m 644 "$here/tinyaot.1" "$root/share/man/man1/tinyaot.1" &&
      install -m 644 "$here/tinyaot.bash-completion" "$root/share/bash-completion/completions/tinyaot" || exit 1
    for f in $FILES; do echo "file $f"; done >>"$new"
    # helia-aot: a link to tinyaot, unless that name is already someone else's (heliaAOT itself)
    link="$root/bin/helia-aot"
    if [ -L "$link" ] && [ "$(readlink "$link")" = tinyaot ] || { [ ! -e "$link" ] && [ ! -L "$link" ]; }; then
      ln -sf tinyaot "$link" || exit 1
      echo "file bin/helia-aot" >>"$new"
      FILES="$FILES bin/helia-aot"
    else
      echo "install: $link exists and is not tinyaot's link: left alone (no helia-aot command installed)" >&2
    fi
    echo "file share/tinyaot/installed" >>"$new"
    install -m 644 "$new" "$record" || exit 1
    echo "installed tinyaot into $root: $FILES (the kernels are embedded in bin/tinyaot)"
    ;;
  uninstall)
    if [ -f "$record" ]; then
      list=$(cat "$record") || exit 1
      echo "$list" | sed -n 's/^file //p' | while read -r f; do rm -f "$root/$f"; done
      # directories, deepest first, only when empty
      echo "$list" | sed -n 's/^dir //p' | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- |
        while read -r d; do rmdir "$root/$d" 2>/dev/null || true; done
      # then the prefix folders install created (deepest first), again only when empty
      echo "$list" | sed -n 's/^top //p' | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- |
        while read -r d; do rmdir "$d" 2>/dev/null || true; done
    else
      for f in $FILES; do rm -f "$root/$f"; done
      [ "$(readlink "$root/bin/helia-aot" 2>/dev/null)" = tinyaot ] && rm -f "$root/bin/helia-aot"
    fi
    echo "removed tinyaot from $root"
    ;;
  *) echo "usage: dist/install.sh install ROOT BINARY | uninstall ROOT" >&2; exit 2 ;;
esac
