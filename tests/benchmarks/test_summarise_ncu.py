"""ncu: per-kernel rows and the bound of a target, from Nsight Compute's raw CSV page."""
import csv
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402

STALL = "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
HEAD = ["ID", "Kernel Name", "gpu__time_duration.sum",
        "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes.sum.per_second",
        "launch__grid_size", "launch__block_size", "launch__waves_per_multiprocessor",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__maximum_warps_per_active_cycle_pct",
        "sm__inst_issued.avg.pct_of_peak_sustained_active",
        "smsp__average_warp_latency_per_inst_issued.ratio", STALL]
UNITS = ["", "", "usecond", "%", "Tbyte/second", "", "", "", "%", "%", "%", "", ""]
KERNEL = "void ft::(anonymous namespace)::pixel_kernel<ft::Warp>(int, float*)"


def raw_csv(launches):
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL)
    w.writerow(HEAD)
    w.writerow(UNITS)
    for i, l in enumerate(launches):
        w.writerow([i, KERNEL] + l)
    return out.getvalue()


class Ncu(unittest.TestCase):
    def test_duration_weighted_rates_and_latency_bound(self):
        with tempfile.TemporaryDirectory() as d:
            # Two launches: 10 us at 80% of DRAM peak (3 TB/s) and 30 us at 40% (1.5 TB/s).
            write(d, "paper_f16.raw.csv", raw_csv([
                [10, 80, 3.0, 1024, 256, 1.5, 40, 50, 70, 8, 2],
                [30, 40, 1.5, 1024, 256, 1.5, 60, 50, 50, 12, 4]]))
            rc, out, err = run("ncu", d)
            self.assertEqual(rc, 0, err)
            # Weighted by duration: DRAM (3000 x 10 + 1500 x 30) / 40 = 1875 GB/s at
            # (80 x 10 + 40 x 30) / 40 = 50% of peak; occupancy (40 x 10 + 60 x 30) / 40 = 55%;
            # cycles per issue (8 x 10 + 12 x 30) / 40 = 11; stalls (2 x 10 + 4 x 30) / 40 = 3.5.
            self.assertIn("| pixel_kernel<Warp> | 2 | 20.00 (40.0) | 1024 x 256 | 1.50 | 1875 (50.0) | "
                          "55.0 / 50.0 | 55.0 | 11.00 | long_scoreboard 3.50 |", out)
            # Peak 1875 / 0.5 = 3750 GB/s; 40 us over 2048^2 px = 0.0095 ns/px; 1875 GB/s x 40 us
            # / 2048^2 = 17.9 bytes per pixel.
            self.assertIn("of a 3750 GB/s peak", out)
            self.assertIn("0.0095 ns/px of kernel time per 10 iterations", out)
            self.assertIn("17.9 DRAM bytes per pixel", out)
            # Neither DRAM (50%) nor issue slots ((70 x 10 + 50 x 30) / 40 = 55%) reach 60%, and 2
            # launches are too few for the launch-overhead rule: latency.
            self.assertIn("**Bound (paper_f16).** **latency**: neither DRAM (50.0% of peak) nor the "
                          "issue slots (55.0%)", out)

    def test_bandwidth_bound_at_60_percent(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "paper_f32.raw.csv", raw_csv([[10, 85, 4.0, 64, 128, 0.5, 90, 100, 20, 4, 1]]))
            rc, out, err = run("ncu", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("**Bound (paper_f32).** **bandwidth**: DRAM at 85% of peak.", out)

    def test_folder_without_ncu_output(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, _ = run("ncu", d)
            self.assertIn(f"No ncu raw output (<target>.raw.csv / .details.txt / .txt) in {d}.", out)


if __name__ == "__main__":
    unittest.main()
