#!/usr/bin/env python3
"""Turns the output folders of benchmarks/run fuzz-import into the fuzz table of
results/fuzz-import/h200/2026-11-24/README.md.

    python3 -m benchmarks.summarise fuzz-import [--text] OUT [OUT...]

Per harness folder OUT/<h>/: executions = the sum over its jobs' logs (fuzz-*.log, or fuzz-*.log.xz as committed) of
libFuzzer's stat::number_of_executed_units (a job that stopped on a finding has no final
statistics: its last "#N" status line counts); wall s from wall.txt (start and end, s since
the epoch); findings = the crash-, leak-, timeout-, oom- and slow-unit- files there, and a
non-zero exit (rc.txt). Several OUT folders (the calls of one campaign, each resuming from
the corpus of the one before): executions, wall s and findings are added up per harness.
exec/s = executions / wall s (all jobs of a harness together). Markdown by default, --text:
aligned columns.
"""
import glob
import os
import re
import sys


def executions(log_path):
    if log_path.endswith(".xz"):
        import lzma
        text = lzma.open(log_path, "rt", errors="replace").read()
    else:
        text = open(log_path, errors="replace").read()
    final = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", text, re.M)
    if final:
        return int(final[-1])
    status = re.findall(r"^#(\d+)\s", text, re.M)
    return int(status[-1]) if status else 0


def read_call(d, h):
    """(jobs, executions, wall s, findings list) of harness folder d."""
    n = sum(executions(p) for p in glob.glob(os.path.join(d, "fuzz-*.log")) + glob.glob(os.path.join(d, "fuzz-*.log.xz")))
    t0, t1 = map(float, open(os.path.join(d, "wall.txt")).read().split())
    jobs = open(os.path.join(d, "workers.txt")).read().strip()
    found = sorted(f for f in os.listdir(d) if re.match(r"(crash|leak|timeout|oom|slow-unit)-", f))
    rc = open(os.path.join(d, "rc.txt")).read().strip()
    if rc != "0" and not found:
        found = [f"exit {rc} ({h}/main.log)"]
    return jobs, n, t1 - t0, found


def main(argv):
    text = "--text" in argv
    outs = [a for a in argv if a != "--text"]
    if not outs:
        sys.exit(__doc__)
    rows = {}
    for out in outs:
        for h in sorted(os.listdir(out)):
            d = os.path.join(out, h)
            if not os.path.isfile(os.path.join(d, "wall.txt")):
                continue
            jobs, n, wall, found = read_call(d, h)
            r = rows.setdefault(h, {"jobs": [], "n": 0, "wall": 0.0, "found": []})
            r["jobs"].append(jobs)
            r["n"] += n
            r["wall"] += wall
            r["found"] += found
    if text:
        print(f"{'harness':<16} {'jobs':>7} {'executions':>12} {'wall_s':>7} {'exec/s':>9}  findings")
    else:
        print("| harness | jobs (cores) per call | executions | wall s | exec/s | findings |")
        print("|---|--:|--:|--:|--:|---|")
    for h, r in sorted(rows.items()):
        rate = r["n"] / r["wall"] if r["wall"] > 0 else 0
        jobs = "+".join(r["jobs"])
        found = "none" if not r["found"] else f"{len(r['found'])}: " + ", ".join(r["found"])
        if text:
            print(f"{h:<16} {jobs:>7} {r['n']:>12} {r['wall']:>7.1f} {rate:>9.0f}  {found}")
        else:
            n_text = f"{r['n']:,}".replace(",", " ")
            rate_text = f"{rate:,.0f}".replace(",", " ")
            print(f"| {h} | {jobs} | {n_text} | {r['wall']:.1f} | {rate_text} | {found} |")


if __name__ == "__main__":
    main(sys.argv[1:])
