"""benchmarks/host/replay_optuna.py without Optuna: the recording's points read from a store,
the picks, and the nearest recorded point of an asked one, against hand-made values."""
import os
import sqlite3
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "host"))
import replay_optuna  # noqa: E402

# (variant, precision, tunables_json, params_json, time_ms, aepe)
POINTS = [
    ("global", "f32", '{"block_x": 32}', '{"iterations": 10, "zoom": 0.5}', 1.0, 0.30),
    ("global", "f32", '{"block_x": 64}', '{"iterations": 20, "zoom": 0.5}', 2.0, 0.20),
    ("global", "f16", '{"block_x": 32}', '{"iterations": 10, "zoom": 0.8}', 0.5, 0.40),
    ("shared", "f32", '{"depth": 2}', '{"iterations": 30, "zoom": 0.8}', 3.0, 0.15),
]


def make_store(path):
    c = sqlite3.connect(path)
    c.executescript(
        "CREATE TABLE configs (id INTEGER PRIMARY KEY, variant TEXT, precision TEXT,"
        " tunables_json TEXT, params_json TEXT);"
        "CREATE TABLE measurements (id INTEGER PRIMARY KEY, config_id INTEGER, dataset TEXT,"
        " time_ms_median REAL);"
        "CREATE TABLE metrics (measurement_id INTEGER, item TEXT, name TEXT, value REAL);")
    for i, (v, p, t, q, tm, e) in enumerate(POINTS, start=1):
        c.execute("INSERT INTO configs VALUES (?, ?, ?, ?, ?)", (i, v, p, t, q))
        c.execute("INSERT INTO measurements VALUES (?, ?, 'd', ?)", (i, i, tm))
        c.execute("INSERT INTO metrics VALUES (?, '', 'aepe', ?)", (i, e))
        c.execute("INSERT INTO metrics VALUES (?, 'item0', 'aepe', 9)", (i,))  # per item: unread
    c.commit()
    c.close()


class ReplayOptuna(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.dir.name, "r.db")
        make_store(self.db)

    def tearDown(self):
        self.dir.cleanup()

    def test_points_and_picks(self):
        dataset, points = replay_optuna.load_points(self.db, "aepe")
        self.assertEqual(dataset, "d")
        self.assertEqual(len(points), 4)
        self.assertEqual(sorted(p[5] for p in points), [0.15, 0.20, 0.30, 0.40])
        fastest_025 = replay_optuna.parse_pick("time_ms:aepe=0.25", "aepe")
        best_within_2 = replay_optuna.parse_pick("aepe:time_ms=2", "aepe")
        self.assertEqual(replay_optuna.pick_value(points, fastest_025), 2.0)  # only 0.20, 0.15
        self.assertEqual(replay_optuna.pick_value(points, best_within_2), 0.20)
        none = replay_optuna.parse_pick("time_ms:aepe=0.1", "aepe")
        self.assertEqual(replay_optuna.pick_value(points, none), float("inf"))
        with self.assertRaises(SystemExit):
            replay_optuna.parse_pick("energy_mj:aepe=1", "aepe")

    def test_nearest_prefers_the_kernel_then_tunables_then_parameters(self):
        _, points = replay_optuna.load_points(self.db, "aepe")
        space = replay_optuna.Space(points)
        self.assertEqual(space.params, {"iterations": (10.0, 30.0), "zoom": (0.5, 0.8)})
        index = {p[2].get("block_x", p[2].get("depth")) * 100 + p[4]: i
                 for i, p in enumerate(points)}
        # global f32 with block_x 64 asked at iterations 10: the block_x=64 point, although
        # the block_x=32 one is nearer in iterations.
        got = space.nearest("global", "f32", {"block_x": 64}, {"iterations": 10, "zoom": 0.5})
        self.assertEqual(got, index[64 * 100 + 2.0])
        # global f32, block_x 32, iterations 18: the same tunables win (one point).
        got = space.nearest("global", "f32", {"block_x": 32}, {"iterations": 18, "zoom": 0.5})
        self.assertEqual(got, index[32 * 100 + 1.0])
        # a precision the variant lacks: the nearest point of the variant.
        got = space.nearest("shared", "f16", {"depth": 2}, {"iterations": 30, "zoom": 0.8})
        self.assertEqual(got, index[2 * 100 + 3.0])

    def test_an_unreadable_store_names_the_file(self):
        bad = os.path.join(self.dir.name, "bad.db")
        with open(bad, "w") as f:
            f.write("not sqlite")
        with self.assertRaises(SystemExit) as e:
            replay_optuna.load_points(bad, "aepe")
        self.assertIn(bad, str(e.exception))


if __name__ == "__main__":
    unittest.main()
