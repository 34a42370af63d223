"""flowtune.colour against hand-computed colours of the Middlebury wheel and against a
NumPy port of flow-code's computeColor.m (Baker et al. 2011)."""

import numpy as np

import flowtune


def wheel() -> np.ndarray:
    """makeColorwheel of computeColor.m: 55 colours, RY 15, YG 6, GC 4, CB 11, BM 13, MR 6."""
    segs = [(15, (255, "up", 0)), (6, ("down", 255, 0)), (4, (0, 255, "up")),
            (11, (0, "down", 255)), (13, ("up", 0, 255)), (6, (255, 0, "down"))]
    rows = []
    for n, spec in segs:
        for k in range(n):
            rows.append([255 * k // n if c == "up" else 255 - 255 * k // n if c == "down" else c
                         for c in spec])
    return np.array(rows, np.float64)


def compute_color(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """computeColor.m on vectors already divided by the normalising radius."""
    w = wheel()
    n = len(w)
    rad = np.sqrt(u ** 2 + v ** 2)
    a = np.arctan2(-v, -u) / np.pi
    fk = (a + 1) / 2 * (n - 1)
    k0 = np.clip(np.floor(fk).astype(int), 0, n - 1)
    k1 = (k0 + 1) % n
    f = (fk - k0)[..., None]
    col = (1 - f) * (w[k0] / 255) + f * (w[k1] / 255)
    inside = (rad <= 1)[..., None]
    col = np.where(inside, 1 - rad[..., None] * (1 - col), col * 0.75)
    return np.clip(np.floor(255 * col), 0, 255).astype(np.uint8)


def test_hand_computed_colours():
    flow = np.array([[[0, 0], [1, 0], [0.5, 0], [0, 1], [2, 0], [1e10, 0]]], np.float32)
    rgb = flowtune.colour(flow, max_flow=1.0)
    assert rgb.shape == (1, 6, 3) and rgb.dtype == np.uint8
    assert rgb[0].tolist() == [
        [255, 255, 255],  # zero flow: white
        [255, 0, 0],  # right, |w| = 1: wheel[0], red
        [255, 127, 127],  # right, |w| = 0.5: half-way to white, floor(127.5)
        [255, 229, 0],  # down: fk = 13.5, between (255, 221, 0) and (255, 238, 0)
        [191, 0, 0],  # |w| = 2 > 1: red dimmed by 0.75, floor(191.25)
        [0, 0, 0],  # unknown (> 1e9): black
    ]


def test_normalises_by_the_largest_known_vector():
    flow = np.array([[[2, 0], [1, 0], [np.nan, 0]]], np.float32)
    assert flowtune.colour(flow)[0].tolist() == [[255, 0, 0], [255, 127, 127], [0, 0, 0]]


def test_ground_truth_picture_matches_compute_color(rubberwhale):
    gt = flowtune.read_flo(rubberwhale / "flow10.flo")
    rgb = flowtune.colour(gt, max_flow=3.0)
    u, v = gt[..., 0].astype(np.float64), gt[..., 1].astype(np.float64)
    known = (np.abs(u) <= 1e9) & (np.abs(v) <= 1e9) & np.isfinite(u) & np.isfinite(v)
    expected = compute_color(np.where(known, u, 0) / 3.0, np.where(known, v, 0) / 3.0)
    expected[~known] = 0
    diff = np.abs(rgb.astype(int) - expected.astype(int))
    assert diff.max() <= 1  # floor() at a boundary could differ by one ulp of atan2
    assert (diff == 0).mean() > 0.9999  # (on this machine every value is equal)
