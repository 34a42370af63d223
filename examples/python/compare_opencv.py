#!/usr/bin/env python3
"""flowtune's TV-L1 against OpenCV's DualTVL1 on a Middlebury pair: AEPE against the ground
truth and the time per frame of each.

    python3 examples/python/compare_opencv.py [--tuned out/tvl1_tuned_host.h] [--seq DIR]

--tuned: a header from `tune export` (default out/tvl1_tuned_host.h, the demo's; else a
simd_fused config with the IPOL defaults, 5 warpings x 300 iterations). --seq: a folder with
frame10.png, frame11.png and flow10.flo (default data/middlebury/RubberWhale). OpenCV is
optional: `pip install opencv-contrib-python` (cv2.optflow.DualTVL1OpticalFlow_create) or
`opencv-python` (cv2.DualTVL1OpticalFlow_create in OpenCV 3); without it only flowtune runs.
OpenCV runs with its defaults, then with the model parameters of flowtune's config (tau,
lambda, theta, zoom, scales, warpings, epsilon; its own iteration scheme and median filter).
Time: the median of --repeats runs (default 3) after one warm-up, in ms, on this machine.
"""

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

import flowtune

REPO = Path(__file__).resolve().parents[2]


def aepe(flow, gt):
    known = np.isfinite(gt).all(axis=2) & (np.abs(gt) <= 1e9).all(axis=2)
    d = flow.astype(np.float64) - gt
    return float(np.sqrt((d ** 2).sum(axis=2))[known].mean())


def timed(fn, repeats):
    out = fn()  # warm-up (kernel builds, thread pools)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1e3)
    return out, statistics.median(times), min(times), max(times)


def opencv_tvl1():
    try:
        import cv2
    except ImportError:
        return None, "OpenCV's Python package is not installed (pip install opencv-contrib-python)"
    if hasattr(cv2, "optflow") and hasattr(cv2.optflow, "DualTVL1OpticalFlow_create"):
        return cv2.optflow.DualTVL1OpticalFlow_create(), f"cv2.optflow.DualTVL1 (OpenCV {cv2.__version__})"
    if hasattr(cv2, "DualTVL1OpticalFlow_create"):
        return cv2.DualTVL1OpticalFlow_create(), f"cv2.DualTVL1 (OpenCV {cv2.__version__})"
    return None, f"OpenCV {cv2.__version__} has no DualTVL1 (install opencv-contrib-python)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tuned", default=str(REPO / "out" / "tvl1_tuned_host.h"))
    ap.add_argument("--seq", default=str(REPO / "data" / "middlebury" / "RubberWhale"))
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    seq = Path(a.seq)
    i0, i1 = flowtune.read_png(seq / "frame10.png"), flowtune.read_png(seq / "frame11.png")
    gt = flowtune.read_flo(seq / "flow10.flo")
    if os.path.exists(a.tuned):
        kwargs, what = {"tuned": a.tuned}, f"flowtune ({a.tuned})"
    else:
        kwargs = {"config": {
            "workload": "tvl1", "variant": "simd_fused", "precision": "f32", "clock_mhz": 0,
            "tunables": {"threads": os.cpu_count() or 1, "band_rows": 16},
            "params": {"tau": 0.25, "lambda": 0.15, "theta": 0.3, "zoom": 0.5, "n_scales": 5,
                       "n_warpings": 5, "iterations": 300, "epsilon": 0.01,
                       "presmoothing_sigma": 0.8}}}
        what = "flowtune (simd_fused, IPOL defaults; no tuned header)"
    print(f"{seq.name}: {i0.shape[1]}x{i0.shape[0]}, AEPE against flow10.flo")
    f, med, lo, hi = timed(lambda: flowtune.flow(i0, i1, **kwargs), a.repeats)
    print(f"  {what}: AEPE {aepe(f, gt):.4f} px, {med:.1f} ms/frame (min {lo:.1f}, max {hi:.1f})")
    tvl1, name = opencv_tvl1()
    if tvl1 is None:
        print(f"  OpenCV skipped: {name}")
        return
    u8 = [np.clip(np.rint(x), 0, 255).astype(np.uint8) for x in (i0, i1)]
    f, med, lo, hi = timed(lambda: tvl1.calc(u8[0], u8[1], None), a.repeats)
    print(f"  {name}, its defaults: AEPE {aepe(f, gt):.4f} px, {med:.1f} ms/frame "
          f"(min {lo:.1f}, max {hi:.1f})")
    # The same model parameters as flowtune's config; OpenCV keeps its own iteration scheme
    # (inner/outer iterations) and its median filter.
    p = (flowtune.read_tuned_config(a.tuned) if "tuned" in kwargs else kwargs["config"])["params"]
    tvl1.setTau(p["tau"])
    tvl1.setLambda(p["lambda"])
    tvl1.setTheta(p["theta"])
    tvl1.setScaleStep(p["zoom"])
    tvl1.setScalesNumber(int(p["n_scales"]) if p["n_scales"] > 0 else 5)
    tvl1.setWarpingsNumber(int(p["n_warpings"]))
    tvl1.setEpsilon(p["epsilon"] if p["epsilon"] > 0 else 0.01)
    f, med, lo, hi = timed(lambda: tvl1.calc(u8[0], u8[1], None), a.repeats)
    print(f"  {name}, flowtune's tau/lambda/theta/zoom/scales/warpings/epsilon: AEPE "
          f"{aepe(f, gt):.4f} px, {med:.1f} ms/frame (min {lo:.1f}, max {hi:.1f})")


if __name__ == "__main__":
    main()
