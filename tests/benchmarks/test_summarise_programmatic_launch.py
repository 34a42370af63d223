"""programmatic-launch: on / off tables of bench_frame_throughput rows, by hand."""
import lzma
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import aggregates, benchmark_json, run, write  # noqa: E402


class ProgrammaticLaunch(unittest.TestCase):
    def test_medians_spreads_and_ratios_per_pair_of_runs(self):
        with tempfile.TemporaryDirectory() as d:
            benchmark_json(d, "throughput_on_1.json",
                           aggregates("device_ms/default/manual_time", [0.10, 0.12, 0.11]))
            benchmark_json(d, "throughput_off_1.json",
                           aggregates("device_ms/default/manual_time", [0.15, 0.16, 0.14]))
            # A committed copy is read through its .xz.
            path = benchmark_json(d, "throughput_on_2.json",
                                  aggregates("device_ms/default/manual_time", [0.20]))
            with open(path, "rb") as f, lzma.open(path + ".xz", "wb") as out:
                out.write(f.read())
            os.remove(path)
            benchmark_json(d, "throughput_off_2.json",
                           aggregates("device_ms/default/manual_time", [300.0], unit="us"))
            write(d, "test_cuda.log", "[  PASSED  ] 150 tests.\n")
            rc, out, err = run("programmatic-launch", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("150 passed, 0 failed", out)
            # Pair 1: median on 0.11 [0.10, 0.12], off 0.15 [0.14, 0.16], off / on 1.364.
            # Pair 2: on 0.200 ms, off 300 us = 0.300 ms: ratio 1.500 (units converted).
            self.assertIn("| device_ms/default | 0.110 [0.100, 0.120] | 0.150 [0.140, 0.160] | "
                          "1.364 | 0.200 [0.200, 0.200] | 0.300 [0.300, 0.300] | 1.500 |", out)

    def test_the_title_names_the_switch(self):
        with tempfile.TemporaryDirectory() as d:
            benchmark_json(d, "throughput_on_1.json", aggregates("device_ms/default", [0.1]))
            benchmark_json(d, "throughput_off_1.json", aggregates("device_ms/default", [0.2]))
            rc, out, err = run("programmatic-launch", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("## Programmatic dependent launch of the iteration kernels: on against off", out)
            rc, out, err = run("programmatic-launch", d, "the half2 median", "The half2 median")
            self.assertEqual(rc, 0, err)
            self.assertIn("## The half2 median: on against off", out)
            self.assertNotIn("Programmatic", out)

    def test_a_folder_without_both_modes_fails(self):
        with tempfile.TemporaryDirectory() as d:
            benchmark_json(d, "throughput_on_1.json", aggregates("device_ms/default", [0.1]))
            rc, _, err = run("programmatic-launch", d)
            self.assertNotEqual(rc, 0)
            self.assertIn("no throughput_on_<k>.json and throughput_off_<k>.json", err)


if __name__ == "__main__":
    unittest.main()
