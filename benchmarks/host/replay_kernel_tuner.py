"""Kernel Tuner's strategies replayed over a recorded tuning run (simulation mode), scored like
`tune replay`'s picks.

The recording (a flowtune SQLite store, read by replay_optuna.py's loader) becomes a Kernel
Tuner cache file (the JSON of kernel_tuner.util.process_cache: device_name, kernel_name,
problem_size, tune_params_keys, tune_params, objective, and "cache", one entry per recorded
point keyed by its comma-joined parameter values), and each run is
`tune_kernel(..., cache=FILE, simulation_mode=True, strategy=S)`.

The space. tune_params are the recorded dimensions with their recorded value sets: variant
and precision (as indices into their sorted names, so that every parameter is numeric), every
tunable of any variant, and every algorithm parameter with more than one recorded value. A
dimension a point lacks (a tunable of another variant, a parameter its variant has not) takes
the value -1. Kernel Tuner's strategies then see the recording's real structure (neighbours
differ in one tunable or one parameter step), which a single categorical "point" parameter
would hide. The restrictions (one callable) admit the recorded combinations alone. The
Cartesian product of the value sets is about 1e14 configs, which Kernel Tuner's constraint
solver would have to walk to apply a callable, so the search space is built by Kernel
Tuner's own Searchspace from the recorded configs (its from_cache construction: the same
configs the restrictions admit), once per process; every run gets a fresh unpickled copy of
it (its neighbour caches change as a strategy runs) in place of the one tune_kernel would
build.

One objective per run. Kernel Tuner is single-objective, so there is one run per pick per
seed: for "time_ms with aepe <= B" the objective is the recorded time_ms and a point with
aepe > B is an error (RuntimeFailedConfig in the cache: measured, but failing the request);
for "aepe with time_ms <= B" the objective is aepe and a point slower than B is the error.

The budget. --budget N: max_fevals = N distinct points. --time-budget S: Kernel Tuner's
time_limit in simulation mode, where each cache entry's benchmark_time is what the recording
spent measuring the point (replay_optuna.load_costs: timed runs of every item plus the
per-point overhead, as `tune replay --time-budget` charges), compile_time and
verification_time 0. Kernel Tuner 1.5 would also count this process's own wall time towards
time_limit; it is left out (the budget counts simulated time only), since the replay's
strategy time is not the GPU's. With a time budget max_fevals is the size of the space, as
`tune replay --time-budget` tells its strategies. A repeated config costs no simulated time, so
a run also ends after --max-calls calls of the cost function (repeats included; default 20x
the points the budget buys, as replay_optuna.py's trials). Whatever Kernel Tuner evaluates,
the score takes the distinct points in the order it first evaluated them and stops at the
first one that would pass the budget, exactly as tuner/replay.cpp does.

Kernel Tuner's greedy_ils is patched where it would fail on the sparse space (see
patch_kernel_tuner).

Seeds: before each run `random.seed(seed)` and `numpy.random.seed(seed)` (Kernel Tuner's
strategies draw from both), and tune_kernel's own seed= argument.

Usage: python replay_kernel_tuner.py DB (--budget N | --time-budget S) --seeds 20
           [--strategy random_sample ...] [--pick time_ms:aepe=0.1807 ...] [--jobs 2]
           [--cache-dir DIR]
Prints a header and one Markdown row per strategy; on a bad DB or argument exits non-zero with
a message naming the file or the option.
"""
import json
import math
import multiprocessing
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
import warnings

import replay_optuna as rec

KERNEL_NAME = "flowtune_recording"
ABSENT = -1  # the value of a dimension a point lacks
STRATEGIES = ["random_sample", "genetic_algorithm", "simulated_annealing", "dual_annealing",
              "greedy_ils", "firefly_algorithm", "pso", "bayes_opt"]


