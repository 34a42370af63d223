"""reference-rank: Spearman's rho between the ranking of configs by ref_aepe (and by
photometric) and by the true AEPE, from benchmarks/host/reference-rank's metrics.tsv, on
fixtures whose correlations are worked out by hand."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402

HEADER = "measurement_id\tlabel\tparams_json\titem\tname\tvalue\n"


def rows(item, aepe, ref, photo):
    out = ""
    for k, (a, r, p) in enumerate(zip(aepe, ref, photo)):
        params = '{"iterations":%d,"n_warpings":1,"median_window":0}' % (10 * (k + 1))
        for name, v in (("aepe", a), ("ref_aepe", r), ("photometric", p)):
            out += f"{k + 1}\tsimd_fused f32\t{params}\t{item}\t{name}\t{v}\n"
    return out


class ReferenceRank(unittest.TestCase):
    def test_rho_with_and_without_ties(self):
        # AEPE ranks 1 2 3 4; ref_aepe 0.1 0.3 0.2 0.4 ranks 1 3 2 4: sum d^2 = 2,
        # rho = 1 - 6 * 2 / (4 * 15) = 0.8 (< 0.9: missed). photometric 5 5 6 7 ranks
        # 1.5 1.5 3 4: the Pearson correlation of the ranks, 4.5 / sqrt(5 * 4.5) = 0.9487.
        with tempfile.TemporaryDirectory() as d:
            write(d, "metrics.tsv", HEADER + rows("", [1, 2, 3, 4], [0.1, 0.3, 0.2, 0.4], [5, 5, 6, 7])
                  + rows("Venus", [1, 2, 3, 4], [1, 2, 3, 4], [4, 3, 2, 1]))
            rc, out, err = run("reference-rank", d)
            self.assertEqual(rc, 1, err)
            self.assertIn("| ref_aepe (endpoint error to the reference flow) | 0.8000 |", out)
            self.assertIn("| photometric (warped-frame error, visible pixels) | 0.9487 |", out)
            self.assertIn("| Venus | 4 | 1.0000 | -1.0000 |", out)
            self.assertIn("- rho(ref_aepe, aepe) >= 0.9: 0.8000 -> **missed**", out)
            self.assertIn("- lowest true AEPE: iterations=10 n_warpings=1 median_window=0: AEPE 1.0000", out)

    def test_agreeing_rankings_meet_the_target(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "metrics.tsv", HEADER + rows("", [0.3, 0.2, 0.5], [0.05, 0.01, 0.2], [2, 1, 3]))
            rc, out, err = run("reference-rank", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("- rho(ref_aepe, aepe) >= 0.9: 1.0000 -> met", out)
            self.assertIn("- lowest ref_aepe: iterations=20", out)


if __name__ == "__main__":
    unittest.main()
