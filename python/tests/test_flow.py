"""flowtune.flow on a real Middlebury pair against its ground truth, its input conversions
and its errors."""

import json

import numpy as np
import pytest

import flowtune
from conftest import aepe, simd_config

# The double-precision reference TV-L1 (kernels/reference_tvl1) on RubberWhale with this
# schedule, as tests/variants/test_simd_fused_middlebury.cpp prints it; that test bounds
# simd_fused f32 within 0.01 px of it, so does this one.
REFERENCE_AEPE_RUBBERWHALE = 0.24062


@pytest.fixture(scope="module")
def frames():
    from conftest import sequence_dir

    d = sequence_dir("RubberWhale")
    return (flowtune.read_png(d / "frame10.png"), flowtune.read_png(d / "frame11.png"),
            flowtune.read_flo(d / "flow10.flo"))


@pytest.fixture(scope="module")
def simd_flow(frames):
    i0, i1, _ = frames
    return flowtune.flow(i0, i1, config=simd_config())


def test_flow_of_rubberwhale_matches_the_reference_aepe(frames, simd_flow):
    i0, i1, gt = frames
    assert simd_flow.shape == i0.shape + (2,) and simd_flow.dtype == np.float32
    e = aepe(simd_flow, gt)
    assert abs(e - REFERENCE_AEPE_RUBBERWHALE) < 0.01, e
    assert e < aepe(np.zeros_like(gt), gt) / 4  # far better than zero flow (1.26 px)


def test_kokkos_global_matches_the_reference_aepe(frames):
    i0, i1, gt = frames
    cfg = simd_config()
    cfg["variant"], cfg["tunables"] = "kokkos_global", {"tile_x": 32, "tile_y": 4}
    e = aepe(flowtune.flow(i0, i1, config=cfg, device="cpu"), gt)
    assert abs(e - REFERENCE_AEPE_RUBBERWHALE) < 0.01, e


def test_uint8_and_float32_frames_give_the_same_flow(frames, simd_flow):
    i0, i1, _ = frames
    # read_png of an 8-bit PNG is BT.601 luma, not whole numbers: round both ways the same.
    a, b = np.round(i0).astype(np.uint8), np.round(i1).astype(np.uint8)
    f8 = flowtune.flow(a, b, config=simd_config())
    f32 = flowtune.flow(a.astype(np.float32), b.astype(np.float32), config=json.dumps(simd_config()))
    assert np.array_equal(f8, f32)
    assert aepe(f8, frames[2]) < 0.3


def test_flow_of_a_translated_frame_recovers_the_shift():
    # A smooth random texture shifted by (2, -1) px: TV-L1 finds u = 2, v = -1 inside.
    rng = np.random.default_rng(7)
    big = rng.random((140, 180))
    k = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    for axis in (0, 1):
        big = np.apply_along_axis(lambda r: np.convolve(r, k / k.sum(), "same"), axis, big)
    big = (big - big.min()) / (big.max() - big.min()) * 255
    i0 = big[20:120, 20:160].astype(np.float32)
    i1 = big[21:121, 18:158].astype(np.float32)  # I1(x, y) = I0(x - 2, y + 1)
    f = flowtune.flow(i0, i1, config=simd_config(n_scales=3, n_warpings=5, iterations=100))
    inner = f[15:-15, 15:-15]
    assert abs(np.median(inner[..., 0]) - 2.0) < 0.05
    assert abs(np.median(inner[..., 1]) + 1.0) < 0.05


def test_bad_input_raises_with_the_message():
    a = np.zeros((20, 30), np.uint8)
    with pytest.raises(ValueError, match="different shapes"):
        flowtune.flow(a, np.zeros((20, 31), np.uint8), config=simd_config())
    with pytest.raises(ValueError, match="grayscale"):
        flowtune.flow(np.zeros((20, 30, 3), np.uint8), a, config=simd_config())
    with pytest.raises(ValueError, match="exactly one"):
        flowtune.flow(a, a)
    bad = simd_config()
    bad["variant"] = "no_such_variant"
    with pytest.raises(ValueError, match="'no_such_variant' is not a TV-L1 variant"):
        flowtune.flow(a, a, config=bad)
    bad = simd_config()
    del bad["params"]["lambda"]
    with pytest.raises(ValueError, match="'lambda' missing"):
        flowtune.flow(a, a, config=bad)
    with pytest.raises(ValueError, match="runs on cpu, not on cuda"):
        flowtune.flow(a, a, config=simd_config(), device="cuda")
    with pytest.raises(RuntimeError, match="nowhere.h"):
        flowtune.flow(a, a, tuned="/nonexistent/nowhere.h")


def test_cuda_flow_matches_the_cpu_flow(frames, simd_flow):
    """device="cuda": the global variant in f32 against simd_fused f32, the same schedule
    (the C++ GPU tests hold the CUDA variants within 0.01 px AEPE of the CPU ones)."""
    if not flowtune.HAS_CUDA:
        pytest.skip("this build has no CUDA")
    i0, i1, gt = frames
    cfg = simd_config()
    cfg["variant"], cfg["tunables"] = "global", {"block_x": 32, "block_y": 8}
    try:
        f = flowtune.flow(i0, i1, config=cfg, device="cuda")
    except RuntimeError as e:
        if "none is usable" in str(e):
            pytest.skip("no CUDA GPU here")
        raise
    assert f.shape == simd_flow.shape
    assert abs(aepe(f, gt) - aepe(simd_flow, gt)) < 0.01
