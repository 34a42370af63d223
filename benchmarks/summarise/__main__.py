"""`python3 -m benchmarks.summarise KIND ARGS...`: runs the summariser module KIND.

KIND is a module of this package, written with '-' or '_' (`main-job` = main_job.py). The
module sees ARGS as its command line (sys.argv[1:]). `--list` prints the kinds. An unknown
kind is a usage error (exit 2) naming the kinds there are.

Raw outputs committed under results/ are xz-compressed when large: while a summariser runs, a
read of FILE that does not exist opens FILE.xz instead (text or bytes, as asked), so every
summariser reads a committed record as it reads a fresh output folder.
"""
import builtins
import lzma
import os
import pkgutil
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def kinds():
    """The summariser modules of this package, sorted, as CLI names ('-' for '_')."""
    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules([HERE])
                  if not m.name.startswith("_"))


def open_or_xz(file, mode="r", *args, **kwargs):
    """builtins.open, except that reading a missing FILE reads FILE.xz when that exists."""
    if (isinstance(file, (str, os.PathLike)) and not any(c in mode for c in "wax+")
            and not os.path.exists(file) and os.path.exists(str(file) + ".xz")):
        encoding = kwargs.get("encoding") if "b" not in mode else None
        return lzma.open(str(file) + ".xz", mode if "b" in mode else "rt", encoding=encoding,
                         newline=kwargs.get("newline") if "b" not in mode else None)
    return PLAIN_OPEN(file, mode, *args, **kwargs)


PLAIN_OPEN = builtins.open


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print("usage: python3 -m benchmarks.summarise KIND ARGS...\nkinds: " + " ".join(kinds()))
        return 0 if argv else 2
    kind = argv[0].replace("-", "_")
    if kind.replace("_", "-") not in kinds():
        print(f"benchmarks.summarise: unknown kind '{argv[0]}'; kinds: {' '.join(kinds())}",
              file=sys.stderr)
        return 2
    sys.argv = [f"benchmarks.summarise {argv[0]}"] + argv[1:]
    builtins.open = open_or_xz
    runpy.run_module(f"benchmarks.summarise.{kind}", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