class Recording:
    """A recording's points as Kernel Tuner parameters: tune_params, each point's value
    tuple, the restrictions, and the per-point costs; ValueError where the points cannot be
    told apart as Kernel Tuner configs."""

    def __init__(self, points, costs):
        self.points, self.costs = points, costs
        self.variants = sorted({p[0] for p in points})
        self.precisions = sorted({p[1] for p in points})
        tunables = sorted({k for p in points for k in p[2]})
        values = {}
        for p in points:
            for k, x in p[3].items():
                values.setdefault(k, set()).add(x)
        params = sorted(k for k, s in values.items() if len(s) > 1)
        self.names = ["variant", "precision"] + tunables + params
        clash = [k for k in tunables if k in params] + \
            [k for k in self.names[2:] if k in ("variant", "precision")]
        if clash:
            raise ValueError(f"a tunable and a parameter share a name: {clash}")
        self.rows = []
        for p in points:
            row = [self.variants.index(p[0]), self.precisions.index(p[1])]
            row += [p[2].get(k, ABSENT) for k in tunables]
            row += [p[3].get(k, ABSENT) for k in params]
            self.rows.append(tuple(row))
        if len(set(self.rows)) != len(self.rows):
            raise ValueError("two recorded points map to the same Kernel Tuner config")
        self.tune_params = {}
        for j, name in enumerate(self.names):
            self.tune_params[name] = sorted({r[j] for r in self.rows})
        self.index = {self.key(r): i for i, r in enumerate(self.rows)}

    @staticmethod
    def key(values):
        """Kernel Tuner's cache key of a config: its values joined by commas."""
        return ",".join(str(v) for v in values)

    def restrictions(self):
        """tune_kernel's restrictions: one (old-style, dict argument) callable admitting the
        recorded configs alone."""
        index, names, key = self.index, self.names, self.key
        return [lambda p: key(p[n] for n in names) in index]

    def write_cache(self, path, pick, metric):
        """The Kernel Tuner cache file of one pick: objective value, or RuntimeFailedConfig
        where the point breaks the pick's constraint; benchmark_time = the point's cost."""
        kind, bound = pick
        objective = "time" if kind == "time" else metric
        cache = {}
        for r, p, cost in zip(self.rows, self.points, self.costs):
            entry = dict(zip(self.names, r))
            feasible = p[5] <= bound if kind == "time" else p[4] <= bound
            if kind == "time":
                entry.update(time=p[4], **{metric: p[5]})
            else:
                entry.update(time_ms=p[4], **{metric: p[5]})
            if not feasible:
                entry[objective] = "RuntimeFailedConfig"
            entry.update(compile_time=0.0, verification_time=0.0,
                         benchmark_time=1000.0 * cost, strategy_time=0.0, framework_time=0.0,
                         timestamp="")
            cache[self.key(r)] = entry
        doc = {"device_name": "recording", "kernel_name": KERNEL_NAME, "problem_size": [1],
               "tune_params_keys": self.names, "tune_params": self.tune_params,
               "objective": objective, "cache": cache}
        with open(path, "w") as f:
            json.dump(doc, f)
        return objective


def patch_kernel_tuner(searchspace_blob, budget_s, max_calls):
    """The three changes to Kernel Tuner 1.5 this replay makes: tune_kernel's Searchspace is
    the prebuilt one (a fresh copy per run); its TuningBudget counts simulated time alone and
    also ends a run after max_calls calls of the cost function (repeats included: a repeated
    config costs no simulated time, and a strategy stuck on known configs would otherwise
    never end); and
    greedy_ils's random walk, which fails (TypeError on None) at a config without a Hamming
    neighbour (about 45% of a sparse recording's configs), steps to one of Kernel Tuner's
    "adjacent" neighbours there instead (the config stays where it has none either)."""
    import kernel_tuner.interface as interface
    import kernel_tuner.strategies.greedy_ils as greedy_ils
    import kernel_tuner.util as util

    def mutate(indiv, searchspace):
        for method in ("Hamming", "adjacent"):
            neighbor = searchspace.get_random_neighbor(tuple(indiv), neighbor_method=method)
            if neighbor is not None:
                return list(neighbor)
        return list(indiv)

    greedy_ils.mutate = mutate

    def prebuilt(tune_params, restrictions, *args, **kwargs):
        space = pickle.loads(searchspace_blob)
        space.restrictions = space._modified_restrictions = restrictions
        return space

    interface.Searchspace = prebuilt

    base = util.TuningBudget
    if getattr(base, "simulated_only", False):
        base = base.__mro__[1]

    class SimulatedBudget(base):
        """TuningBudget with time_limit = the replay's --time-budget, spent by simulated
        (cache) time alone; Kernel Tuner subtracts its start-up time from the limit it passes,
        which is not the recording's time, so that limit is replaced."""
        simulated_only = True

        def __init__(self, time_limit=None, max_fevals=None):
            super().__init__(budget_s if budget_s > 0 else None, max_fevals)

            self.calls = 0

        def get_time_spent(self):
            return self.time_spent_extra

        def raise_exception_if_done(self):
            # CostFunc asks twice per batch of configs it evaluates
            self.calls += 1
            if self.calls > 2 * max_calls:
                raise util.StopCriterionReached(f"{max_calls} cost-function calls")
            super().raise_exception_if_done()

    util.TuningBudget = SimulatedBudget


