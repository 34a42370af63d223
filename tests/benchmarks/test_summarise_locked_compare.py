"""locked-compare: the time difference of the configs two stores both measured."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, store_db_xz  # noqa: E402


def config(key, t):
    return (key, "shared_fusion f16", {}, t, t, t, 0.2, {})


class LockedCompare(unittest.TestCase):
    def test_percentiles_of_the_difference_over_common_configs(self):
        with tempfile.TemporaryDirectory() as d:
            a = store_db_xz(os.path.join(d, "a.db.xz"),
                            [config(f"k{i}", t) for i, t in enumerate([1.0, 2.0, 3.0, 4.0, 5.0])]
                            + [config("only_a", 9.0)])
            b = store_db_xz(os.path.join(d, "b.db.xz"),
                            [config(f"k{i}", t) for i, t in enumerate([0.9, 1.5, 2.0, 3.0, 5.0])]
                            + [config("only_b", 1.0)])
            rc, out, err = run("locked-compare", a, b)
            self.assertEqual(rc, 0, err)
            # A - B per common config: 0.1, 0.5, 1.0, 1.0, 0.0 -> sorted 0, 0.1, 0.5, 1, 1:
            # median 0.5; 10th percentile = element int(0.1 * 4) = 0 -> 0.0; 90th = int(3.6) = 3
            # -> 1.0. B / A: 0.9, 0.75, 0.667, 0.75, 1.0 -> median 0.75.
            self.assertIn("5 configs in both (6 in A, 6 in B)", out)
            self.assertIn("A - B, ms per frame: median 0.500, 10th percentile 0.000, "
                          "90th percentile 1.000", out)
            self.assertIn("B / A: median 0.750", out)

    def test_no_common_config_fails(self):
        with tempfile.TemporaryDirectory() as d:
            a = store_db_xz(os.path.join(d, "a.db.xz"), [config("x", 1.0)])
            b = store_db_xz(os.path.join(d, "b.db.xz"), [config("y", 1.0)])
            rc, _, err = run("locked-compare", a, b)
            self.assertNotEqual(rc, 0)
            self.assertIn("no config measured in both DBs", err)


if __name__ == "__main__":
    unittest.main()
