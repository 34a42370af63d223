"""workers: points per second of tuning runs from their stores, by hand."""
import lzma
import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run  # noqa: E402


def store(folder, name, start, points):
    """FOLDER/NAME.db.xz: a run started at `start` and, per point, its measurements' stamps."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.db")
        db = sqlite3.connect(path)
        db.executescript("""create table runs (id integer primary key, started_at text);
          create table measurements (id integer primary key, config_id integer, measured_at text);""")
        db.execute("insert into runs (started_at) values (?)", (start,))
        for cid, stamps in enumerate(points, 1):
            for s in stamps:
                db.execute("insert into measurements (config_id, measured_at) values (?, ?)", (cid, s))
        db.commit()
        db.close()
        with open(path, "rb") as f, lzma.open(os.path.join(folder, name + ".db.xz"), "wb") as out:
            out.write(f.read())


class Workers(unittest.TestCase):
    def test_rates_on_the_common_points_against_the_first_run(self):
        with tempfile.TemporaryDirectory() as d:
            # One worker: points done at 2, 4, 6, 8 s (two items each; the later stamp counts).
            store(d, "w1", "2026-12-07T10:00:00.000Z",
                  [["2026-12-07T10:00:01.000Z", "2026-12-07T10:00:02.000Z"],
                   ["2026-12-07T10:00:04.000Z"], ["2026-12-07T10:00:06.000Z"],
                   ["2026-12-07T10:00:08.000Z"]])
            # Two workers: 3 points at 1.5, 2.5, 3.0 s.
            store(d, "w2", "2026-12-07T10:00:00.000Z",
                  [["2026-12-07T10:00:01.500Z"], ["2026-12-07T10:00:02.500Z"],
                   ["2026-12-07T10:00:03.000Z"]])
            rc, out, err = run("workers", d, "w1", "w2")
            self.assertEqual(rc, 0, err)
            # w1: 4 points over 8 s = 0.50/s; to point 3: 6 s, 0.50/s.
            self.assertIn("| w1 | 4 | 8.0 | 0.50 | 6.0 | 0.50 | 1.00x |", out)
            # w2: 3 points over 3 s = 1.00/s; to point 3: 3 s, 1.00/s, 2.00x w1's.
            self.assertIn("| w2 | 3 | 3.0 | 1.00 | 3.0 | 1.00 | 2.00x |", out)

    def test_a_missing_store_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run("workers", d, "nothing")
            self.assertEqual(rc, 1)
            self.assertIn("nothing", err)


if __name__ == "__main__":
    unittest.main()
