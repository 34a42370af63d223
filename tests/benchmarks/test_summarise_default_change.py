"""default-change: a candidate default against the old one, by the held-out rule."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402

SEQS = ["Dimetrodon", "Grove3", "RubberWhale", "Urban3", "Grove2", "Hydrangea", "Urban2", "Venus"]


def csv_text(base, new):
    lines = ["config,sequence,aepe,aae_deg,target,variant"]
    for name, values in (("old", base), ("new", new)):
        for s, v in zip(SEQS, values):
            lines.append(f"{name},{s},{v},{10 * v},cpu,kokkos_global")
    return "\n".join(lines) + "\n"


class DefaultChange(unittest.TestCase):
    def test_rule_holds_and_means_are_printed(self):
        with tempfile.TemporaryDirectory() as d:
            # Every sequence 0.01 px better except Venus, 0.015 px worse (within 0.02).
            base = [0.4] * 8
            new = [0.39] * 7 + [0.415]
            path = write(d, "rows.csv", csv_text(base, new))
            rc, out, err = run("default-change", path, "old", "new")
            self.assertEqual(rc, 0, err)
            # Held-out mean (0.39 * 3 + 0.415) / 4 = 0.39625; all 8: (0.39 * 7 + 0.415) / 8 =
            # 0.393125.
            self.assertIn("- held-out 4 mean AEPE 0.4000 -> 0.3962: improves", out)
            self.assertIn("- 8-sequence mean AEPE 0.4000 -> 0.3931: better", out)
            self.assertIn("largest per-sequence AEPE change Venus +0.01500 px", out)
            self.assertIn("verdict: the rule holds", out)

    def test_rule_fails_on_one_sequence_worse_by_more_than_0_02(self):
        with tempfile.TemporaryDirectory() as d:
            path = write(d, "rows.csv", csv_text([0.4] * 8, [0.3] * 7 + [0.43]))
            rc, out, _ = run("default-change", path, "old", "new")
            self.assertEqual(rc, 1)
            self.assertIn("Venus +0.03000 px (rule: at most +0.02 px): FAILS", out)

    def test_missing_sequence_names_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = write(d, "rows.csv", "config,sequence,aepe,aae_deg,target,variant\n"
                         "old,Venus,0.1,1,cpu,v\n")
            rc, _, err = run("default-change", path, "old", "new")
            self.assertNotEqual(rc, 0)
            self.assertIn(f"{path}: config 'old' has no row for Dimetrodon", err)


if __name__ == "__main__":
    unittest.main()
