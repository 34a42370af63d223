#!/usr/bin/env python3
"""Every tracked C++ and CUDA source is as clang-format writes it with the repository's
.clang-format (the house style: Google, 100 columns, C++17).

    clang_format_check.py REPO_ROOT [CLANG_FORMAT]
        exit 0: every file formatted; 1: the files that are not, each with clang-format's first
        complaint (FILE:LINE:COLUMN); 2: bad usage; 77 (skip): REPO_ROOT is not a git work
        tree, or no clang-format of the pinned major version is found

The files are those `git ls-files` lists with the endings .cpp .hpp .h .cc .cu .cuh, except the
records under results/ (headers that `tune export` wrote, kept as written). The major version
is pinned (PINNED_MAJOR, Debian 12's clang-format 14) because versions format some constructs
differently; `clang-format -i FILE` with that version fixes a file. Python standard library
and git only.
"""
import os
import re
import shutil
import subprocess
import sys

PINNED_MAJOR = 14
ENDINGS = (".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh")
EXCLUDED_PREFIXES = ("results/",)


def find_clang_format(named):
    """The path of a clang-format of PINNED_MAJOR (named, clang-format-14 or clang-format on
    PATH), or None."""
    for name in ([named] if named else []) + [f"clang-format-{PINNED_MAJOR}", "clang-format"]:
        path = shutil.which(name)
        if not path:
            continue
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
        except OSError:
            continue
        m = re.search(r"version (\d+)\.", out)
        if m and int(m.group(1)) == PINNED_MAJOR:
            return path
    return None


def tracked_sources(root):
    """The tracked C++/CUDA files under root (paths relative to it), or None outside git."""
    p = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
    if p.returncode != 0:
        return None
    names = [n for n in p.stdout.decode("utf-8", "replace").split("\0") if n]
    return sorted(n for n in names if n.endswith(ENDINGS) and not n.startswith(EXCLUDED_PREFIXES)
                  and os.path.isfile(os.path.join(root, n)))


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    tool = find_clang_format(argv[2] if len(argv) == 3 else None)
    if tool is None:
        print(f"clang_format_check: no clang-format {PINNED_MAJOR} found: skipped")
        return 77
    files = tracked_sources(root)
    if files is None:
        print(f"clang_format_check: {root} is not a git work tree: skipped")
        return 77
    bad = []
    for start in range(0, len(files), 200):
        chunk = files[start:start + 200]
        p = subprocess.run([tool, "--dry-run", "-Werror", "--style=file"] + chunk, cwd=root,
                           capture_output=True, text=True)
        first = {}
        for line in p.stderr.splitlines():
            m = re.match(r"(.+?):(\d+):(\d+): error:", line)
            if m and m.group(1) not in first:
                first[m.group(1)] = f"{m.group(1)}:{m.group(2)}:{m.group(3)}"
        if p.returncode != 0 and not first:
            print(f"clang_format_check: {tool} failed: {p.stderr.strip()[:500]}", file=sys.stderr)
            return 1
        bad += [first[f] for f in sorted(first)]
    if bad:
        print(f"clang_format_check: {len(bad)} of {len(files)} files are not as clang-format "
              f"{PINNED_MAJOR} writes them (fix: clang-format -i FILE):")
        for b in bad:
            print(f"  {b}")
        return 1
    print(f"clang_format_check: {len(files)} files formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
