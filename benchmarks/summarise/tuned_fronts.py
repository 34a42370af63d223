#!/usr/bin/env python3
"""The tuner's picks of benchmarks/run tuned-eight from its raw outputs (one folder: its $OUT):
equal.db.xz (RubberWhale + Grove2, fastest at OpenCV's mean AEPE 0.1807) and every other *.db.xz
(the 8 Middlebury sequences, lowest mean AEPE within each time per frame). Times are `tune`'s
medians per frame (host API, mean over the items). Python standard library only.
Usage: python3 -m benchmarks.summarise tuned-fronts FOLDER"""
import json, lzma, os, sqlite3, sys, tempfile

folder = sys.argv[1] if len(sys.argv) > 1 else "."
TRAIN = ("Dimetrodon", "Grove3", "RubberWhale", "Urban3")
HELD_OUT = ("Grove2", "Hydrangea", "Urban2", "Venus")
KEYS = ("n_scales", "zoom", "n_warpings", "iterations", "median_window", "nl_median_window",
        "texture_alpha", "rof_iterations")


def open_db(name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    tmp = tempfile.mktemp(suffix=".db")
    with open(tmp, "wb") as f:
        f.write(lzma.open(path).read())
    return sqlite3.connect(tmp)


def points(db):
    """(time_ms, min, max, aepe, variant tunables, params, {item: aepe}) per measured config."""
    q = """select m.id, m.time_ms_median, m.time_ms_min, m.time_ms_max, x.value, c.label,
                  c.params_json from measurements m join configs c on c.id = m.config_id
           join metrics x on x.measurement_id = m.id and x.item = '' and x.name = 'aepe'"""
    out = []
    for mid, t, lo, hi, a, label, p in db.execute(q):
        items = dict(db.execute("select item, value from metrics where measurement_id = ? and "
                                "name = 'aepe' and item != ''", (mid,)).fetchall())
        out.append((t, lo, hi, a, label, json.loads(p), items))
    return out


def params_text(p):
    return " ".join(f"{k}={p[k]}" for k in KEYS if k in p)


def row(pt):
    t, lo, hi, a, label, p, _ = pt
    return f"| {t:.3f} [{lo:.3f}, {hi:.3f}] | {a:.4f} | {label} | {params_text(p)} |"


def mean(items, names):
    vals = [items[n] for n in names if n in items]
    return sum(vals) / len(vals) if len(vals) == len(names) else None


equal = open_db("equal.db.xz")
if equal:
    pts = points(equal)
    ok = sorted((p for p in pts if p[3] <= 0.1807), key=lambda p: p[0])
    print(f"### RubberWhale + Grove2: fastest at mean AEPE <= 0.1807 (OpenCV's)\n")
    print(f"{len(pts)} configs measured, {len(ok)} at mean AEPE <= 0.1807.\n")
    print("| time ms median [min, max] | mean AEPE | config | params |")
    print("|---|---|---|---|")
    for p in ok[:8]:
        print(row(p))
    print()
for name in sorted(f for f in os.listdir(folder) if f.endswith(".db.xz") and f != "equal.db.xz"):
    pts = points(open_db(name))
    print(f"### 8 Middlebury sequences ({name}): lowest mean AEPE within a time per frame\n")
    print(f"{len(pts)} configs measured on the 8 sequences.\n")
    print("| budget ms | time ms median [min, max] | mean AEPE (8) | training 4 | held-out 4 | config | params |")
    print("|---|---|---|---|---|---|---|")
    for budget in (0.6, 1.0, 1.5, 2.0, 5.0, 10.0):
        within = [p for p in pts if p[0] <= budget]
        if not within:
            print(f"| {budget} | - | - | - | - | none measured within the budget | |")
            continue
        b = min(within, key=lambda p: p[3])
        tr, ho = mean(b[6], TRAIN), mean(b[6], HELD_OUT)
        f = lambda v: "-" if v is None else f"{v:.4f}"
        print(f"| {budget} | {b[0]:.3f} [{b[1]:.3f}, {b[2]:.3f}] | {b[3]:.4f} | {f(tr)} | {f(ho)} | "
              f"{b[4]} | {params_text(b[5])} |")
    print()
    print("Held out: the point with the lowest training-4 mean (Dimetrodon, Grove3, RubberWhale, "
          "Urban3) within the budget, reported on the other 4 (Grove2, Hydrangea, Urban2, Venus).\n")
    print("| budget ms | time ms | training 4 | held-out 4 | mean AEPE (8) | params |")
    print("|---|---|---|---|---|---|")
    for budget in (0.6, 1.0, 1.5, 2.0, 5.0, 10.0):
        within = [p for p in pts if p[0] <= budget and mean(p[6], TRAIN) is not None]
        if not within:
            continue
        b = min(within, key=lambda p: mean(p[6], TRAIN))
        ho = mean(b[6], HELD_OUT)
        print(f"| {budget} | {b[0]:.3f} | {mean(b[6], TRAIN):.4f} | "
              f"{'-' if ho is None else f'{ho:.4f}'} | {b[3]:.4f} | {params_text(b[5])} |")
    print()
