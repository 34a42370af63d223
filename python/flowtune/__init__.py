"""flowtune: TV-L1 optical flow with tuned configs, and flowtune's tuning DBs in pandas.

The C++ core of the repository (the deployment library ``flowtune::tvl1`` of ``api/``, the
``.flo`` I/O and colour wheel of ``kernels/``, the DB layer of ``db/``) on NumPy arrays:

* :func:`flow` -- TV-L1 flow of two grayscale frames with a config tuned by ``tune`` (a header
  written by ``tune export``, or the config itself), exactly as ``tune flow --tuned`` computes
  it (Zach, Pock and Bischof 2007; the IPOL implementation of Sanchez Perez et al. 2013).
* :func:`read_png` -- a PNG as a grayscale frame, as ``tune flow`` reads it.
* :func:`read_flo`, :func:`write_flo` -- Middlebury ``.flo`` files (Baker et al. 2011).
* :func:`colour` -- the Middlebury colour-wheel picture of a flow (Baker et al. 2011, fig. 2).
* :class:`Solver` -- the same flow with the solver built once and kept across frames (video):
  buffers, NVRTC build and CUDA Graphs reused; a header tuned at several sizes runs the size
  nearest to each frame's.
* :func:`tune`, :func:`export`, :func:`report` -- the tuner itself (the ``tune`` command line):
  a run returning its Pareto front as a DataFrame, the tuned header, the HTML report.
* :func:`open_db` -- a tuning DB (SQLite file or ``postgresql://`` URL), read-only, as
  pandas DataFrames.

Conventions: a frame is an H x W array (rows x columns); a flow is an H x W x 2 float32 array
whose ``[y, x, 0]`` is u (horizontal displacement, +x right) and ``[y, x, 1]`` is v (+y down),
in pixels. Errors of the C++ core are raised with its message: ``ValueError`` for bad
arguments or configs (C++ ``std::invalid_argument``), ``RuntimeError`` for files, the DB and
the GPU (``std::runtime_error``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

import numpy as np

from . import _flowtune
from .database import Database, open_db
from .tuning import export, find_tune_binary, report, tune

__all__ = [
    "flow",
    "Solver",
    "tune",
    "export",
    "report",
    "find_tune_binary",
    "read_png",
    "read_flo",
    "write_flo",
    "colour",
    "read_tuned_config",
    "open_db",
    "Database",
    "CPU_VARIANTS",
    "HAS_CUDA",
]

__version__ = "0.1.0"

#: The TV-L1 variants that run on the host CPU; every other TV-L1 variant runs on a CUDA GPU.
CPU_VARIANTS = ("kokkos_global", "simd_fused")

#: True when this build of the module has the CUDA variants (the CUDA toolkit was found).
HAS_CUDA = bool(_flowtune.has_cuda)

PathLike = Union[str, "os.PathLike[str]"]


def _frame(a: Any, name: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != 2:
        raise ValueError(
            f"{name}: expected a grayscale H x W array, got shape {arr.shape}"
            + (" (convert colour frames to grayscale first)" if arr.ndim == 3 else "")
        )
    if arr.dtype != np.uint8 and not np.issubdtype(arr.dtype, np.floating):
        raise ValueError(f"{name}: expected dtype uint8 or float32, got {arr.dtype}")
    if arr.size == 0:
        raise ValueError(f"{name}: empty frame of shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float32)


def _flow_array(a: Any, name: str = "flow") -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != 3 or arr.shape[2] != 2:
        raise ValueError(f"{name}: expected an H x W x 2 array (u, v), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.floating):
        raise ValueError(f"{name}: expected a float array, got dtype {arr.dtype}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name}: empty flow of shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float32)


def read_tuned_config(path: PathLike, board: str = "") -> dict:
    """The config of a tuned header written by ``tune export`` (its ``// flowtune-config:``
    line), as a dict: ``workload``, ``variant``, ``precision`` (str), ``tunables``
    (name -> int), ``params`` (name -> float) and ``clock_mhz`` (int, 0 = not controlled).

    ``board`` picks one board's config of a header exported for several boards
    (``tune export --board a --board b``). Raises ``RuntimeError`` naming the file when it
    cannot be read, has no config line, the line is malformed, or ``board`` is needed and
    missing (the message lists the header's boards).
    """
    return _flowtune._read_tuned_config(os.fspath(path), board)


def _config_json(tuned: Optional[PathLike], config: Union[None, str, Mapping], board: str) -> str:
    if (tuned is None) == (config is None):
        raise ValueError("flow: give exactly one of tuned= (a header from `tune export`) and config=")
    if tuned is not None:
        cfg = read_tuned_config(tuned, board)
    elif isinstance(config, str):
        cfg = _flowtune._parse_config(config)
    elif isinstance(config, Mapping):
        cfg = _flowtune._parse_config(json.dumps(dict(config)))
    else:
        raise ValueError(f"flow: config= must be a dict or a JSON string, got {type(config).__name__}")
    return json.dumps(cfg)


def flow(
    i0: Any,
    i1: Any,
    tuned: Optional[PathLike] = None,
    config: Union[None, str, Mapping] = None,
    device: Optional[str] = None,
    board: str = "",
) -> np.ndarray:
    """TV-L1 optical flow from frame ``i0`` to frame ``i1`` with a tuned config.

    Computes exactly what ``tune flow --tuned tuned.h i0.png i1.png -o flow.flo`` computes (the
    same solver of the config's variant: for ``kokkos_global`` and ``simd_fused`` the pyramid,
    warpings and iterations on the host CPU, for the CUDA variants the GPU frame pipeline with
    kernels built by NVRTC and cached as ``tune`` caches them).

    Parameters
    ----------
    i0, i1 : array_like, shape (H, W), dtype uint8 or float32
        Grayscale frames of equal shape, intensities in [0, 255] (a float frame is used as
        given; convert colour frames to grayscale first, e.g. BT.601 luma).
    tuned : path, optional
        A header written by ``tune export`` (its ``// flowtune-config:`` line is read).
    config : dict or str, optional
        The config itself, as :func:`read_tuned_config` returns it or as the ``config_json``
        column of :attr:`Database.measurements` holds it: ``workload`` ("tvl1"), ``variant``,
        ``precision``, ``tunables``, ``params``, ``clock_mhz``. Exactly one of ``tuned`` and
        ``config`` is given.
    device : {"cpu", "cuda"}, optional
        Where the config must run; the variant decides (``CPU_VARIANTS`` on the CPU, the
        others on a CUDA GPU), so a mismatch is a ``ValueError``. ``None`` accepts either.
    board : str
        With ``tuned``: the board of a header exported for several boards.

    Returns
    -------
    numpy.ndarray, shape (H, W, 2), float32
        ``[y, x, 0]`` = u (right), ``[y, x, 1]`` = v (down), in pixels.

    Raises
    ------
    ValueError
        Frames of other shapes, dtypes or sizes; a config that is not a TV-L1 config of a known
        variant, or whose tunables or parameters are missing or invalid (the message names the
        first); a ``device`` the variant does not run on.
    RuntimeError
        An unreadable header; a CUDA variant without a usable GPU or in a build without CUDA;
        an NVRTC or GPU failure.
    """
    cfg = _config_json(tuned, config, board)
    variant = json.loads(cfg)["variant"]
    if device not in (None, "cpu", "cuda"):
        raise ValueError(f"flow: device must be 'cpu' or 'cuda', got {device!r}")
    runs_on = "cpu" if variant in CPU_VARIANTS else "cuda"
    if device is not None and device != runs_on:
        raise ValueError(
            f"flow: the config's variant '{variant}' runs on {runs_on}, not on {device}"
            + (" (tune and export it for a GPU board)" if device == "cuda" else "")
        )
    a = _frame(i0, "i0")
    b = _frame(i1, "i1")
    if a.shape != b.shape:
        raise ValueError(f"flow: frames of different shapes {a.shape} and {b.shape}")
    return _flowtune._flow(a, b, cfg)


class Solver:
    """TV-L1 flow with a tuned config, the solver built once and kept across frames.

    :func:`flow` builds a solver per call (its buffers, its NVRTC build of the kernels, its
    CUDA Graph); a ``Solver`` builds it at the first frame and reuses it, so a loop over a
    video pays the set-up once: ``solver = Solver(tuned="tuned.h"); for a, b in pairs:
    f = solver(a, b)``. The flow equals :func:`flow`'s bit for bit.

    Parameters
    ----------
    tuned : path, optional
        A header written by ``tune export``. A header tuned at several frame sizes
        (``tune export --resolution A --resolution B``) runs, for each frame, the config tuned
        at the size nearest to the frame's (the pixel count decides), one solver kept per
        config used.
    config : dict or str, optional
        The config itself (as :func:`flow` takes it). Exactly one of ``tuned`` and ``config``.
    board : str
        With ``tuned``: the board of a header exported for several boards.

    Frames are H x W arrays of uint8 or float32 (anything ``numpy.asarray`` takes: the array
    interface, the buffer protocol), intensities in [0, 255]. Not thread-safe: one Solver per
    thread. Raises as :func:`flow` does (``ValueError`` for bad frames or configs,
    ``RuntimeError`` for an unreadable header, no GPU for a CUDA variant, an NVRTC failure).
    """

    def __init__(self, tuned: Optional[PathLike] = None, config: Union[None, str, Mapping] = None,
                 board: str = ""):
        if (tuned is None) == (config is None):
            raise ValueError("Solver: give exactly one of tuned= (a header from `tune export`) "
                             "and config=")
        if tuned is not None:
            self._solver = _flowtune._Solver(os.fspath(tuned), board)
        else:
            self._solver = _flowtune._Solver(_config_json(None, config, board))

    def __call__(self, i0: Any, i1: Any) -> np.ndarray:
        """The flow i0 -> i1 as an (H, W, 2) float32 array (u right, v down, in pixels)."""
        a = _frame(i0, "i0")
        b = _frame(i1, "i1")
        if a.shape != b.shape:
            raise ValueError(f"Solver: frames of different shapes {a.shape} and {b.shape}")
        return self._solver.compute(a, b)

    compute = __call__

    def config_for(self, height: int, width: int) -> dict:
        """The config (a dict, as :func:`read_tuned_config` returns) run for H x W frames."""
        return self._solver.config_for(width, height)

    def tuned_size_for(self, height: int, width: int) -> tuple:
        """The (height, width) the config for H x W frames was tuned at; (0, 0) for a config
        tuned at its inputs' own sizes."""
        w, h = self._solver.tuned_size_for(width, height)
        return (h, w)


def read_png(path: PathLike) -> np.ndarray:
    """Reads a PNG (any bit depth, grey or colour) as an (H, W) float32 grayscale frame in
    [0, 255] (BT.601 luma, kernels/png_io), as ``tune flow`` reads its frames, so
    ``flow(read_png(a), read_png(b), tuned=h)`` equals ``tune flow --tuned h a b`` bit for
    bit. Raises ``RuntimeError`` "<path>: <problem>" for a missing, corrupt or oversized
    (over 64 Mpx) PNG.
    """
    return _flowtune._read_png(os.fspath(path))


def read_flo(path: PathLike) -> np.ndarray:
    """Reads a Middlebury ``.flo`` file (Baker et al. 2011: tag "PIEH", int32 width and
    height, then float32 (u, v) pairs row-major, little-endian).

    Returns an (H, W, 2) float32 array (u right, v down, in pixels); unknown flow (e.g. in
    Middlebury's ground truth) is kept as stored (> 1e9 or NaN). Raises ``RuntimeError``
    "<path>: <problem>" for a missing, malformed or oversized file (over 64 Mpx).
    """
    return _flowtune._read_flo(os.fspath(path))


def write_flo(path: PathLike, flow: Any) -> None:
    """Writes an (H, W, 2) flow (u, v in pixels; converted to float32) as a Middlebury
    ``.flo`` file; :func:`read_flo` reads it back bit for bit. Raises ``ValueError`` for
    another shape and ``RuntimeError`` "<path>: <problem>" when the file cannot be written.
    """
    _flowtune._write_flo(os.fspath(path), _flow_array(flow))


def colour(flow: Any, max_flow: Optional[float] = None) -> np.ndarray:
    """The Middlebury colour-wheel picture of a flow (Baker et al. 2011, fig. 2; flow-code's
    computeColor by D. Scharstein), as ``tune flow --viz`` draws it without the key.

    Each vector is divided by ``max_flow`` (in pixels; ``None`` or <= 0: the largest magnitude
    of the known vectors, 1 if that is 0). Its direction picks the hue on the 55-colour wheel
    (angle atan2(-v, -u), linear blend of the two nearest colours), its magnitude r <= 1
    desaturates towards white as 1 - r (1 - colour), r > 1 is dimmed by 0.75; unknown vectors
    (> 1e9 or NaN) are black.

    Parameters
    ----------
    flow : array_like, shape (H, W, 2), float
    max_flow : float, optional
        Magnitude of full saturation, in pixels.

    Returns
    -------
    numpy.ndarray, shape (H, W, 3), uint8 (RGB)
    """
    return _flowtune._colour(_flow_array(flow), float(max_flow or 0.0))
