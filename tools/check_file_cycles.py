#!/usr/bin/env python3
"""File-level dependency cycles of the compiler (issue 30 item 7).

Builds the graph "file A uses a symbol file B defines" from the object files
(`nm`: defined vs undefined symbols of each BUILD/obj/src/**/*.o) and prints every
strongly connected component with more than one file. Exits 1 when there is one.

usage: tools/check_file_cycles.py [BUILD]   (default: build; run `make build/tinyaot` first)
"""
import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) external symbol names of one object file."""
    out = subprocess.run(["nm", "-g", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        (undefined if parts[1] == "U" else defined).add(parts[0])
    return defined, undefined


def object_files(root):
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".o"):
                yield os.path.join(d, n)


def graph(build):
    root = os.path.join(build, "obj", "src")
    objs = sorted(object_files(root))
    if not objs:
        sys.exit(f"check_file_cycles: no object files under {root} (build first)")
    defs, uses = {}, {}
    for o in objs:
        name = "src/" + os.path.relpath(o, root)[:-2] + ".c"
        d, u = symbols(o)
        uses[name] = u
        for s in d:
            defs[s] = name
    return {f: sorted({defs[s] for s in u if s in defs and defs[s] != f}) for f, u in uses.items()}


def components(g):
    """Tarjan's strongly connected components, iterative (no recursion limit)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(g[start]))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(g[nxt])))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    g = graph(build)
    cycles = sorted(c for c in components(g) if len(c) > 1)
    for c in cycles:
        members = set(c)
        print(f"cycle of {len(c)} files:")
        for f in c:
            print(f"  {f} -> {', '.join(t for t in g[f] if t in members)}")
    print(f"{len(cycles)} file cycle(s) over {len(g)} files")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
