"""staging-sweep: the host API's staging options table from bench_frame_throughput JSON."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import benchmark_json, run  # noqa: E402


def repetitions(api, seq, times):
    return [{"name": f"{api}/tuned/{seq}/manual_time", "run_name": f"{api}/tuned/{seq}/manual_time",
             "run_type": "iteration", "real_time": t} for t in times]


class StagingSweep(unittest.TestCase):
    def test_medians_ranges_and_means_per_option(self):
        with tempfile.TemporaryDirectory() as d:
            rows = (repetitions("latency_host", "RubberWhale", [0.9, 0.7, 0.8])
                    + repetitions("latency_host", "Grove2", [1.0, 1.2, 1.1, 1.3])
                    + repetitions("latency_host_u8", "RubberWhale", [0.5])
                    + repetitions("latency_host_u8", "Grove2", [0.7]))
            benchmark_json(d, "chunks8_threads-1.json", rows)
            benchmark_json(d, "chunks0_threads2.json",
                           repetitions("latency_host", "RubberWhale", [2.0]))
            rc, out, err = run("staging-sweep", d)
            self.assertEqual(rc, 0, err)
            lines = [l for l in out.splitlines() if l.startswith("| ")]
            # Header, then the default staging (8 chunks, default threads) first.
            # RubberWhale median 0.8 of [0.7, 0.9]; Grove2 median (1.1 + 1.2) / 2 = 1.15;
            # float mean (0.8 + 1.15) / 2 = 0.975; 8-bit mean (0.5 + 0.7) / 2 = 0.6.
            self.assertEqual(lines[1], "| 8 | default | 0.800 [0.700, 0.900] | 1.150 [1.000, 1.300] | "
                             "0.500 [0.500, 0.500] | 0.700 [0.700, 0.700] | 0.975 | 0.600 |")
            # A file without Grove2 has no mean.
            self.assertEqual(lines[2], "| 0 | 2 | 2.000 [2.000, 2.000] | - | - | - | - | - |")


if __name__ == "__main__":
    unittest.main()