def build_searchspace(recording):
    """Kernel Tuner's Searchspace of the recorded configs, pickled: built with Searchspace's
    from_cache (its documented way to take the configs of a cache as the space), since its
    constraint solver would walk the Cartesian product to apply the restrictions."""
    from kernel_tuner.searchspace import Searchspace
    cache = {"tune_params": recording.tune_params,
             "cache": {recording.key(r): dict(zip(recording.names, r)) for r in recording.rows}}
    space = Searchspace(None, None, None, from_cache=cache)
    if space.size != len(recording.rows):
        raise SystemExit(f"Kernel Tuner's search space has {space.size} configs, the "
                         f"recording {len(recording.rows)}")
    return pickle.dumps(space)


def run_once(recording, strategy, seed, cache_path, objective, budget, budget_s):
    """One tune_kernel run: the indices of the distinct recorded points in the order Kernel
    Tuner first evaluated them, cut where the budget ends (tuner/replay.cpp's rule)."""
    import numpy as np
    from kernel_tuner import tune_kernel
    random.seed(seed)
    np.random.seed(seed)
    options = {"max_fevals": budget if budget else len(recording.rows)}
    if budget_s > 0:
        options["time_limit"] = budget_s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results, _ = tune_kernel(KERNEL_NAME, "", (1,), [], recording.tune_params,
                                 restrictions=recording.restrictions(), cache=cache_path,
                                 simulation_mode=True, strategy=strategy,
                                 strategy_options=options, objective=objective,
                                 objective_higher_is_better=False, quiet=True, verbose=False,
                                 seed=seed)
    order, seen, spent = [], set(), 0.0
    for r in results:
        i = recording.index[recording.key(r[k] for k in recording.names)]
        if i in seen:
            continue
        if budget and len(order) >= budget:
            break
        if budget_s > 0 and spent + recording.costs[i] > budget_s:
            break
        seen.add(i)
        order.append(i)
        spent += recording.costs[i]
    return order, spent


_WORKER = {}


def _init_worker(state):
    _WORKER.update(state)
    patch_kernel_tuner(state["blob"], state["budget_s"], state["max_calls"])


def _job(args):
    strategy, k, seed = args
    w = _WORKER
    start = time.perf_counter()
    order, spent = run_once(w["recording"], strategy, seed, w["caches"][k], w["objectives"][k],
                            w["budget"], w["budget_s"])
    seen = [w["recording"].points[i] for i in order]
    value = rec.pick_value(seen, w["picks"][k])
    return strategy, k, seed, rec.pick_hit(value, w["best"][k], w["within"]), len(order), \
        spent, time.perf_counter() - start


