"""python3 -m benchmarks.summarise: kinds, usage errors, and the xz-compressed raw outputs of a
committed record read as the plain files."""
import lzma
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402

ROWS = ("config,sequence,aepe,aae_deg,target,variant\n"
        + "".join(f"{c},{s},{v},1,cpu,v\n" for c, v in (("old", 0.5), ("new", 0.4))
                  for s in ("Dimetrodon", "Grove3", "RubberWhale", "Urban3", "Grove2", "Hydrangea",
                            "Urban2", "Venus")))


class Dispatch(unittest.TestCase):
    def test_list_names_every_module(self):
        rc, out, _ = run("--list")
        self.assertEqual(rc, 0)
        for kind in ("ncu", "main-job", "staging-sweep", "store-load", "default-change"):
            self.assertIn(kind, out.split())

    def test_unknown_kind_is_a_usage_error(self):
        rc, _, err = run("no-such-kind")
        self.assertEqual(rc, 2)
        self.assertIn("unknown kind 'no-such-kind'", err)

    def test_a_missing_file_is_read_from_its_xz_copy(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "rows.csv")
            with lzma.open(path + ".xz", "wt") as f:
                f.write(ROWS)
            rc, out, err = run("default-change", path, "old", "new")
            self.assertEqual(rc, 0, err)
            self.assertIn("- 8-sequence mean AEPE 0.5000 -> 0.4000: better", out)

    def test_a_plain_file_wins_over_its_xz_copy(self):
        with tempfile.TemporaryDirectory() as d:
            path = write(d, "rows.csv", ROWS)
            with lzma.open(path + ".xz", "wt") as f:
                f.write(ROWS.replace("0.4", "0.6"))
            rc, out, _ = run("default-change", path, "old", "new")
            self.assertEqual(rc, 0)
            self.assertIn("0.5000 -> 0.4000", out)


if __name__ == "__main__":
    unittest.main()
