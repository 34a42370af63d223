#!/usr/bin/env python3
"""The repository speaks of itself as it is now: no tracked text file names an issue or session
number or uses the remote runner's vocabulary (see ARCHITECTURE.md, Vocabulary: "the GPU
machine", "a benchmark run").

    history_words.py REPO_ROOT      exit 0: clean; 1: offences listed as FILE:LINE: TEXT (WHY);
                                    2: bad usage; 77: REPO_ROOT is not a git work tree (skip)

The files are those `git ls-files` lists; compressed and binary files and data (images, .flo,
.xz, databases; any file with a NUL byte or that is not UTF-8) are skipped. Python standard
library only.
"""
import os
import re
import subprocess
import sys

# An issue or session number, alone or inside a name (of a file, test or environment variable),
# with an optional space, underscore, hyphen or '#' before the number and an optional plural;
# test_history_words.py lists the cases. A letter before the word excludes "tissue" and
# "reissue"; the word without a number ("the issue tracker", "a tuning session") is no offence.
NUMBERED = re.compile(r"(?<![A-Za-z])(issue|session)s?[ _-]?#?[0-9]+", re.IGNORECASE)
# The vocabulary of the remote runner: the project says "the GPU machine" and "a benchmark run".
# (Written with classes so that this file does not match itself.)
RUNNER_WORDS = [re.compile(p, re.IGNORECASE)
                for p in (r"device[ -]calls?", r"run\(carry", r"carry[=]")]

SKIPPED_SUFFIXES = (
    ".xz", ".gz", ".bz2", ".zst", ".zip", ".tar", ".tgz", ".7z",
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ppm", ".pgm", ".pdf", ".ico",
    ".flo", ".db", ".sqlite", ".bin", ".pyc", ".so", ".a", ".o", ".npy", ".npz",
)

# The unit test of the matcher holds hand-written lines that must match.
EXEMPT = ("tests/repository/test_history_words.py",)


def offences(line):
    """The offending substrings of one line of text, each with its reason, in line order:
    a list of (text, why) pairs; empty for a clean line."""
    found = [(m.start(), m.group(0), "issue or session number") for m in NUMBERED.finditer(line)]
    for words in RUNNER_WORDS:
        found += [(m.start(), m.group(0), "runner vocabulary") for m in words.finditer(line)]
    return [(text, why) for _, text, why in sorted(found)]


def is_scanned(path):
    """Whether a tracked path is read at all: False for compressed, image, flow and database
    files (by suffix) and for the exempt files."""
    return path not in EXEMPT and not path.lower().endswith(SKIPPED_SUFFIXES)


def text_lines(data):
    """The lines of a file's bytes, or None when it is binary (a NUL byte, or not UTF-8)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None


def scan(root, paths):
    """Every offence in the given paths (relative to root): a list of (path, line_number, text,
    why), line numbers from 1. Paths that are not regular files (e.g. submodules) are skipped."""
    out = []
    for path in paths:
        full = os.path.join(root, path)
        if not is_scanned(path) or not os.path.isfile(full):
            continue
        with open(full, "rb") as f:
            lines = text_lines(f.read())
        for number, line in enumerate(lines or [], start=1):
            out += [(path, number, text, why) for text, why in offences(line)]
    return out


def tracked_files(root):
    """The files git tracks under root, or None when root is not a git work tree."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                                check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in listed.stdout.decode("utf-8", "replace").split("\0") if p]


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: history_words.py REPO_ROOT (a git work tree)", file=sys.stderr)
        return 2
    paths = tracked_files(argv[1])
    if paths is None:
        print("history_words.py: %s is not a git work tree; nothing checked" % argv[1])
        return 77
    found = scan(argv[1], paths)
    for path, number, text, why in found:
        print("%s:%d: %r (%s)" % (path, number, text, why))
    if found:
        files = len({f[0] for f in found})
        print("%d offences in %d files: say what the code does now, without issue or session "
              "numbers; say \"the GPU machine\" and \"a benchmark run\"" % (len(found), files))
        return 1
    print("no issue or session numbers, no runner vocabulary in %d tracked files" % len(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
