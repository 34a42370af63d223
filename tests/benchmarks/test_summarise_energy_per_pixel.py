"""energy-per-pixel: the fig. 12 table, the ratios to OpenCV and the target, on hand-made outputs."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402


def window(runs, elapsed_ms, energy_mj):
    return {"runs": runs, "elapsed_ms": elapsed_ms, "energy_mj": energy_mj, "sm_clock_mhz": 1980}


def fixture(folder, peer_energy_mj=60.0, rapl="rapl zones: none\n"):
    # 1000^2 = 1e6 px, so ns/px = run_ms and nJ/px = energy_mj / runs.
    rows = [
        {"variant": "shared_pipeline", "precision": "f16", "size": 1000, "config": "sp f16",
         "candidates": 3, "run_ms": 0.02,
         "windows": [window(100, 2.0, 100.0), window(100, 2.0, 120.0), window(100, 2.0, 110.0)]},
        {"variant": "global", "precision": "f32", "size": 1000, "config": "g f32",
         "candidates": 5, "run_ms": 0.05, "windows": [window(10, 0.5, 30.0)]},
    ]
    write(folder, "energy.json", json.dumps({
        "device": "Test GPU", "board": "h200", "sensor": "nvml energy counter",
        "iterations_per_run": 10, "window_ms": 600,
        "idle": {"elapsed_ms": 600.0, "energy_mj": 45000.0, "sm_clock_mhz": 1980}, "rows": rows}))
    peer = {"config": "OpenCV CUDA TV-L1 (created stream)", "size": 1000, "height": 1000,
            "run_ms": 0.4, "windows": [window(10, 4.0, peer_energy_mj)]}
    write(folder, "peer_energy.txt", "device: Test GPU\nenergy-json " + json.dumps(peer) + "\n")
    write(folder, "rapl.txt", rapl)


class EnergyPerPixel(unittest.TestCase):
    def test_table_ratios_and_met_target(self):
        with tempfile.TemporaryDirectory() as d:
            fixture(d)
            rc, out, err = run("energy-per-pixel", d)
            self.assertEqual(rc, 0, err)
            # f16: nJ/px windows 100/100, 120/100, 110/100 -> median 1.1; W 50, 60, 55 -> 55;
            # OpenCV 60 / 10 = 6.0 nJ/px, 0.4 ns/px: 0.4 / 0.02 = 20x, 6.0 / 1.1 = 5.45x.
            self.assertIn("| shared_pipeline | f16 | sp f16 | 1000^2 | 0.0200 | 1.100 | 55.0 | "
                          "0.0200 | 20.00 | 5.45 |", out)
            # global f32: 30 / 10 = 3.0 nJ/px, 30 / 0.5 = 60 W, window 0.5 / 10 = 0.05 ns/px;
            # 0.4 / 0.05 = 8x, 6 / 3 = 2x.
            self.assertIn("| global | f32 | g f32 | 1000^2 | 0.0500 | 3.000 | 60.0 | 0.0500 | "
                          "8.00 | 2.00 |", out)
            # OpenCV: 60 mJ / 4 ms = 15 W.
            self.assertIn("| OpenCV CUDA TV-L1 | f32 | OpenCV CUDA TV-L1 (created stream) | "
                          "1000^2 | 0.4000 | 6.000 | 15.0 | 0.4000 | 1.00 | 1.00 |", out)
            self.assertIn("Idle: 75.0 W over 600 ms", out)  # 45000 mJ / 600 ms
            self.assertIn("| host CPU variants | - | - | - | - | no RAPL |", out)
            self.assertIn("(5.45x less), 0.0200 vs 0.4000 ns/px (20.00x faster): met.", out)
            self.assertIn("SM clock during the windows 1980-1980 MHz", out)
            with open(os.path.join(d, "fig12.svg")) as f:
                plot = f.read()
            self.assertEqual(plot.count("<circle"), 2)  # the two schemes
            self.assertIn("<title>OpenCV CUDA TV-L1: 0.4000 ns/px, 6.000 nJ/px</title>", plot)

    def test_target_missed_below_five_times(self):
        with tempfile.TemporaryDirectory() as d:
            fixture(d, peer_energy_mj=50.0)  # 5.0 nJ/px: 5.0 / 1.1 = 4.55x < 5
            rc, out, err = run("energy-per-pixel", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("(4.55x less)", out)
            self.assertTrue(out.split("Target")[1].split("\n")[0].endswith("missed."), out)

    def test_rapl_zones_are_listed(self):
        with tempfile.TemporaryDirectory() as d:
            fixture(d, rapl="/sys/class/powercap/intel-rapl:0/energy_uj\n")
            rc, out, err = run("energy-per-pixel", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("RAPL zones readable on the host: "
                          "/sys/class/powercap/intel-rapl:0/energy_uj", out)

    def test_missing_output_names_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run("energy-per-pixel", d)
            self.assertEqual(rc, 1)
            self.assertIn(os.path.join(d, "energy.json") + ": missing", err)


if __name__ == "__main__":
    unittest.main()
