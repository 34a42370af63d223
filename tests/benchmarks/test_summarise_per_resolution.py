"""per-resolution: the native pick at a size against the picks of `tune --resolution` there, on a
store the test writes (numbers worked out by hand); and benchmarks.config_flags, the tune options
that fix a header's config (parameters a config lacks filled with their "absent" values)."""
import json
import lzma
import os
import sqlite3
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import ROOT, run, write  # noqa: E402

sys.path.insert(0, ROOT)
from benchmarks import config_flags  # noqa: E402

NATIVE = {"workload": "tvl1", "variant": "global_pipeline", "precision": "f16", "clock_mhz": 0,
          "tunables": {"w": 64, "depth": 2}, "params": {"iterations": 14, "zoom": 0.6}}
FAST = {"workload": "tvl1", "variant": "shared_fusion", "precision": "mixed", "clock_mhz": 0,
        "tunables": {"block_x": 32}, "params": {"iterations": 7, "zoom": 0.5}}
ACCURATE = {"workload": "tvl1", "variant": "global", "precision": "f32", "clock_mhz": 0,
            "tunables": {"block_x": 16}, "params": {"iterations": 30, "zoom": 0.8}}


def store(path, rows):
    """An xz-compressed store of (run_id, config, label, time median, min, max, mean AEPE)."""
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "s.db")
        db = sqlite3.connect(db_path)
        db.executescript("""
          create table configs (id integer primary key, label text, variant text, precision text,
                                tunables_json text, params_json text);
          create table measurements (id integer primary key, config_id integer, run_id integer,
                                     time_ms_median real, time_ms_min real, time_ms_max real);
          create table metrics (measurement_id integer, item text, name text, value real);""")
        for i, (run_id, c, label, t, lo, hi, aepe) in enumerate(rows, 1):
            db.execute("insert into configs values (?, ?, ?, ?, ?, ?)",
                       (i, label, c["variant"], c["precision"], json.dumps(c["tunables"]),
                        json.dumps(c["params"])))
            db.execute("insert into measurements values (?, ?, ?, ?, ?, ?)",
                       (i, i, run_id, t, lo, hi))
            db.execute("insert into metrics values (?, '', 'aepe', ?)", (i, aepe))
        db.commit()
        db.close()
        with open(db_path, "rb") as f, lzma.open(path, "wb") as out:
            out.write(f.read())


class PerResolution(unittest.TestCase):
    def test_speed_up_and_accuracy_gain_over_the_native_pick(self):
        with tempfile.TemporaryDirectory() as d:
            store(os.path.join(d, "at_640x360.db.xz"),
                  [(1, NATIVE, "native", 0.8, 0.7, 0.9, 0.5),
                   (2, FAST, "fast", 0.5, 0.45, 0.6, 0.48),
                   (2, ACCURATE, "accurate", 0.79, 0.78, 0.8, 0.4)])
            write(d, "picks_640x360.json", json.dumps(
                {"size": "640x360", "native_time_ms": 0.8, "native_aepe": 0.5,
                 "fastest_as_accurate": {"config": FAST},
                 "most_accurate_as_fast": {"config": ACCURATE}}))
            rc, out, err = run("per-resolution", d)
            self.assertEqual(rc, 0, err)
            # 0.8 / 0.5 = 1.60x; (0.5 - 0.4) / 0.5 = 20.0% lower AEPE; 3 measurements.
            self.assertIn("| 640x360 | 0.800 [0.700, 0.900] ms, AEPE 0.5000 | 0.500 [0.450, 0.600] "
                          "ms, AEPE 0.4800: **1.60x** faster | AEPE 0.4000 at 0.790 ms (20.0% "
                          "lower) | 3 |", out)
            self.assertIn("`fast`", out)

    def test_a_failed_pick_is_a_row_saying_so(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "picks_320x240.json", '{"size": "320x240", "native_time_ms": , ')
            rc, out, err = run("per-resolution", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("| 320x240 | (no picks:", out)


class ConfigFlags(unittest.TestCase):
    def test_flags_fix_every_tunable_and_parameter_and_fill_the_absent_ones(self):
        words = config_flags.flags_of(NATIVE, {"median_window": "0", "zoom": "1"})
        self.assertEqual(words[:7], ["--workload", "tvl1", "--variant", "global_pipeline",
                                     "--precision", "f16", "--no-default-dimensions"])
        self.assertEqual(" ".join(words[7:]), "--tunable depth=2 --tunable w=64 --param "
                         "iterations=14 --param zoom=0.6 --param median_window=0")

    def test_the_header_line_is_read_and_a_file_without_one_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            good = write(d, "t.h", "// x\n// flowtune-config: " + json.dumps(NATIVE) + "\n")
            self.assertEqual(config_flags.config_of(good), NATIVE)
            bad = write(d, "b.h", "#pragma once\n")
            with self.assertRaisesRegex(ValueError, "b.h: no '// flowtune-config:' line"):
                config_flags.config_of(bad)
            # `tune params` stand-in: the absent values are parsed from its text.
            tune = write(d, "tune", "#!/bin/sh\necho '  median_window (integer, px): default 5 "
                         "(absent: 0), valid [0, 5]'\necho '  zoom (real): default 0.5, valid'\n")
            os.chmod(tune, os.stat(tune).st_mode | stat.S_IEXEC)
            self.assertEqual(config_flags.absent_values(tune, "tvl1"), {"median_window": "0"})
            self.assertEqual(config_flags.main([bad]), 2)


if __name__ == "__main__":
    unittest.main()
