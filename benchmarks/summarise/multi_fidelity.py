#!/usr/bin/env python3
"""The table of results/multi-fidelity/h200/2026-11-24/summary.md from the raw outputs of two runs of
benchmarks/run main-job (tags single and multifidelity, 4 minutes each, cold caches) in
results/multi-fidelity/h200/2026-11-24/. Python standard library only."""
import lzma, re, sqlite3, sys, tempfile

folder = sys.argv[1] if len(sys.argv) > 1 else "results/multi-fidelity/h200/2026-11-24"


def rows(tag):
    path = tempfile.mktemp(suffix=".db")
    with open(path, "wb") as f:
        f.write(lzma.open(f"{folder}/main_job_{tag}.db.xz").read())
    q = """select m.time_ms_median, x.value, m.dataset from measurements m
           join metrics x on x.measurement_id = m.id and x.item = '' and x.name = 'aepe'"""
    return list(sqlite3.connect(path).execute(q))


print("| run | full-fidelity points | screens | screened out | fastest with AEPE <= 0.25 (ms / AEPE) | lowest AEPE within 2 ms (ms / AEPE) | lowest AEPE |")
print("|---|---|---|---|---|---|---|")
for tag in ("single", "multifidelity"):
    r = rows(tag)
    full = [(t, a) for t, a, d in r if "#screen" not in d]
    screens = sum("#screen" in d for _, _, d in r)
    log = lzma.open(f"{folder}/main_job_{tag}.log.xz", "rt").read()
    m = re.search(r"(\d+) settled by their screen", log)
    out = m.group(1) if m else "-"
    fast = min((x for x in full if x[1] <= 0.25), key=lambda x: x[0])
    acc2 = min((x for x in full if x[0] <= 2), key=lambda x: x[1])
    best = min(full, key=lambda x: x[1])
    print(f"| {tag} | {len(full)} | {screens} | {out} | {fast[0]:.3f} / {fast[1]:.4f} | {acc2[0]:.3f} / {acc2[1]:.4f} | {best[1]:.4f} |")
