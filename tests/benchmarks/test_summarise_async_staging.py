"""async-staging: shared_pipeline's staging 0 against 1 per strip, from bench_tvl1_iterations'
Google Benchmark JSON and the staging tests' log."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import benchmark_json, run  # noqa: E402


def reps(config, values):
    name = f"{config} 2048/min_time:0.030/repeats:3/manual_time"
    return [{"name": name, "run_name": name, "run_type": "iteration", "real_time": 1.0,
             "ns_per_px": v} for v in values]


class AsyncStaging(unittest.TestCase):
    def test_pairs_ratio_and_verdicts(self):
        with tempfile.TemporaryDirectory() as d:
            rows = (reps("shared_pipeline f32 depth=5 skew=1 w=128", [0.10, 0.11, 0.12])
                    + reps("shared_pipeline f32 depth=5 skew=1 staging=1 w=128", [0.08, 0.08, 0.09])
                    + reps("shared_pipeline mixed depth=5 skew=2 w=128", [0.10, 0.10, 0.10])
                    + reps("shared_pipeline mixed depth=5 skew=2 staging=1 w=128", [0.125, 0.125, 0.125])
                    + reps("shared_pipeline f16 depth=5 skew=1 w=128", [0.05]))
            benchmark_json(d, "iterations.json", rows, {"copy_GB_per_s": "3000"})
            with open(os.path.join(d, "test_staging.log"), "w") as f:
                f.write("[staging bitwise] a it=10: 0 of 8 bytes differ\n"
                        "[staging bitwise] b it= 1: 2 of 8 bytes differ\n"
                        "[staging occupancy] a 27 registers, 1 B shared: model 7, driver 7\n"
                        "[staging occupancy] b 27 registers, 1 B shared: model 6, driver 7\n")
            rc, out, err = run("async-staging", d, "iterations.json")
            self.assertEqual(rc, 0, err)
            # f32: medians 0.11 and 0.08 -> 0.11 / 0.08 = 1.375; [0.08, 0.09] below [0.10, 0.12].
            self.assertIn("| f32 | depth=5 skew=1 w=128 | 0.1100 [0.1000, 0.1200] | "
                          "0.0800 [0.0800, 0.0900] | 1.375 |", out)
            # mixed: 0.10 / 0.125 = 0.800, cp.async slower with ranges apart.
            self.assertIn("| mixed | depth=5 skew=2 w=128 | 0.1000 [0.1000, 0.1000] | "
                          "0.1250 [0.1250, 0.1250] | 0.800 |", out)
            self.assertNotIn("| f16 |", out)  # no staged pair
            self.assertIn("cp.async faster on 1 of 2 strips, slower on 1", out)
            self.assertIn("Tests: 2 bitwise comparisons, 1 with bytes differing; occupancy model = "
                          "driver 1 of 2; 0 failed.", out)


if __name__ == "__main__":
    unittest.main()
