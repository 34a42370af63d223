"""host-api: latency per frame through each API and the speed-up over OpenCV's CUDA TV-L1,
from bench_frame_throughput's JSON and the peer's printed timings."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarise_run import aggregates, benchmark_json, run, write  # noqa: E402

SEQS = ("RubberWhale", "Grove2")


def rows(api, ms, aepe):
    out = []
    for s in SEQS:
        out += aggregates(f"{api}/tuned/{s}/repeats:5/manual_time", ms[s], aepe=[aepe[s]] * len(ms[s]))
    return out


class HostApi(unittest.TestCase):
    def test_speed_up_over_the_peer_and_page_locked_line(self):
        with tempfile.TemporaryDirectory() as d:
            host = {"RubberWhale": [0.6, 0.5, 0.7], "Grove2": [0.9, 0.8, 1.0]}
            device = {"RubberWhale": [0.3], "Grove2": [0.5]}
            locked = {"RubberWhale": [0.5], "Grove2": [0.45]}
            aepe = {"RubberWhale": 0.1, "Grove2": 0.2}
            benchmark_json(d, "throughput.json",
                           rows("latency_host", host, aepe) + rows("latency_device", device, aepe)
                           + rows("latency_host_locked", locked, aepe),
                           {"config_tuned": "shared_fusion f16"})
            write(d, "peer_flow_RubberWhale.txt",
                  "created stream: median 20.0 ms/frame min 19.0 max 21.0\nAEPE vs flow10.flo: 0.16\n")
            write(d, "peer_flow_Grove2.txt",
                  "created stream: median 18.0 ms/frame min 17.5 max 18.5\nAEPE vs flow10.flo: 0.20\n")
            rc, out, err = run("host-api", d)
            self.assertEqual(rc, 0, err)
            self.assertIn("| tuned | RubberWhale | 0.600 [0.500, 0.700] |", out)
            # OpenCV: mean (20 + 18) / 2 = 19 ms, AEPE (0.16 + 0.20) / 2 = 0.18. Host API mean
            # (0.6 + 0.9) / 2 = 0.75 ms -> 25.3x; device-pointer API (0.3 + 0.5) / 2 = 0.4 ms ->
            # 47.5x; mean AEPE (0.1 + 0.2) / 2 = 0.15 <= 0.18.
            self.assertIn("| mean | 19.000 | 0.1800 |", out)
            self.assertIn("- `tuned`: mean AEPE 0.1500 (<= OpenCV's 0.1800); speed-up 25.3x through the "
                          "host API, 47.5x through the device-pointer API", out)
            # Page-locked: (0.5 + 0.45) / 2 = 0.475 ms -> 19 / 0.475 = 40.0x.
            self.assertIn("- `tuned`, host API with page-locked frames and flow: mean AEPE 0.1500 (<= "
                          "OpenCV's 0.1800); speed-up 40.0x, 0.475 ms per frame", out)


if __name__ == "__main__":
    unittest.main()
