"""tuned-fronts: the lowest mean AEPE within each time budget, from `tune`'s stores."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, store_db_xz  # noqa: E402

TRAIN = ("Dimetrodon", "Grove3", "RubberWhale", "Urban3")
HELD = ("Grove2", "Hydrangea", "Urban2", "Venus")


def items(train, held):
    return {**{s: train for s in TRAIN}, **{s: held for s in HELD}}


class TunedFronts(unittest.TestCase):
    def test_budget_rows_pick_the_lowest_aepe_within_the_budget(self):
        with tempfile.TemporaryDirectory() as d:
            store_db_xz(os.path.join(d, "eight.db.xz"), [
                ("a", "shared_fusion f16", {"iterations": 10}, 0.5, 0.45, 0.6, 0.40, items(0.3, 0.5)),
                ("b", "shared_fusion f16", {"iterations": 20}, 0.55, 0.5, 0.7, 0.35, items(0.4, 0.3)),
                ("c", "shared_fusion f32", {"iterations": 50}, 1.2, 1.1, 1.3, 0.20, items(0.2, 0.2)),
            ])
            rc, out, err = run("tuned-fronts", d)
            self.assertEqual(rc, 0, err)
            # Within 0.6 ms: a (0.40) and b (0.35): b; its training mean 0.4, held-out 0.3.
            self.assertIn("| 0.6 | 0.550 [0.500, 0.700] | 0.3500 | 0.4000 | 0.3000 | shared_fusion f16 | "
                          "iterations=20 |", out)
            # Within 1.5 ms: c.
            self.assertIn("| 1.5 | 1.200 [1.100, 1.300] | 0.2000 |", out)
            # Held out within 0.6 ms: chosen by the training mean (a: 0.3 < b: 0.4), reported on
            # the held-out 4 (0.5).
            self.assertIn("| 0.6 | 0.500 | 0.3000 | 0.5000 | 0.4000 | iterations=10 |", out)

    def test_equal_store_lists_configs_at_opencv_accuracy_fastest_first(self):
        with tempfile.TemporaryDirectory() as d:
            store_db_xz(os.path.join(d, "equal.db.xz"), [
                ("a", "global f32", {}, 0.9, 0.8, 1.0, 0.18, {}),
                ("b", "global f16", {}, 0.7, 0.6, 0.8, 0.17, {}),
                ("c", "global f16", {}, 0.3, 0.3, 0.3, 0.19, {}),
            ])
            rc, out, err = run("tuned-fronts", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("3 configs measured, 2 at mean AEPE <= 0.1807.", out)
            rows = [l for l in out.splitlines() if l.startswith("| 0.")]
            self.assertEqual(rows[0], "| 0.700 [0.600, 0.800] | 0.1700 | global f16 |  |")
            self.assertEqual(rows[1], "| 0.900 [0.800, 1.000] | 0.1800 | global f32 |  |")


if __name__ == "__main__":
    unittest.main()
