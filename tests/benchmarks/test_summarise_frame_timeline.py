"""frame-timeline: a graph frame's duration against its kernels' summed durations, by hand."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402


def raw_csv(unit, durations, names=None):
    """ncu --csv --page raw text: a notice line, the header, the units row, one row each."""
    names = names or [f"k{i}(int)" for i in range(len(durations))]
    lines = ['==PROF== Connected to process 1', '"ID","Kernel Name","gpu__time_duration.sum"',
             f'"","","{unit}"']
    lines += [f'"{i}","{n}","{d}"' for i, (n, d) in enumerate(zip(names, durations))]
    return "\n".join(lines) + "\n"


class FrameTimeline(unittest.TestCase):
    def test_graph_against_kernels_with_units_converted(self):
        with tempfile.TemporaryDirectory() as d:
            # Three graph launches of 100, 120 and 110 us (median 110); one frame's 5 kernels
            # in ns: 10, 20, 30, 4, 6 us = 70 us, two of them under 5 us.
            # A graph-level profile lists the kernels launched outside graphs too (left out).
            write(d, "frame_tuned.graph.raw.csv", raw_csv("usecond", [100, 7, 120, 110],
                                                          ["graph", "minmax(float)", "graph", "graph"]))
            write(d, "frame_tuned.raw.csv", raw_csv("nsecond", [10000, 20000, 30000, 4000, 6000]))
            rc, out, err = run("frame-timeline", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("(3 graph launches)", out)
            self.assertIn("| graph duration G, us (median [min, max]) | 110.0 [100.0, 120.0] |", out)
            self.assertIn("| kernels per frame N | 5 |", out)
            self.assertIn("| summed kernel duration K, us | 70.0 |", out)
            # G - K = 40 us over 4 boundaries = 10 us each; 70 / 110 = 63.6 %.
            self.assertIn("| G - K, us (beyond the kernels' own time) | 40.0 |", out)
            self.assertIn("| per kernel boundary, (G - K) / (N - 1), us | 10.00 |", out)
            self.assertIn("| kernels' share of G, % | 63.6 |", out)
            self.assertIn("| kernels under 5 us | 1 of 5 |", out)
            self.assertNotIn("frame_default", out)  # no files for it: not printed

    def test_a_file_that_is_not_ncu_csv_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "frame_default.graph.raw.csv", "time,name\n1,x\n")
            write(d, "frame_default.raw.csv", raw_csv("usecond", [1.0]))
            rc, _, err = run("frame-timeline", d)
            self.assertEqual(rc, 1)
            self.assertIn("frame_default.graph.raw.csv: no header row", err)

    def test_an_empty_folder_fails(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run("frame-timeline", d)
            self.assertEqual(rc, 1)
            self.assertIn("no <target>.graph.raw.csv", err)


if __name__ == "__main__":
    unittest.main()
