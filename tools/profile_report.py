"""Reads a profile (ADDR COUNT lines from the QEMU plugin's profile= option) of an ELF image:
prints the functions that execute the most instructions, then the annotated disassembly of
the functions named (by prefix) on the command line. Used by tools/profile.sh."""
import bisect
import collections
import re
import subprocess
import sys


def functions(elf):
    syms = []
    nm = subprocess.run(["arm-none-eabi-nm", "-S", elf], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16) & ~1, int(f[1], 16), f[3]))
    return sorted(syms)


def main():
    elf, profile, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    counts = {}
    with open(profile) as f:
        for line in f:
            addr, n = line.split()
            counts[int(addr, 16)] = int(n)
    syms = functions(elf)
    starts = [s[0] for s in syms]
    per_fn = collections.Counter()
    for addr, n in counts.items():
        i = bisect.bisect_right(starts, addr) - 1
        inside = i >= 0 and addr < syms[i][0] + max(syms[i][1], 1)
        per_fn[syms[i][2] if inside else "?"] += n
    total = sum(per_fn.values())
    for name, n in per_fn.most_common(25):
        print(f"{n:12,d} {100 * n / total:5.1f} %  {name}")
    print(f"{total:12,d} instructions in all (reset to exit)")
    if not wanted:
        return
    dump = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf], capture_output=True, text=True,
                          check=True).stdout
    on = False
    for line in dump.splitlines():
        head = re.match(r"^[0-9a-f]+ <([^>]+)>:", line)
        if head:
            on = any(head.group(1).startswith(w) for w in wanted)
            if on:
                print("\n" + line)
            continue
        insn = re.match(r"^\s*([0-9a-f]+):\s*(.*)", line)
        if on and insn:
            print(f"{counts.get(int(insn.group(1), 16), 0):10d}  {insn.group(1)}: {insn.group(2)}")


if __name__ == "__main__":
    main()
