"""stream: the steady-state time per frame and accuracy of `tune stream` outputs, cold against
warm and the header tuned at the size against the native one."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import run, write  # noqa: E402


def output(label, median, p10, p90, ref_aepe, photometric):
    return (f"{label} (iterations=5 n_scales=5)\n"
            "stream: 9 pairs, 9 pairs of 1024x436 frames of the folder f (10 frames, stride 1), no "
            "ground truth, resampled to 1280x720; accuracy against the reference flow\n"
            "first pass: first frame 500 ms, pass 520 ms\n"
            f"steady state (passes 2-6, 45 frames): median {median} ms per frame [p10 {p10} ms, "
            f"p90 {p90} ms], {1000 / median:.4g} frames/s\n"
            f"photometric {photometric} (mean over the 9 pairs)\n"
            f"ref_aepe {ref_aepe} (mean over the 9 pairs)\n")


class Stream(unittest.TestCase):
    def test_table_and_ratios(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "native_cold.txt", output("shared_pipeline f16 w=256", 1.2, 1.1, 1.5, 0.8, 3.0))
            write(d, "native_warm.txt", output("shared_pipeline f16 w=256", 1.5, 1.4, 1.6, 0.6, 2.5))
            write(d, "at_size_cold.txt", output("global_pipeline mixed w=256", 0.8, 0.75, 0.9, 0.9, 3.2))
            rc, out, err = run("stream", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("9 consecutive pairs at 1280x720, 45 timed frames per run", out)
            self.assertIn("| tuned at Middlebury's sizes | cold | 1.200 [1.100, 1.500] | 833 | 0.8000 | "
                          "3.000 | `shared_pipeline f16 w=256` |", out)
            self.assertIn("| tuned at the size | warm | (no output) |", out)
            # warm / cold = 1.5 / 1.2 = 1.25x; ref_aepe (0.6 - 0.8) / 0.8 = -25.0%.
            self.assertIn("- tuned at Middlebury's sizes: warm start 1.25x the cold time per frame, "
                          "ref_aepe -25.0%", out)
            # 1.2 / 0.8 = 1.50x.
            self.assertIn("- cold, the header tuned at the size against the native one: 1.50x faster "
                          "per frame, ref_aepe 0.9000 vs 0.8000", out)


if __name__ == "__main__":
    unittest.main()
