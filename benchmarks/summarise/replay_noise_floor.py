#!/usr/bin/env python3
"""How much of a constrained pick's "within 5% of the recording's best" is measurement noise.

Usage: python3 -m benchmarks.summarise replay-noise-floor RECORDING.db[.xz] [--max-aepe 0.25] [--within 0.05]

For the pick "fastest with AEPE <= bound": P* = the algorithm parameters (params_json) of the
recording's fastest feasible point. Prints, over the kernels (variant, precision, tunables)
measured at P*: how many are competitive (within 20% of the best), how many are within the
pick's tolerance, the Spearman rank correlation of the competitive kernels' times at P*
against the same kernels at the neighbouring parameter sets (one parameter changed, same
AEPE class), and between the two items at P*; and the number k of distinct competitive
kernels a search must measure at P* for a 90% chance that one is within the tolerance, if
their order is not predictable (hypergeometric: 1 - C(N - G, k) / C(N, k)).
Reads the DB only (sqlite3); prints a Markdown list.
"""
import json
import lzma
import shutil
import sqlite3
import sys
import tempfile
from math import comb


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    for pos, i in enumerate(order):
        r[i] = float(pos)
    return r


def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    path, bound, within = args[0], 0.25, 0.05
    if "--max-aepe" in args:
        bound = float(args[args.index("--max-aepe") + 1])
    if "--within" in args:
        within = float(args[args.index("--within") + 1])
    tmp = None
    if path.endswith(".xz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".db")
        with lzma.open(path) as src:
            shutil.copyfileobj(src, tmp)
        tmp.flush()
        path = tmp.name
    db = sqlite3.connect(path)
    rows = db.execute(
        "select c.variant || ' ' || c.precision || ' ' || c.tunables_json, c.params_json, "
        "m.time_ms_median, x.value, m.id from measurements m join configs c on c.id = m.config_id "
        "join metrics x on x.measurement_id = m.id and x.item = '' and x.name = 'aepe'").fetchall()
    items = {}
    for mid, item, t in db.execute("select measurement_id, item, time_ms from item_results"):
        items.setdefault(mid, {})[item] = t
    by_params = {}
    for kernel, params, t, aepe, mid in rows:
        by_params.setdefault(params, {})[kernel] = (t, aepe, mid)
    feasible = [r for r in rows if r[3] <= bound]
    if not feasible:
        sys.exit("replay-noise-floor: no point with AEPE <= %g in %s" % (bound, args[0]))
    best = min(feasible, key=lambda r: r[2])
    star = best[1]
    at_star = by_params[star]
    t_best = best[2]
    competitive = {k: v for k, v in at_star.items() if v[0] <= 1.2 * t_best}
    good = [k for k, v in competitive.items() if v[0] <= (1 + within) * t_best]
    n, g = len(competitive), len(good)
    k90 = next((k for k in range(1, n + 1) if 1 - comb(n - g, k) / comb(n, k) >= 0.9), n)
    print("- P* (the params of the fastest point with AEPE <= %g, %.3f ms): %s"
          % (bound, t_best, json.dumps(json.loads(star), sort_keys=True)))
    print("- kernels measured at P*: %d; competitive (within 20%% of the best): N = %d; "
          "within %g%%: G = %d" % (len(at_star), n, 100 * within, g))
    pstar = json.loads(star)
    for params, kernels in sorted(by_params.items()):
        p = json.loads(params)
        diff = [key for key in p if p[key] != pstar.get(key)]
        if len(diff) != 1:
            continue
        common = [k for k in competitive if k in kernels]
        rho = spearman([competitive[k][0] for k in common], [kernels[k][0] for k in common])
        print("- Spearman of the competitive kernels' times, P* vs %s = %s: %.2f (%d kernels)"
              % (diff[0], p[diff[0]], rho, len(common)))
    names = sorted({i for k in competitive for i in items.get(competitive[k][2], {})})
    if len(names) == 2:
        a = [items[competitive[k][2]][names[0]] for k in competitive]
        b = [items[competitive[k][2]][names[1]] for k in competitive]
        print("- Spearman of the competitive kernels' times at P*, item %s vs %s: %.2f"
              % (names[0], names[1], spearman(a, b)))
    print("- distinct competitive kernels a search must measure at P* for a 90%% chance of one "
          "within %g%% (order unpredictable): k = %d" % (100 * within, k90))
    for k in (1, 2, 3, 4, 6, 9):
        if k <= n:
            print("  - k = %d: %.2f" % (k, 1 - comb(n - g, k) / comb(n, k)))


if __name__ == "__main__":
    main()
