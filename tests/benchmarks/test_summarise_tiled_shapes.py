"""tiled-shapes: the tiled kernel's shapes against the (32, 4, 1) shape, by hand."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402


def bench_json(rows):
    """Google Benchmark JSON: {(protocol, sequence): [ms per repetition]} as latency_device
    iteration rows in ms."""
    out = []
    for (protocol, seq), times in rows.items():
        for t in times:
            out.append({"name": f"latency_device/{protocol}/{seq}/real_time",
                        "run_name": f"latency_device/{protocol}/{seq}/real_time",
                        "run_type": "iteration", "real_time": t, "time_unit": "ms"})
    return json.dumps({"context": {}, "benchmarks": out})


class TiledShapes(unittest.TestCase):
    def test_shapes_sorted_by_the_tuned_mean_with_ratios(self):
        with tempfile.TemporaryDirectory() as d:
            # Baseline (32, 4, 1), median apart: tuned medians 0.4 and 0.5 (mean 0.45), default 0.1 / 0.2.
            write(d, "t32_d4_c1_m0.json", bench_json({
                ("tuned", "RubberWhale"): [0.41, 0.40, 0.39], ("tuned", "Grove2"): [0.5, 0.5, 0.6],
                ("default", "RubberWhale"): [0.1, 0.1, 0.1], ("default", "Grove2"): [0.2, 0.2, 0.2]}))
            # (32, 10, 2), median in the tiled launch: tuned 0.3 / 0.33 (mean 0.315 = 0.7x), default 0.12 / 0.16 (0.14 = 0.933x).
            write(d, "t32_d10_c2.json", bench_json({
                ("tuned", "RubberWhale"): [0.3], ("tuned", "Grove2"): [0.33],
                ("default", "RubberWhale"): [0.12], ("default", "Grove2"): [0.16]}))
            write(d, "tests.xml", '<testsuites><testsuite><testcase classname="A" name="x"/>'
                                  '<testcase classname="A" name="y"><failure/></testcase>'
                                  '</testsuite></testsuites>')
            rc, out, err = run("tiled-shapes", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("2 tests, 1 passed, 1 failed, 0 skipped (failed: A.y)", out)
            lines = [l for l in out.splitlines() if l.startswith("| 32 |")]
            self.assertEqual(len(lines), 2)
            # Region 64, tile 44: 44^2 / 64^2 = 0.47; with the median's last launch of at most
            # 8 iterations: 15 = 7 + 8 and 10 = 2 + 8, 2 launches each.
            self.assertTrue(lines[0].startswith("| 32 | 10 | 2 | tiled launch | 64 / 44 | 0.47 | 2 / 2 |"),
                            lines[0])
            self.assertIn("| 0.300 [0.300, 0.300] / 0.330 [0.330, 0.330] | 0.315 (0.700x) |", lines[0])
            self.assertIn("| 0.140 (0.933x) |", lines[0])
            # Region 32, tile 24: 0.5625; ceil(15 / 4) = 4, ceil(10 / 4) = 3.
            self.assertTrue(lines[1].startswith("| 32 | 4 | 1 | own launch | 32 / 24 | 0.56 | 4 / 3 |"),
                            lines[1])
            self.assertIn("0.400 [0.390, 0.410] / 0.500 [0.500, 0.600] | 0.450 (1.000x)", lines[1])
            self.assertIn("Best for the tuned frame: tiled_t 32, tiled_depth 10, tiled_coarsen 2, "
                          "median in the tiled launch.", out)
            self.assertIn("Best for the default frame: tiled_t 32, tiled_depth 10, tiled_coarsen 2, "
                          "median in the tiled launch.", out)

    def test_every_level_tiled_against_the_baseline_default_frame(self):
        with tempfile.TemporaryDirectory() as d:
            # Baseline default frame 0.1 / 0.2 (mean 0.15).
            write(d, "t32_d4_c1_m0.json", bench_json({
                ("tuned", "RubberWhale"): [0.4], ("tuned", "Grove2"): [0.5],
                ("default", "RubberWhale"): [0.1], ("default", "Grove2"): [0.2]}))
            # Every level tiled at depth 5: 0.09 / 0.15, mean 0.12 = 0.8x; 2 launches per 10.
            write(d, "t32_d5_c1_m0_all.json", bench_json({
                ("default", "RubberWhale"): [0.09, 0.08, 0.10], ("default", "Grove2"): [0.15]}))
            rc, out, err = run("tiled-shapes", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("every level tiled (tiled_px 1048576", out)
            self.assertIn("| 32 | 5 | 1 | 2 | 0.090 [0.080, 0.100] / 0.150 [0.150, 0.150] | 0.120 (0.800x) |", out)
            # The _all file is not a shape of the first table.
            self.assertEqual(len([l for l in out.splitlines() if l.startswith("| 32 | 4 | 1 | own launch")]), 1)
            self.assertNotIn("| 32 | 5 | 1 | own launch", out)

    def test_an_empty_folder_fails(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, _ = run("tiled-shapes", d)
            self.assertEqual(rc, 1)
            self.assertIn("No t<T>_d<D>_c<C>.json", out)


if __name__ == "__main__":
    unittest.main()
