"""Optuna's samplers replayed over a recorded tuning run, scored like `tune replay`'s picks.

The recording (a flowtune SQLite store) is the space: every measured config of one dataset.
Each seed runs an Optuna study (ask/tell, two objectives: time_ms and the accuracy metric,
both minimised) over the recording's dimensions: variant and precision as categories, each
variant's tunables as categories of that variant (define-by-run), every algorithm parameter as
a float range over its recorded values (log where all are positive and they span over 20x).
An asked point that the recording lacks is mapped to the nearest recorded point: same
variant and precision where recorded, then the fewest differing tunables, then the least sum
of parameter distances, each scaled to its range. Optuna is told that point's recorded
values. A repeated mapping costs nothing (a strategy never re-measures a point).

The budget of a seed is either a count of distinct recorded points (--budget N) or, as
`tune replay --time-budget`, measuring time (--time-budget S): each recorded point costs what
the recording spent measuring it, the timed runs of every item (time per item x (repeats + 1
warm-up)) plus the per-point overhead (the median gap between consecutive measurements of a
run less the earlier one's timed runs), and a seed stops at the first new point that would
take it past the budget, exactly as tuner/replay.cpp charges and stops. The trials of a seed
also stop at --max-trials (default 20x the points the budget buys on average).

After each seed the picks of `tune replay --pick` are taken over the points seen: the fastest
with metric <= bound and the lowest metric within a time bound, each compared with the
recording's best (within 5%, as `--within 0.05`: value <= best + 0.05 |best|).

The nearest-point map is vectorised with numpy (per (variant, precision) arrays of the
tunables and of the scaled parameters); without numpy (the unit test's interpreter) a plain
Python loop gives the same answer, more slowly. Seeds run in --jobs processes.

Usage: python replay_optuna.py DB (--budget N | --time-budget S) --seeds 20
           [--sampler tpe|gp|random ...] [--metric aepe] [--pick time_ms:aepe=0.1807 ...]
           [--jobs 2] [--max-trials T]
Prints a header and one Markdown row per sampler; on a bad DB or argument exits non-zero with
a message naming the file or the option.
"""
import argparse
import calendar
import json
import math
import multiprocessing
import sqlite3
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # the plain-Python nearest-point map is used instead
    np = None


def _connect(path):
    try:
        c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        c.execute("SELECT count(*) FROM measurements").fetchone()
        return c
    except sqlite3.Error as e:
        sys.exit(f"{path}: not a readable flowtune store ({e})")


def load_points(path, metric):
    """Measured configs of the store's most measured dataset: (variant, precision, tunables
    dict, params dict, time_ms, metric value, measurement id); raises SystemExit naming the
    file."""
    c = _connect(path)
    try:
        dataset = c.execute("SELECT dataset FROM measurements GROUP BY dataset "
                            "ORDER BY count(*) DESC LIMIT 1").fetchone()
        if dataset is None:
            sys.exit(f"{path}: no measurement")
        rows = c.execute(
            "SELECT c.variant, c.precision, c.tunables_json, c.params_json, m.time_ms_median, "
            "(SELECT value FROM metrics x WHERE x.measurement_id = m.id AND x.item = '' "
            "AND x.name = ?), m.id FROM measurements m JOIN configs c ON c.id = m.config_id "
            "WHERE m.dataset = ? ORDER BY m.id", (metric, dataset[0])).fetchall()
    except sqlite3.Error as e:
        sys.exit(f"{path}: not a flowtune store ({e})")
    try:
        points = [(v, p, json.loads(t), json.loads(q), tm, e, i)
                  for v, p, t, q, tm, e, i in rows if e is not None]
    except ValueError as e:
        sys.exit(f"{path}: a config's tunables_json or params_json is not JSON ({e})")
    if not points:
        sys.exit(f"{path}: no measurement with metric {metric}")
    return dataset[0], points


def _iso_seconds(text):
    """Seconds since the epoch of the store's measured_at ("2026-12-03T05:56:44.855Z"), read
    as tuner/replay.cpp reads it (the digits after the point as milliseconds); NaN when
    malformed."""
    try:
        head, _, frac = text.rstrip("Z").partition(".")
        seconds = calendar.timegm(time.strptime(head, "%Y-%m-%dT%H:%M:%S"))
        return seconds + (int(frac) if frac else 0) / 1000.0
    except ValueError:
        return math.nan


