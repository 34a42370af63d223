"""iterations: the paper protocol's best config per variant and precision, from
bench_tvl1_iterations' Google Benchmark JSON."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import benchmark_json, run  # noqa: E402


def reps(config, values):
    name = f"{config} 2048/min_time:0.050/manual_time"
    return [{"name": name, "run_name": name, "run_type": "iteration", "real_time": 1.0,
             "ns_per_px": v} for v in values]


class Iterations(unittest.TestCase):
    def test_best_config_floor_bandwidth_and_speed_up(self):
        with tempfile.TemporaryDirectory() as d:
            rows = (reps("global f32 block_x=32", [0.2]) + reps("global f32 block_x=64", [0.3])
                    + reps("shared_pipeline f16 depth=5 w=128", [0.06, 0.04, 0.05])
                    + reps("shared_pipeline f16 depth=3 w=64", [0.07]))
            benchmark_json(d, "bench.json", rows, {"copy_GB_per_s": "3000"})
            rc, out, err = run("iterations", d, "bench.json")
            self.assertEqual(rc, 0, err)
            # Copy floor: 60 B/px (f32) / 3000 GB/s = 0.02 ns/px; 30 B/px (f16) -> 0.01 ns/px.
            # global f32 best 0.2 ns/px: 10.0 x floor, 60 / 0.2 = 300 GB/s, speed-up 1.00.
            self.assertIn("| global | f32 | block_x=32 | 0.2000 [0.2000, 0.2000] | 10.0 | 300 | 1.00 | - |",
                          out)
            # shared_pipeline f16: median 0.05 of 3 repetitions, 5.0 x floor, 30 / 0.05 = 600 GB/s,
            # 0.2 / 0.05 = 4.00 x global f32.
            self.assertIn("| shared_pipeline | f16 | depth=5 w=128 | 0.0500 [0.0400, 0.0600] | 5.0 | 600 | "
                          "4.00 | - |", out)
            self.assertNotIn("depth=3 w=64 |", out)
            self.assertIn("Copy bandwidth in the same run: 3000 GB/s", out)


if __name__ == "__main__":
    unittest.main()
