"""google_benchmark.row_stats: the per-name statistic rows the JSON summarisers share, against
values computed by hand."""
import json
import lzma
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from benchmarks.summarise.google_benchmark import row_stats  # noqa: E402


def run(name, real_time, **fields):
    full = f"{name}/min_time:0.100/repeats:3/manual_time"
    return dict({"name": full, "run_name": full, "run_type": "iteration", "real_time": real_time,
                 "time_unit": "ms", "repetitions": 3}, **fields)


def aggregate(name, stat, real_time):
    row = run(name, real_time)
    row.update({"name": f"{row['name']}_{stat}", "run_type": "aggregate", "aggregate_name": stat})
    return row


class RowStats(unittest.TestCase):
    def write(self, d, rows, compressed=False):
        text = json.dumps({"context": {"host_name": "h"}, "benchmarks": rows})
        path = os.path.join(d, "b.json")
        if compressed:
            with lzma.open(path + ".xz", "wt") as f:
                f.write(text)
        else:
            with open(path, "w") as f:
                f.write(text)
        return path

    def test_statistics_over_runs_without_aggregates(self):
        with tempfile.TemporaryDirectory() as d:
            rows = [run("frame/RubberWhale", t, device_ms=t / 2) for t in (3.0, 1.0, 2.0)]
            rows.append(dict(run("frame/RubberWhale", 0.1), error_occurred=True))
            context, out = row_stats(self.write(d, rows, compressed=True))
            self.assertEqual(context, {"host_name": "h"})
            self.assertEqual(list(out), ["frame/RubberWhale"])  # options stripped from the name
            s = out["frame/RubberWhale"]
            self.assertEqual(s["n"], 3)  # the errored run is not counted
            self.assertEqual((s["median"]["real_time"], s["min"]["real_time"],
                              s["max"]["real_time"]), (2.0, 1.0, 3.0))
            self.assertEqual(s["median"]["device_ms"], 1.0)
            self.assertEqual(s["min"]["time_unit"], "ms")  # text fields kept as they are

    def test_aggregates_where_all_three_were_written(self):
        with tempfile.TemporaryDirectory() as d:
            rows = [run("a", t) for t in (5.0, 6.0, 7.0)]
            rows += [aggregate("a", "median", 6.5), aggregate("a", "min", 5.5),
                     aggregate("a", "max", 7.5)]
            rows += [run("b", t) for t in (1.0, 4.0)] + [aggregate("b", "mean", 2.5)]
            _, out = row_stats(self.write(d, rows))
            self.assertEqual(out["a"]["median"]["real_time"], 6.5)  # Google Benchmark's own
            self.assertEqual(out["a"]["min"]["real_time"], 5.5)
            self.assertEqual(out["a"]["n"], 3)  # its repetitions field
            # "b" has no median/min/max aggregates: the statistics of its two runs.
            self.assertEqual(out["b"]["median"]["real_time"], 2.5)
            self.assertEqual(out["b"]["max"]["real_time"], 4.0)
            self.assertEqual(out["b"]["n"], 2)

    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(row_stats(os.path.join(d, "none.json")), ({}, {}))


if __name__ == "__main__":
    unittest.main()
