"""buffer-reuse: points, points/s in and after the first minute, and the measuring time a point
by phase (the printed shares x the measuring share of the wall clock / the points), on a
fixture of two runs whose figures are worked out by hand."""
import lzma
import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run  # noqa: E402


def store(folder, tag, seconds):
    """A store with one run started at 10:00:00 and a measurement at each of `seconds`."""
    path = os.path.join(folder, f"{tag}.db")
    c = sqlite3.connect(path)
    c.execute("create table runs (id integer primary key, started_at text)")
    c.execute("create table measurements (id integer primary key, measured_at text)")
    c.execute("insert into runs values (1, '2026-12-02T10:00:00.000Z')")
    for k, s in enumerate(seconds):
        c.execute("insert into measurements values (?, ?)",
                  (k + 1, f"2026-12-02T10:{s // 60:02d}:{s % 60:02d}.000Z"))
    c.commit()
    c.close()
    with open(path, "rb") as f, lzma.open(os.path.join(folder, f"main_job_{tag}.db.xz"), "wb") as o:
        o.write(f.read())


def log(folder, tag, wall, measuring, timed, first, own):
    text = (f"run 1: {wall} s wall; constraint checks (...): 10 configs, 1.0 s summed over the "
            f"build threads; the wall clock: measuring {measuring}%, waiting for builds 0%\n"
            f"where the measuring time went: timed runs {timed}%, first (scored) runs {first}%, "
            f"other {100 - timed - first}%\n"
            f"the tuner's own work: {own} ms a point (recording, ...), waiting for answers: 9 ms\n")
    with lzma.open(os.path.join(folder, f"main_job_{tag}.log.xz"), "wt") as f:
        f.write(text)


class BufferReuse(unittest.TestCase):
    def test_two_runs(self):
        with tempfile.TemporaryDirectory() as d:
            # before: 9 points, 6 of them at <= 60 s; 80 s wall, 90% measuring: 72 s over 9
            # points = 8000 ms a point; timed 50% = 4000, first 25% = 2000, other 2000.
            store(d, "before", [10, 20, 30, 40, 50, 60, 70, 100, 120])
            log(d, "before", 80.0, 90, 50, 25, 30)
            # after: 12 points, all in the first minute: 12 / 60 = 0.2/s; no point after it;
            # 60 s wall, 100% measuring: 5000 ms a point; timed 60% = 3000, first 10% = 500.
            store(d, "after", [5 * k for k in range(1, 13)])
            log(d, "after", 60.0, 100, 60, 10, 20)
            rc, out, err = run("buffer-reuse", d)
            self.assertEqual(rc, 0, err)
            # before: 6 / 60 s = 0.1/s in the first minute; 3 over the 60 s after it, 0.05/s
            # (printed to one decimal, 0.1).
            self.assertIn("| before | 9 | 6 | 0.1 | 0.1 | 80.0 | 90% | 8000.0 | 30 |", out)
            self.assertIn("| after | 12 | 12 | 0.2 | nan | 60.0 | 100% | 5000.0 | 20 |", out)
            self.assertIn("| timed runs | 4000.0 | 3000.0 |", out)
            self.assertIn("| first (scored) runs | 2000.0 | 500.0 |", out)
            self.assertIn("| other | 2000.0 | 1500.0 |", out)


if __name__ == "__main__":
    unittest.main()