def main():
    ap = rec.replay_arguments(__doc__.splitlines()[0])
    ap.add_argument("--strategy", action="append",
                    help=f"a Kernel Tuner strategy (repeatable; default {', '.join(STRATEGIES[:5])})")
    ap.add_argument("--cache-dir", help="where the cache files go (default: a temporary folder)")
    ap.add_argument("--max-calls", type=int, default=0,
                    help="cost-function calls per run at most, repeats included (default 20x "
                         "the points the budget buys)")
    a = ap.parse_args()
    wall_start = time.perf_counter()
    if (a.budget > 0) == (a.time_budget > 0):
        sys.exit("give one of --budget N (>= 1) and --time-budget S (> 0)")
    if a.seeds < 1 or a.jobs < 1 or not a.pick:
        sys.exit("--seeds and --jobs must be >= 1, and at least one --pick is needed")
    import kernel_tuner
    dataset, points = rec.load_points(a.db, a.metric)
    costs, overhead = rec.load_costs(a.db, points, dataset)
    picks = [rec.parse_pick(t, a.metric) for t in a.pick]
    best = [rec.pick_value(points, p) for p in picks]
    try:
        recording = Recording(points, costs)
    except ValueError as e:
        sys.exit(f"{a.db}: {e}")
    tmp = None
    if a.cache_dir:
        os.makedirs(a.cache_dir, exist_ok=True)
        cache_dir = a.cache_dir
    else:
        tmp = tempfile.TemporaryDirectory()
        cache_dir = tmp.name
    caches, objectives = [], []
    for k, p in enumerate(picks):
        path = os.path.join(cache_dir, f"pick{k}.json")
        objectives.append(recording.write_cache(path, p, a.metric))
        caches.append(path)
    start = time.perf_counter()
    blob = build_searchspace(recording)
    build_s = time.perf_counter() - start
    points_bought = a.time_budget / (sum(costs) / len(costs)) if a.time_budget > 0 else a.budget
    max_calls = a.max_calls or int(math.ceil(20 * points_bought))
    if a.time_budget > 0:
        budget_text = (f"{a.time_budget:g} s of measuring per seed (each point costs what the "
                       f"recording spent measuring it; the recording's points take "
                       f"{sum(costs):.1f} s in all, per-point overhead {overhead:.3f} s; "
                       f"Kernel Tuner's time_limit in simulated time, max_fevals "
                       f"{len(points)})")
    else:
        budget_text = f"{a.budget} distinct points per seed (max_fevals)"
    print(f"recording: {a.db}, dataset {dataset}, {len(points)} points; kernel_tuner "
          f"{kernel_tuner.__version__} (simulation mode; {len(recording.names)} parameters, "
          f"search space of the {len(points)} recorded configs built in {build_s:.0f} s); "
          f"budget {budget_text}; at most {max_calls} cost-function calls per run; {a.seeds} seeds (from {a.first_seed}); one run per pick "
          f"per seed")
    print(f"near = within {a.within:.0%} of the recording's best: " +
          ", ".join(f"{rec.pick_label(p, a.metric)}: {b:.4g}" for p, b in zip(picks, best)))
    for line in a.note:
        print(line)
    print()
    print("| strategy | " + " | ".join(
        f"seeds: {rec.pick_label(p, a.metric)} within {a.within:.0%}" for p in picks) +
        " | median evals | median measuring s | median wall s per run |")
    print("|---|" + "---|" * (len(picks) + 3))
    state = dict(recording=recording, blob=blob, max_calls=max_calls, caches=caches, objectives=objectives,
                 picks=picks, best=best, within=a.within, budget=a.budget,
                 budget_s=a.time_budget)
    seeds = range(a.first_seed, a.first_seed + a.seeds)
    for strategy in a.strategy or STRATEGIES[:5]:
        if strategy not in kernel_tuner.interface.strategy_map:
            sys.exit(f"--strategy {strategy}: not a Kernel Tuner {kernel_tuner.__version__} "
                     f"strategy")
        jobs = [(strategy, k, s) for k in range(len(picks)) for s in seeds]
        if a.jobs > 1:
            with multiprocessing.get_context("fork").Pool(
                    a.jobs, initializer=_init_worker, initargs=(state,)) as pool:
                results = pool.map(_job, jobs, chunksize=1)
        else:
            _init_worker(state)
            results = [_job(j) for j in jobs]
        hits = [sum(r[3] for r in results if r[1] == k) for k in range(len(picks))]
        med = statistics.median
        print(f"| {strategy} | " + " | ".join(f"{h}/{a.seeds}" for h in hits) +
              f" | {med([r[4] for r in results]):g} | {med([r[5] for r in results]):.1f} | "
              f"{med([r[6] for r in results]):.2f} |", flush=True)
    if tmp:
        tmp.cleanup()

    print(f"\nwall time: {time.perf_counter() - wall_start:.0f} s with --jobs {a.jobs}")


if __name__ == "__main__":
    main()
