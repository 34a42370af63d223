""".flo round trip and the format, checked against a NumPy reader/writer of the Middlebury
layout (flow-code's readFlowFile/writeFlowFile)."""

import numpy as np
import pytest

import flowtune


def numpy_flo_bytes(flow: np.ndarray) -> bytes:
    h, w, _ = flow.shape
    return (np.float32(202021.25).tobytes() + np.array([w, h], "<i4").tobytes()
            + np.ascontiguousarray(flow, "<f4").tobytes())


def test_round_trip_is_exact_and_the_layout_is_middlebury(tmp_path):
    rng = np.random.default_rng(3)
    flow = (rng.standard_normal((17, 23, 2)) * 40).astype(np.float32)
    flow[0, 0] = [np.nan, np.nan]  # unknown flow is kept as stored
    flow[1, 2] = [1e10, -3.0]
    flow[2, 1] = [np.float32(1e-45), -0.0]  # a denormal and a negative zero
    p = tmp_path / "f.flo"
    flowtune.write_flo(p, flow)
    assert p.read_bytes() == numpy_flo_bytes(flow)
    back = flowtune.read_flo(p)
    assert back.dtype == np.float32 and back.shape == flow.shape
    assert back.tobytes() == flow.tobytes()  # bit for bit, NaN and -0 included


def test_reads_middlebury_ground_truth_as_numpy_does(rubberwhale):
    raw = (rubberwhale / "flow10.flo").read_bytes()
    w, h = np.frombuffer(raw[4:12], "<i4")
    expected = np.frombuffer(raw[12:], "<f4").reshape(h, w, 2)
    gt = flowtune.read_flo(rubberwhale / "flow10.flo")
    assert (h, w) == (388, 584)
    assert gt.tobytes() == expected.tobytes()


def test_errors_name_the_file(tmp_path):
    with pytest.raises(RuntimeError, match="missing.flo"):
        flowtune.read_flo(tmp_path / "missing.flo")
    bad = tmp_path / "bad.flo"
    bad.write_bytes(b"PIEH" + b"\0" * 20)
    with pytest.raises(RuntimeError, match="bad.flo"):
        flowtune.read_flo(bad)
    with pytest.raises(ValueError, match="H x W x 2"):
        flowtune.write_flo(tmp_path / "x.flo", np.zeros((4, 4, 3), np.float32))
    with pytest.raises(RuntimeError, match="no/such/dir"):
        flowtune.write_flo(tmp_path / "no/such/dir/x.flo", np.zeros((4, 4, 2), np.float32))
