"""flowtune.Solver: the solver kept across frames equals flow() bit for bit on every frame of a
loop (frames through the array interface too), a header tuned at several sizes runs the config
tuned nearest to each frame's size, and bad inputs raise with the message."""

import json

import numpy as np
import pytest

import flowtune
from conftest import aepe, simd_config


@pytest.fixture(scope="module")
def pair():
    from conftest import sequence_dir

    seq = sequence_dir("RubberWhale")
    return (flowtune.read_png(seq / "frame10.png"), flowtune.read_png(seq / "frame11.png"),
            flowtune.read_flo(seq / "flow10.flo"))


class ArrayInterface:
    """A frame that is not an ndarray, only exposes __array_interface__ (as camera SDKs do)."""

    def __init__(self, a):
        self._a = np.ascontiguousarray(a, dtype=np.float32)
        self.__array_interface__ = self._a.__array_interface__


def test_a_kept_solver_equals_flow_on_every_frame_of_a_loop(pair):
    i0, i1, gt = pair
    cfg = simd_config(n_scales=3, iterations=10)
    once = flowtune.flow(i0, i1, config=cfg)
    solver = flowtune.Solver(config=cfg)
    crop0, crop1 = i0[50:250, 60:360], i1[50:250, 60:360]
    for _ in range(2):  # the same size again, then another size, then back
        np.testing.assert_array_equal(solver(i0, i1), once)
        np.testing.assert_array_equal(solver(crop0, crop1),
                                      flowtune.flow(crop0, crop1, config=cfg))
    np.testing.assert_array_equal(solver(ArrayInterface(i0), ArrayInterface(i1)), once)
    assert aepe(once, gt) < 0.5
    assert solver.config_for(*i0.shape)["variant"] == "simd_fused"
    assert solver.tuned_size_for(*i0.shape) == (0, 0)


def test_a_header_of_two_sizes_runs_the_nearest(pair, tmp_path):
    i0, i1, _ = pair
    small, large = simd_config(n_scales=3, iterations=5), simd_config(n_scales=3, iterations=20)
    header = tmp_path / "sized.h"
    header.write_text(f"// flowtune-config[host@160x120]: {json.dumps(small)}\n"
                      f"// flowtune-config[host@640x480]: {json.dumps(large)}\n")
    solver = flowtune.Solver(tuned=header)
    # RubberWhale is 388 x 584: ln(226592 / 307200) = -0.30 to 640x480, ln 11.8 = 2.47 to 160x120.
    assert solver.tuned_size_for(388, 584) == (480, 640)
    assert solver.tuned_size_for(100, 150) == (120, 160)
    assert solver.config_for(388, 584)["params"]["iterations"] == 20
    np.testing.assert_array_equal(solver(i0, i1), flowtune.flow(i0, i1, config=large))
    small_frames = (i0[:100, :150], i1[:100, :150])
    np.testing.assert_array_equal(solver(*small_frames), flowtune.flow(*small_frames, config=small))
    with pytest.raises(RuntimeError, match="has no board 'h200'"):
        flowtune.Solver(tuned=header, board="h200")


def test_bad_arguments_raise_with_the_message(pair):
    i0, i1, _ = pair
    with pytest.raises(ValueError, match="exactly one of tuned="):
        flowtune.Solver()
    solver = flowtune.Solver(config=simd_config(n_scales=3, iterations=5))
    with pytest.raises(ValueError, match="frames of different shapes"):
        solver(i0, i1[:10])
    with pytest.raises(ValueError, match="grayscale H x W"):
        solver(np.zeros((4, 4, 3)), np.zeros((4, 4, 3)))
    with pytest.raises(ValueError):
        flowtune.Solver(config=dict(simd_config(), variant="nope"))
