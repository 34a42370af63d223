"""Optuna's samplers replayed over a recorded tuning run, scored like `tune replay`'s picks.

The recording (a flowtune SQLite store) is the space: every measured config of one dataset.
Each seed runs an Optuna study (ask/tell, two objectives: time_ms and the accuracy metric,
both minimised) over the recording's dimensions: variant and precision as categories, each
variant's tunables as categories of that variant (define-by-run), every algorithm parameter as
a float range over its recorded values (log where all are positive and they span over 20x).
An asked point that the recording lacks is mapped to the nearest recorded point: same
variant and precision where recorded, then the fewest differing tunables, then the least sum
of parameter distances, each scaled to its range. Optuna is told that point's recorded
values. A seed's budget is a count of distinct recorded points (a repeated mapping costs
nothing, as a strategy never re-measures a point); the trials stop at 20x the budget.

After each seed the picks of `tune replay --pick` are taken over the points seen: the fastest
with metric <= bound and the lowest metric within a time bound, each compared with the
recording's best (within 5%, as `--within 0.05`).

Usage: python replay_optuna.py DB --budget N --seeds 20 [--sampler tpe|random]
           [--metric aepe] [--pick time_ms:aepe=0.1807 ...]
Prints one Markdown row per sampler; exits 2 on a bad DB or argument.
"""
import argparse
import json
import math
import sqlite3
import sys


def load_points(path, metric):
    """Measured configs of the store's most measured dataset: (variant, precision, tunables
    dict, params dict, time_ms, metric value); raises SystemExit naming the file."""
    try:
        c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        dataset = c.execute("SELECT dataset FROM measurements GROUP BY dataset "
                            "ORDER BY count(*) DESC LIMIT 1").fetchone()
    except sqlite3.Error as e:
        sys.exit(f"{path}: not a readable flowtune store ({e})")
    if dataset is None:
        sys.exit(f"{path}: no measurement")
    rows = c.execute(
        "SELECT c.variant, c.precision, c.tunables_json, c.params_json, m.time_ms_median, "
        "(SELECT value FROM metrics x WHERE x.measurement_id = m.id AND x.item = '' "
        "AND x.name = ?) FROM measurements m JOIN configs c ON c.id = m.config_id "
        "WHERE m.dataset = ?", (metric, dataset[0])).fetchall()
    points = [(v, p, json.loads(t), json.loads(q), tm, e) for v, p, t, q, tm, e in rows
              if e is not None]
    if not points:
        sys.exit(f"{path}: no measurement with metric {metric}")
    return dataset[0], points


def parse_pick(text, metric):
    """'time_ms:aepe=0.1807' -> ('time', 0.1807); 'aepe:time_ms=2' -> ('metric', 2.0)."""
    objective, _, bound = text.partition(":")
    name, _, value = bound.partition("=")
    if objective == "time_ms" and name == metric:
        return ("time", float(value))
    if objective == metric and name == "time_ms":
        return ("metric", float(value))
    raise SystemExit(f"--pick {text}: expected time_ms:{metric}=V or {metric}:time_ms=V")


def pick_value(points, pick):
    kind, bound = pick
    if kind == "time":
        ok = [p[4] for p in points if p[5] <= bound]
    else:
        ok = [p[5] for p in points if p[4] <= bound]
    return min(ok) if ok else math.inf