def load_costs(path, points, dataset):
    """Measuring cost in seconds of each point (a list aligned with points) and the per-point
    overhead, as `tune replay --time-budget` charges: timed runs of every item
    (item time_ms x (n_repeats + 1)) plus the overhead, the median over consecutive
    measurements of a run of max(0, gap - the later one's timed runs)."""
    c = _connect(path)
    try:
        rows = c.execute("SELECT id, run_id, measured_at, time_ms_median, n_repeats "
                         "FROM measurements WHERE dataset = ?", (dataset,)).fetchall()
        items = {}
        for mid, t in c.execute("SELECT measurement_id, time_ms FROM item_results"):
            items.setdefault(mid, []).append(t)
    except sqlite3.Error as e:
        sys.exit(f"{path}: the store lacks what --time-budget needs ({e})")
    timed, by_run = {}, {}
    for mid, run, at, median, repeats in rows:
        ms = sum(t * (repeats + 1) for t in items[mid]) if mid in items else median * (repeats + 1)
        timed[mid] = ms / 1000.0
        by_run.setdefault(run, []).append((_iso_seconds(at), timed[mid]))
    gaps = []
    for run_points in by_run.values():
        run_points.sort()
        for (t0, _), (t1, s1) in zip(run_points, run_points[1:]):
            if math.isfinite(t1 - t0):
                gaps.append(max(0.0, t1 - t0 - s1))
    gaps.sort()
    overhead = gaps[len(gaps) // 2] if gaps else 0.0
    return [overhead + timed[p[6]] for p in points], overhead


def parse_pick(text, metric):
    """'time_ms:aepe=0.1807' -> ('time', 0.1807); 'aepe:time_ms=2' -> ('metric', 2.0)."""
    objective, _, bound = text.partition(":")
    name, _, value = bound.partition("=")
    try:
        if objective == "time_ms" and name == metric:
            return ("time", float(value))
        if objective == metric and name == "time_ms":
            return ("metric", float(value))
    except ValueError:
        pass
    raise SystemExit(f"--pick {text}: expected time_ms:{metric}=V or {metric}:time_ms=V")


def pick_label(pick, metric):
    """The column label of `tune replay`: 'time_ms with aepe <= 0.1807'."""
    kind, bound = pick
    return (f"time_ms with {metric} <= {bound:g}" if kind == "time"
            else f"{metric} with time_ms <= {bound:g}")


def pick_value(points, pick):
    """The pick over points: the least time_ms with metric <= bound, or the least metric with
    time_ms <= bound; inf when no point qualifies."""
    kind, bound = pick
    if kind == "time":
        ok = [p[4] for p in points if p[5] <= bound]
    else:
        ok = [p[5] for p in points if p[4] <= bound]
    return min(ok) if ok else math.inf


def pick_hit(value, best, within):
    """Whether a seed's pick is near the recording's best, as tuner/replay.cpp counts it."""
    return math.isfinite(best) and value <= best + within * abs(best)


class Space:
    """The recording's dimensions and the nearest-point map."""

    def __init__(self, points):
        self.points = points
        self.variants = sorted({p[0] for p in points})
        self.precisions = sorted({p[1] for p in points})
        self.tunables = {}  # variant -> name -> sorted values
        for p in points:
            for k, x in p[2].items():
                self.tunables.setdefault(p[0], {}).setdefault(k, set()).add(x)
        self.tunables = {v: {k: sorted(s) for k, s in d.items()} for v, d in self.tunables.items()}
        values = {}
        for p in points:
            for k, x in p[3].items():
                values.setdefault(k, set()).add(float(x))
        self.params = {k: (min(s), max(s)) for k, s in values.items() if len(s) > 1}
        self.by_kernel, self.by_variant = {}, {}
        for i, p in enumerate(points):
            self.by_kernel.setdefault((p[0], p[1]), []).append(i)
            self.by_variant.setdefault(p[0], []).append(i)
        self._arrays = {}
        if np is not None:
            self._param_names = sorted(self.params)
            self._tunable_names = sorted({k for d in self.tunables.values() for k in d})
            scale = np.array([self.params[k][1] - self.params[k][0] for k in self._param_names])
            self._scale = scale
            self._params = np.array(
                [[float(p[3].get(k, self.params[k][0])) for k in self._param_names]
                 for p in points]).reshape(len(points), len(self._param_names)) / scale
            self._tunables = np.array(
                [[float(p[2][k]) if k in p[2] else math.nan for k in self._tunable_names]
                 for p in points]).reshape(len(points), len(self._tunable_names))

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

    def _candidates(self, v, prec):
        return (self.by_kernel.get((v, prec)) or self.by_variant.get(v)
                or range(len(self.points)))

    def nearest(self, v, prec, tun, par):
        """Index of the recorded point nearest to an asked one."""
        if np is None:
            return self.nearest_plain(v, prec, tun, par)
        key = (v, prec)
        if key not in self._arrays:
            idx = np.asarray(self._candidates(v, prec))
            self._arrays[key] = (idx, self._tunables[idx], self._params[idx])
        idx, tunables, params = self._arrays[key]
        t = np.array([float(tun[k]) if k in tun else math.nan for k in self._tunable_names])
        asked = [k in tun for k in self._tunable_names]
        mismatches = (tunables[:, asked] != t[asked]).sum(axis=1)
        fewest = np.flatnonzero(mismatches == mismatches.min())
        q = np.array([par[k] for k in self._param_names]) / self._scale
        distance = np.abs(params[fewest] - q).sum(axis=1)
        return int(idx[fewest[np.argmin(distance)]])

    def nearest_plain(self, v, prec, tun, par):
        """nearest() in plain Python: the reference the vectorised map is checked against."""
        best, best_key = None, None
        for i in self._candidates(v, prec):
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


def memoise_tpe_split():
    """Have TPESampler split its trials into below and above once per trial instead of once
    per suggested parameter. In Optuna 5.1 the split depends on the study's finished trials
    alone (not on the parameter), so the samples are the same (checked: --check-memo); it was
    about half of the sampler's time at 1000 trials."""
    from optuna.samplers._tpe import sampler as tpe
    if getattr(tpe._split_trials, "memoised", False):
        return
    split = tpe._split_trials
    last = {}

    def memoised(study, trials, n_below):
        key = (id(study), n_below, len(trials), trials[-1].number if trials else -1)
        if last.get("key") != key:
            last.update(key=key, study=study, value=split(study, trials, n_below))
        return last["value"]

    memoised.memoised = True
    tpe._split_trials = memoised


def make_sampler(name, seed):
    import optuna
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "gp":
        return optuna.samplers.GPSampler(seed=seed, warn_independent_sampling=False)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    raise SystemExit(f"--sampler {name}: expected tpe, gp or random")


def run_seed(space, sampler_name, seed, budget, costs=None, budget_s=0.0, max_trials=None,
             memo=True, asked=None):
    """One seed's study: the indices of the distinct points seen in order, the trials asked
    and the measuring seconds charged. budget: distinct points (0: none); budget_s: measuring
    seconds with costs (0: none); memo: memoise_tpe_split(); asked: a list that gets each
    trial's parameters."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if sampler_name == "tpe" and memo:
        memoise_tpe_split()
    study = optuna.create_study(directions=["minimize", "minimize"],
                                sampler=make_sampler(sampler_name, seed))
    seen, order, trials, spent = set(), [], 0, 0.0
    while trials < max_trials:
        if budget and len(order) >= budget:
            break
        if budget_s > 0 and spent >= budget_s:
            break
        trial = study.ask()
        i = space.nearest(*space.ask(trial))
        if asked is not None:
            asked.append(trial.params)
        if i not in seen:
            if budget_s > 0 and spent + costs[i] > budget_s:
                break  # tuner/replay.cpp: the point that would pass the budget ends the seed
            seen.add(i)
            order.append(i)
            if costs is not None:
                spent += costs[i]
        p = space.points[i]
        study.tell(trial, [p[4], p[5]])
        trials += 1
    return order, trials, spent


_WORKER = {}


def _seed_job(args):
    sampler_name, seed = args
    w = _WORKER
    start = time.perf_counter()
    order, trials, spent = run_seed(w["space"], sampler_name, seed, w["budget"], w["costs"],
                                    w["budget_s"], w["max_trials"])
    return seed, order, trials, spent, time.perf_counter() - start


def _init_worker(state):
    _WORKER.update(state)


def replay_arguments(description):
    """The options every peer replay takes (the recording, its budget, seeds, picks, --jobs,
    --note), as `tune replay` names them; the caller adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("db")
    ap.add_argument("--budget", type=int, default=0, help="distinct points per seed")
    ap.add_argument("--time-budget", type=float, default=0.0,
                    help="measuring seconds per seed, charged as `tune replay --time-budget`")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--metric", default="aepe")
    ap.add_argument("--pick", action="append", default=[])
    ap.add_argument("--within", type=float, default=0.05)
    ap.add_argument("--jobs", type=int, default=1, help="runs at once")
    ap.add_argument("--note", action="append", default=[], help="a line added to the header")
    return ap


def main():
    ap = replay_arguments(__doc__.splitlines()[0])
    ap.add_argument("--sampler", action="append", help="tpe (default), gp and/or random")
    ap.add_argument("--max-trials", type=int, default=0,
                    help="trials per seed at most (default 20x the points the budget buys)")
    ap.add_argument("--check-memo", type=int, default=0, metavar="TRIALS",
                    help="only check that memoise_tpe_split() leaves TPE's first TRIALS "
                         "trials of seed --first-seed as they are; exits 1 if not")
    a = ap.parse_args()
    wall_start = time.perf_counter()
    if a.check_memo > 0:
        _, points = load_points(a.db, a.metric)
        space = Space(points)
        plain, memo = [], []
        run_seed(space, "tpe", a.first_seed, 0, max_trials=a.check_memo, memo=False, asked=plain)
        run_seed(space, "tpe", a.first_seed, 0, max_trials=a.check_memo, memo=True, asked=memo)
        same = plain == memo
        print(f"TPE seed {a.first_seed}, {a.check_memo} trials: the memoised split "
              f"{'asks the same' if same else 'asks DIFFERENT'} parameters")
        sys.exit(0 if same else 1)
    if (a.budget > 0) == (a.time_budget > 0):
        sys.exit("give one of --budget N (>= 1) and --time-budget S (> 0)")
    if a.seeds < 1 or a.jobs < 1 or a.max_trials < 0:
        sys.exit("--seeds and --jobs must be >= 1, --max-trials >= 0")
    dataset, points = load_points(a.db, a.metric)
    picks = [parse_pick(t, a.metric) for t in a.pick]
    best = [pick_value(points, p) for p in picks]
    costs, overhead = (None, 0.0)
    if a.time_budget > 0:
        costs, overhead = load_costs(a.db, points, dataset)
        per_point = sum(costs) / len(costs)
        budget_text = (f"{a.time_budget:g} s of measuring per seed (each point costs what the "
                       f"recording spent measuring it; the recording's points take "
                       f"{sum(costs):.1f} s in all, per-point overhead {overhead:.3f} s)")
        points_bought = a.time_budget / per_point
    else:
        budget_text = f"{a.budget} distinct points per seed"
        points_bought = a.budget
    max_trials = a.max_trials or int(math.ceil(20 * points_bought))
    space = Space(points)
    import optuna
    print(f"recording: {a.db}, dataset {dataset}, {len(points)} points; optuna "
          f"{optuna.__version__}; budget {budget_text}; at most {max_trials} trials per seed; "
          f"{a.seeds} seeds (from {a.first_seed})")
    print(f"near = within {a.within:.0%} of the recording's best: " +
          ", ".join(f"{pick_label(p, a.metric)}: {b:.4g}" for p, b in zip(picks, best)))
    for line in a.note:
        print(line)
    print()
    print("| strategy | " + " | ".join(f"seeds: {pick_label(p, a.metric)} within {a.within:.0%}"
                                        for p in picks) +
          " | median evals | median trials | median measuring s | median wall s per seed |")
    print("|---|" + "---|" * (len(picks) + 4))
    state = dict(space=space, budget=a.budget, costs=costs, budget_s=a.time_budget,
                 max_trials=max_trials)
    for name in a.sampler or ["tpe"]:
        make_sampler(name, 0)
        jobs = [(name, s) for s in range(a.first_seed, a.first_seed + a.seeds)]
        if a.jobs > 1:
            with multiprocessing.get_context("fork").Pool(
                    a.jobs, initializer=_init_worker, initargs=(state,)) as pool:
                results = pool.map(_seed_job, jobs, chunksize=1)
        else:
            _init_worker(state)
            results = [_seed_job(j) for j in jobs]
        hits = [0] * len(picks)
        for seed, order, trials, spent, wall in results:
            seen = [points[i] for i in order]
            for k, p in enumerate(picks):
                hits[k] += pick_hit(pick_value(seen, p), best[k], a.within)
        med = lambda xs: statistics.median(xs)  # noqa: E731
        print(f"| optuna {name} | " + " | ".join(f"{h}/{a.seeds}" for h in hits) +
              f" | {med([len(r[1]) for r in results]):g} | {med([r[2] for r in results]):g} | "
              f"{med([r[3] for r in results]):.1f} | {med([r[4] for r in results]):.1f} |",
              flush=True)

    print(f"\nwall time: {time.perf_counter() - wall_start:.0f} s with --jobs {a.jobs}")


if __name__ == "__main__":
    main()
