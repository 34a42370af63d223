"""Reading Google Benchmark outputs as the summarisers of its JSON share them."""
import json
import lzma
import re
import statistics


def read_text(path):
    """The text of path, or of path.xz (a committed raw output), else None."""
    for opener, q in ((open, path), (lzma.open, path + ".xz")):
        try:
            with opener(q, "rt") as f:
                return f.read()
        except OSError:
            pass
    return None


def base_name(run_name):
    """A benchmark's run name without the options Google Benchmark appends (min_time,
    iterations, repeats, manual_time, real_time): the name of the config it measured."""
    parts = [p for p in run_name.split("/")
             if not re.match(r"(min_time|iterations|repeats|manual_time|real_time)", p)]
    return "/".join(parts)


def _grouped(path, value):
    """(context, {base name: {aggregate name: value(b)}}, {base name: [value(b) of each run]})
    of the Google Benchmark JSON at path (or path.xz), skipping errored runs and those for
    which value returns None; None when the file is missing."""
    text = read_text(path)
    if text is None:
        return None
    data = json.loads(text)
    aggs, runs = {}, {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        v = value(b)
        if v is None:
            continue
        key = base_name(b.get("run_name", b["name"]))
        if b.get("run_type") == "aggregate":
            aggs.setdefault(key, {})[b["aggregate_name"]] = v
        else:
            runs.setdefault(key, []).append(v)
    return data.get("context", {}), aggs, runs


def ns_per_px_stats(path):
    """(context, {base name: {"median"|"min"|"max": ns/px, "n": repetitions}}) of the JSON at
    path (or path.xz): the median/min/max aggregates where Google Benchmark wrote them, else the
    statistics over the runs of that name; errored runs and runs without ns_per_px are skipped.
    ({}, {}) when the file is missing."""
    grouped = _grouped(path, lambda b: b.get("ns_per_px"))
    if grouped is None:
        return {}, {}
    context, aggs, runs = grouped
    out = {}
    for key, v in runs.items():
        a = aggs.get(key, {})
        if not {"median", "min", "max"} <= a.keys():
            a = {"median": statistics.median(v), "min": min(v), "max": max(v)}
        out[key] = dict(a, n=len(v))
    return context, out


def real_time_ms_stats(path):
    """(context, {base name: {"median"|"min"|"max": ms, "n": repetitions}}) of the JSON at path
    (or path.xz): each benchmark's real time (its manual time where it set one) in ms, from the
    median/min/max aggregates where Google Benchmark wrote them, else the statistics over the
    runs of that name; errored runs are skipped. ({}, {}) when the file is missing."""
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    grouped = _grouped(path, lambda b: b["real_time"] * scale[b.get("time_unit", "ns")]
                       if "real_time" in b else None)
    if grouped is None:
        return {}, {}
    context, aggs, runs = grouped
    out = {}
    for key in set(runs) | set(aggs):
        a, v = aggs.get(key, {}), runs.get(key, [])
        if not {"median", "min", "max"} <= a.keys():
            if not v:
                continue
            a = {"median": statistics.median(v), "min": min(v), "max": max(v)}
        out[key] = dict(a, n=len(v))
    return context, out


def row_stats(path):
    """(context, {base name: {"median"|"min"|"max": row, "n": repetitions}}) of the Google
    Benchmark JSON at path (or path.xz): each name's median/min/max aggregate rows where Google
    Benchmark wrote all three, else rows of the statistic of every numeric field over the runs
    of that name (one repetition: its spread is that run); errored runs are skipped. ({}, {})
    when the file is missing."""
    grouped = _grouped(path, lambda b: b)
    if grouped is None:
        return {}, {}
    context, aggs, runs = grouped
    out = {}
    for key, rows in runs.items():
        if key in aggs and {"median", "min", "max"} <= aggs[key].keys():
            a = dict(aggs[key])
            a["n"] = next((r.get("repetitions", 1) for r in a.values()), 1)
            out[key] = a
            continue
        stats = {}
        for stat, fn in (("median", statistics.median), ("min", min), ("max", max)):
            stats[stat] = {k: (fn([r[k] for r in rows if k in r])
                               if isinstance(v, (int, float)) and not isinstance(v, bool) else v)
                           for k, v in rows[0].items()}
        stats["n"] = len(rows)
        out[key] = stats
    return context, out
