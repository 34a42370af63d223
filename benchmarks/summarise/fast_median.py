#!/usr/bin/env python3
"""Report of benchmarks/run accuracy-front-fast-median (the weighted non-local median with the
register selection on the GPU) from its raw outputs in OUT_DIR.

Prints Markdown:
 1. the flow filters per call (bench_flow_filters: median us/call with min-max over 7 windows
    of 50 calls) at 584x388 against the committed before (the sorting kernel,
    results/accuracy-front-nl-median/h200/2026-11-25/flow_filters.md, same bench, same size, H200), with the
    speed-up, and at 640x480;
 2. the accuracy front of OUT_DIR/accuracy_front.csv (python3 -m benchmarks.summarise accuracy-front: best
    mean AEPE over the 8 Middlebury sequences within 1, 2, 5, 10 ms per frame, `no nl` /
    `nl on`, held-out rows, paired effects nl 0 -> 5, 0 -> 7);
 3. per budget, the best point with the weighted median before (the committed front,
    results/accuracy-front-nl-median/h200/2026-11-25/accuracy_front.csv) and now, and the best point of either
    run; then the issue's targets (mean AEPE <= 0.33 within 2 ms, <= 0.30 within 10 ms), met
    or missed, with the numbers.
Usage: python3 -m benchmarks.summarise fast-median OUT_DIR [--before-dir results/accuracy-front-nl-median/h200/2026-11-25]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def front_module():
    from benchmarks.summarise import accuracy_front
    return accuracy_front


def filter_rows(path):
    """{filter name: (median us, 'min-max')} from a bench_flow_filters table."""
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 3 and "(" in cells[1]:
                med, spread = cells[1].split(" ", 1)
                try:
                    rows[cells[0]] = (float(med), spread.strip("()"))
                except ValueError:
                    pass
    return rows


def complete_points(front, path):
    if not os.path.exists(path):
        return []
    points, order = front.load(path)
    rows = []
    for key in order:
        seqs = points[key]
        if all(s in seqs for s in front.ALL):
            r = front.stats(seqs)
            r["name"] = key[1]
            r["p"] = front.parse_name(key[1])
            rows.append(r)
    return rows


def cell(r):
    return f"{r['all']:.4f} ({r['ms']:.2f} ms: {r['name']})" if r else "-"


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    out = argv[0]
    before_dir = os.path.join(ROOT, "results", "accuracy-front-nl-median", "h200", "2026-11-25")
    if "--before-dir" in argv:
        before_dir = argv[argv.index("--before-dir") + 1]
    front = front_module()

    print("## Flow filters per call (bench_flow_filters, f32 pairs, sigmas 7 and 7)\n")
    old = filter_rows(os.path.join(before_dir, "flow_filters.md"))
    new = filter_rows(os.path.join(out, "flow_filters_584x388.md"))
    big = filter_rows(os.path.join(out, "flow_filters_640x480.md"))
    print("| filter | 584x388 before: us/call (min-max) | 584x388 now | speed-up | "
          "640x480 now |")
    print("|---|---|---|---:|---|")
    for name in new or old:
        o, n, b = old.get(name), new.get(name), big.get(name)
        speed = f"{o[0] / n[0]:.1f}x" if o and n and n[0] > 0 else ""
        fmt = lambda v: f"{v[0]:.1f} ({v[1]})" if v else "-"  # noqa: E731
        print(f"| {name} | {fmt(o)} | {fmt(n)} | {speed} | {fmt(b)} |")
    print(f"\nBefore: {os.path.relpath(before_dir, ROOT)}/flow_filters.md (the sorting kernel); "
          f"now: {out}/flow_filters_*.md.\n")

    csv_path = os.path.join(out, "accuracy_front.csv")
    print("## Accuracy front (nl_median_window 0, 5, 7)\n")
    if os.path.exists(csv_path):
        sys.stdout.flush()
        subprocess.run([sys.executable, "-m", "benchmarks.summarise", "accuracy-front", csv_path], cwd=ROOT,
                       check=False)
    else:
        print(f"no {csv_path}\n")

    now = complete_points(front, csv_path)
    then = complete_points(front, os.path.join(before_dir, "accuracy_front.csv"))
    nl_on = lambda rows: [r for r in rows if r["p"].get("nl_median_window", "0") != "0"]  # noqa
    print("\n## The weighted median before and after the register selection\n")
    print("Best mean AEPE over the 8 sequences within the budget (ms per frame).\n")
    print("| budget (ms) | nl on, before (sorting kernel) | nl on, now | best of both runs |")
    print("|---:|---|---|---|")
    budgets = [1.0, 2.0, 5.0, 10.0]
    for b in budgets:
        print(f"| {b:g} | {cell(front.best(nl_on(then), 'all', 'ms', b))} | "
              f"{cell(front.best(nl_on(now), 'all', 'ms', b))} | "
              f"{cell(front.best(now + then, 'all', 'ms', b))} |")
    print("\n## Against the targets\n")
    for budget, target in ((2.0, 0.33), (10.0, 0.30)):
        r = front.best(now + then, "all", "ms", budget)
        if not r:
            print(f"- Mean AEPE <= {target:.2f} within {budget:g} ms: no complete point.")
            continue
        verdict = "met" if r["all"] <= target else "**missed**"
        print(f"- Mean AEPE <= {target:.2f} within {budget:g} ms: best {r['all']:.4f} at "
              f"{r['ms']:.2f} ms ({r['name']}; held-out 4 {r['held']:.4f}, training 4 "
              f"{r['train']:.4f}): {verdict}.")


if __name__ == "__main__":
    main(sys.argv[1:])
