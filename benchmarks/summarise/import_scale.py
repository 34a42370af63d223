#!/usr/bin/env python3
"""Table of benchmarks/import_scale runs: every import-N.time under FOLDER (one folder per
repetition, e.g. FOLDER/rep1/, or FOLDER itself) -> one row per N: runs, wall s, CPU s
(user + system) and max RSS MiB as medians with [min, max], and the exit statuses.
Python standard library only.  Usage: python3 -m benchmarks.summarise import-scale FOLDER   (prints Markdown)"""
import os, re, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "build/import-scale"


def parse(path):
    text = open(path, errors="replace").read()

    def field(name):
        m = re.search(re.escape(name) + r":\s*(\S+)", text)
        return m.group(1) if m else None

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    if wall is None:
        return None
    seconds = 0.0
    for part in wall.split(":"):
        seconds = seconds * 60 + float(part)
    return {
        "wall": seconds,
        "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
        "rss": int(field("Maximum resident set size (kbytes)")) / 1024,
        "exit": int(field("Exit status") or 0),
    }


runs = {}
for root, _, files in sorted(os.walk(folder)):
    for name in sorted(files):
        m = re.fullmatch(r"import-(\d+)\.time", name)
        if m:
            r = parse(os.path.join(root, name))
            if r:
                runs.setdefault(int(m.group(1)), []).append(r)


def cell(values, digits=1):
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} [{min(values):.{digits}f}, {max(values):.{digits}f}]"


print("| entries | runs | wall s | CPU s (user+sys) | max RSS MiB | exit |")
print("|--:|--:|--:|--:|--:|--|")
for n in sorted(runs):
    rs = runs[n]
    exits = ",".join(str(r["exit"]) for r in rs)
    print(f"| {n} | {len(rs)} | {cell([r['wall'] for r in rs])} | "
          f"{cell([r['cpu'] for r in rs])} | {cell([r['rss'] for r in rs], 0)} | {exits} |")