class Space:
    """The recording's dimensions and the nearest-point map."""

    def __init__(self, points):
        self.points = points
        self.variants = sorted({p[0] for p in points})
        self.precisions = sorted({p[1] for p in points})
        self.tunables = {}  # variant -> name -> sorted values
        for v, _, t, _, _, _ in points:
            for k, x in t.items():
                self.tunables.setdefault(v, {}).setdefault(k, set()).add(x)
        self.tunables = {v: {k: sorted(s) for k, s in d.items()} for v, d in self.tunables.items()}
        values = {}
        for p in points:
            for k, x in p[3].items():
                values.setdefault(k, set()).add(float(x))
        self.params = {k: (min(s), max(s)) for k, s in values.items() if len(s) > 1}
        self.by_kernel = {}
        for i, p in enumerate(points):
            self.by_kernel.setdefault((p[0], p[1]), []).append(i)

    def ask(self, trial):
        v = trial.suggest_categorical("variant", self.variants)
        prec = trial.suggest_categorical("precision", self.precisions)
        tun = {k: trial.suggest_categorical(f"{v}.{k}", vals)
               for k, vals in self.tunables.get(v, {}).items()}
        par = {}
        for k, (lo, hi) in sorted(self.params.items()):
            log = lo > 0 and hi / lo > 20
            par[k] = trial.suggest_float(k, lo, hi, log=log)
        return v, prec, tun, par

    def nearest(self, v, prec, tun, par):
        candidates = self.by_kernel.get((v, prec))
        if not candidates:
            candidates = [i for i, p in enumerate(self.points) if p[0] == v] or \
                range(len(self.points))
        best, best_key = None, None
        for i in candidates:
            p = self.points[i]
            mismatches = sum(1 for k, x in tun.items() if p[2].get(k) != x)
            distance = 0.0
            for k, (lo, hi) in self.params.items():
                x = float(p[3].get(k, lo))
                distance += abs(x - par[k]) / (hi - lo)
            key = (mismatches, distance)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best


def run_seed(space, sampler_name, seed, budget):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if sampler_name == "tpe":
        sampler = optuna.samplers.TPESampler(seed=seed)
    elif sampler_name == "random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    else:
        raise SystemExit(f"--sampler {sampler_name}: expected tpe or random")
    study = optuna.create_study(directions=["minimize", "minimize"], sampler=sampler)
    seen, trials = set(), 0
    while len(seen) < budget and trials < 20 * budget:
        trial = study.ask()
        i = space.nearest(*space.ask(trial))
        p = space.points[i]
        seen.add(i)
        study.tell(trial, [p[4], p[5]])
        trials += 1
    return [space.points[i] for i in seen], trials


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db")
    ap.add_argument("--budget", type=int, required=True, help="distinct points per seed")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--sampler", action="append", help="tpe (default) and/or random")
    ap.add_argument("--metric", default="aepe")
    ap.add_argument("--pick", action="append", default=[])
    ap.add_argument("--within", type=float, default=0.05)
    a = ap.parse_args()
    if a.budget < 1 or a.seeds < 1:
        sys.exit("--budget and --seeds must be >= 1")
    dataset, points = load_points(a.db, a.metric)
    picks = [parse_pick(t, a.metric) for t in a.pick]
    best = [pick_value(points, p) for p in picks]
    space = Space(points)
    print(f"recording: {a.db}, dataset {dataset}, {len(points)} points; budget {a.budget} "
          f"distinct points per seed, {a.seeds} seeds; near = within {a.within:.0%} of the "
          f"recording's best: " + ", ".join(f"{t} {b:.4g}" for t, b in zip(a.pick, best)))
    print()
    print("| sampler | median trials | " + " | ".join(f"seeds: {t} within {a.within:.0%}"
                                                     for t in a.pick) + " |")
    print("|---|---|" + "---|" * len(picks))
    for name in a.sampler or ["tpe"]:
        hits = [0] * len(picks)
        trial_counts = []
        for seed in range(a.first_seed, a.first_seed + a.seeds):
            seen, trials = run_seed(space, name, seed, a.budget)
            trial_counts.append(trials)
            for k, p in enumerate(picks):
                if pick_value(seen, p) <= best[k] * (1 + a.within):
                    hits[k] += 1
        trial_counts.sort()
        median = trial_counts[len(trial_counts) // 2]
        print(f"| optuna {name} | {median} | " +
              " | ".join(f"{h}/{a.seeds}" for h in hits) + " |", flush=True)


if __name__ == "__main__":
    main()
