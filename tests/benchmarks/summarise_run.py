"""Runs a summariser of benchmarks/summarise on fixtures that a test writes.

run(kind, *args) runs `python3 -m benchmarks.summarise KIND ARGS...` from the repository root
and returns (exit status, stdout, stderr). Fixture helpers write Google Benchmark JSON and the
flowtune store's tables (only the columns the summarisers read) into a temporary folder.
"""
import json
import lzma
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(kind, *args):
    """(returncode, stdout, stderr) of the summariser KIND on ARGS."""
    p = subprocess.run([sys.executable, "-m", "benchmarks.summarise", kind, *map(str, args)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def write(folder, name, text):
    """Writes text to folder/name and returns the path."""
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def benchmark_json(folder, name, rows, context=None):
    """Writes a Google Benchmark JSON file with the given benchmark rows."""
    return write(folder, name, json.dumps({"context": context or {}, "benchmarks": rows}))


def aggregates(run_name, values, unit="ms", **counters):
    """Google Benchmark aggregate rows (median, min, max) of real times `values` (one per
    repetition); each counter is a list of per-repetition values too."""
    rows = []
    s = sorted(values)
    n = len(s)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    for agg, v in (("median", med), ("min", s[0]), ("max", s[-1])):
        row = {"name": f"{run_name}_{agg}", "run_name": run_name, "run_type": "aggregate",
               "aggregate_name": agg, "real_time": v, "time_unit": unit}
        for k, vals in counters.items():
            c = sorted(vals)
            row[k] = {"median": c[len(c) // 2], "min": c[0], "max": c[-1]}[agg]
        rows.append(row)
    return rows


def store_db_xz(path, configs):
    """Writes an xz-compressed SQLite store with, per config, (config_key, label, params,
    time median, min, max, mean AEPE, {item: AEPE})."""
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "store.db")
        db = sqlite3.connect(db_path)
        db.executescript("""
          create table configs (id integer primary key, config_key text, label text,
                                params_json text);
          create table measurements (id integer primary key, config_id integer,
                                     time_ms_median real, time_ms_min real, time_ms_max real);
          create table metrics (measurement_id integer, item text, name text, value real);""")
        for i, (key, label, params, t, lo, hi, aepe, items) in enumerate(configs, 1):
            db.execute("insert into configs values (?, ?, ?, ?)", (i, key, label, json.dumps(params)))
            db.execute("insert into measurements values (?, ?, ?, ?, ?)", (i, i, t, lo, hi))
            db.execute("insert into metrics values (?, '', 'aepe', ?)", (i, aepe))
            for item, v in items.items():
                db.execute("insert into metrics values (?, ?, 'aepe', ?)", (i, item, v))
        db.commit()
        db.close()
        with open(db_path, "rb") as f, lzma.open(path, "wb") as out:
            out.write(f.read())
    return path
