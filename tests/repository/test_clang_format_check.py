#!/usr/bin/env python3
"""clang_format_check.py on a scratch git repository with the house .clang-format: a formatted
file passes, a misformatted one is named with its line, records under results/ and files
git does not track are not read. Skipped (77) without clang-format 14 or git."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import clang_format_check  # noqa: E402


def run(repo):
    p = subprocess.run([sys.executable, os.path.join(HERE, "clang_format_check.py"), repo],
                       capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    if clang_format_check.find_clang_format(None) is None or shutil.which("git") is None:
        print("no clang-format 14 or no git: skipped")
        return 77
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(ROOT, ".clang-format"), d)
        os.makedirs(os.path.join(d, "src"))
        os.makedirs(os.path.join(d, "results"))
        with open(os.path.join(d, "src", "good.cpp"), "w") as f:
            f.write("int add(int a, int b) {\n  return a + b;\n}\n")
        with open(os.path.join(d, "results", "tuned.h"), "w") as f:
            f.write("int   kept_as_written ;\n")
        subprocess.run(["git", "init", "-q", d], check=True)
        subprocess.run(["git", "-C", d, "add", "."], check=True)
        with open(os.path.join(d, "src", "untracked.cu"), "w") as f:
            f.write("int   not_read ;\n")
        rc, out = run(d)
        assert rc == 0, out
        assert "1 files formatted" in out, out
        with open(os.path.join(d, "src", "bad.cuh"), "w") as f:
            f.write("#pragma once\nint f(int x) {\nreturn x;}\n")
        subprocess.run(["git", "-C", d, "add", "src/bad.cuh"], check=True)
        rc, out = run(d)
        assert rc == 1, out
        assert "1 of 2 files" in out and "src/bad.cuh:2:" in out, out
        assert "good.cpp" not in out and "tuned.h" not in out, out
    print("clang_format_check: formatted, misformatted, excluded and untracked files as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
