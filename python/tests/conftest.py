"""Fixtures of the flowtune Python tests: the Middlebury data, the `tune` binary, configs."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


def sequence_dir(name: str) -> Path:
    """A Middlebury sequence folder (frame10.png, frame11.png, flow10.flo): under
    $FLOWTUNE_DATA, the shared data next to the repository, else the bundled data/."""
    roots = [os.environ.get("FLOWTUNE_DATA", ""), REPO.parent / "shared" / "data", REPO / "data"]
    for root in roots:
        if not root:
            continue
        d = Path(root) / "middlebury" / name
        if (d / "frame10.png").exists() and (d / "flow10.flo").exists():
            return d
    pytest.skip(f"Middlebury sequence {name} not found")


@pytest.fixture
def rubberwhale() -> Path:
    return sequence_dir("RubberWhale")


@pytest.fixture(scope="session")
def tune() -> str:
    """The `tune` binary: $FLOWTUNE_TUNE (must exist when set, as in CI), else the CI or
    release build of this checkout, else `tune` on PATH (the Debian package); skipped when
    none is found."""
    env = os.environ.get("FLOWTUNE_TUNE")
    if env:
        assert Path(env).is_file(), f"FLOWTUNE_TUNE={env} does not exist"
        return env
    for build in ("build/ci", "build/release"):
        p = REPO / build / "cli" / "tune"
        if p.is_file():
            return str(p)
    found = shutil.which("tune")
    if found:
        return found
    pytest.skip("no tune binary (set FLOWTUNE_TUNE)")


def simd_config(n_scales=4, n_warpings=1, iterations=50, precision="f32"):
    """simd_fused with the IPOL defaults (kernels/tvl1_params.hpp) and the schedule of
    tests/variants/test_simd_fused_middlebury.cpp (4 scales, 1 warping, 50 iterations)."""
    return {
        "workload": "tvl1",
        "variant": "simd_fused",
        "precision": precision,
        "tunables": {"threads": 2, "band_rows": 16},
        "clock_mhz": 0,
        "params": {
            "tau": 0.25, "lambda": 0.15, "theta": 0.3, "zoom": 0.5, "n_scales": n_scales,
            "n_warpings": n_warpings, "iterations": iterations, "epsilon": 0.0,
            "presmoothing_sigma": 0.8,
        },
    }


def aepe(flow: np.ndarray, gt: np.ndarray) -> float:
    """Average endpoint error over the known ground-truth pixels (Baker et al. 2011: unknown
    is |u| or |v| > 1e9 or NaN), in NumPy double precision."""
    known = np.isfinite(gt).all(axis=2) & (np.abs(gt) <= 1e9).all(axis=2)
    d = flow.astype(np.float64) - gt.astype(np.float64)
    return float(np.sqrt((d ** 2).sum(axis=2))[known].mean())
