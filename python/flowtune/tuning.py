"""The tuner from Python: :func:`tune`, :func:`export` and :func:`report` run the ``tune``
command line (the C++ tuner, ``cli/``) on the caller's options and read its DB back as pandas
DataFrames. The binary is ``tune_binary``, else ``$FLOWTUNE_TUNE``, else ``tune`` on ``PATH``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Iterable, Mapping, Optional, Union

import pandas as pd

from .database import open_db

PathLike = Union[str, "os.PathLike[str]"]


def find_tune_binary(path: Optional[PathLike] = None) -> str:
    """The ``tune`` executable used: ``path``, else ``$FLOWTUNE_TUNE``, else ``tune`` on
    ``PATH``. Raises ``RuntimeError`` naming ``path`` when it is given and is no executable,
    or saying where it looked when there is none."""
    if path is not None:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.fspath(path)
        raise RuntimeError(f"{os.fspath(path)}: no tune executable there")
    for candidate in (os.environ.get("FLOWTUNE_TUNE"), shutil.which("tune")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.fspath(candidate)
    raise RuntimeError("no tune executable: pass tune_binary=, set FLOWTUNE_TUNE, or put the "
                       "installed flowtune's bin/ on PATH")


def _options(options: Mapping[str, object]) -> list:
    """{"time_budget": "20s", "in_process": True, "variant": ["a", "b"]} -> --time-budget 20s
    --in-process --variant a --variant b (False / None are left out)."""
    words = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                words += [flag, str(v)]
        else:
            words += [flag, str(value)]
    return words


def _constraints(constraints: Optional[Mapping[str, float]]) -> list:
    words = []
    for name, bound in (constraints or {}).items():
        words += ["--max", f"{name}={bound!r}"]
    return words


def _run(binary: str, args: Iterable[str]) -> subprocess.CompletedProcess:
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    if p.returncode != 0:
        message = (p.stderr.strip() or p.stdout.strip()).splitlines()
        raise RuntimeError(f"tune exited with {p.returncode}: "
                           + (message[-1] if message else "(no message)"))
    return p


def tune(board: str = "auto", db: PathLike = "flowtune.db", *, data: Optional[PathLike] = None,
         time_budget: Optional[str] = None, objective: Optional[str] = None,
         constraints: Optional[Mapping[str, float]] = None,
         tune_binary: Optional[PathLike] = None, **options) -> pd.DataFrame:
    """Runs ``tune --board BOARD --db DB`` (the main job: search, measure, store) and returns
    the run's Pareto front as a DataFrame: the rows of :attr:`Database.fronts` of that run's
    board, dataset and workload, in order of ``rank`` (fastest first), each with its
    ``config_json`` (what :class:`Solver` and :func:`flow` take), ``time_ms`` and metrics.

    ``data``: the inputs (``--data``: Middlebury, KITTI, Sintel, frames or a video; default the
    bundled pairs); ``time_budget``: e.g. ``"2m"``; ``objective`` and ``constraints``
    (``{"aepe": 0.25}`` -> ``--max aepe=0.25``): the request the run's pick answers; every other
    keyword is a ``tune`` option with ``_`` for ``-`` (``max_evals=50``, ``resolution="1280x720"``,
    ``variant=["global", "shared_fusion"]``, ``in_process=True``). A killed or failed run keeps
    its measured rows in DB and resumes with the same call. Raises ``RuntimeError`` with
    tune's message when it exits non-zero (bad options are exit 2, nothing measured).
    """
    binary = find_tune_binary(tune_binary)
    args = ["--board", board, "--db", os.fspath(db), "--json"]
    if data is not None:
        args += ["--data", os.fspath(data)]
    if time_budget is not None:
        args += ["--time-budget", str(time_budget)]
    if objective is not None:
        args += ["--objective", objective]
    args += _constraints(constraints) + _options(options)
    printed = json.loads(_run(binary, args).stdout)
    fronts = open_db(db).fronts
    run_front = fronts[(fronts["dataset"] == printed["dataset"])
                       & (fronts["board"] == printed["board"])]
    return run_front.sort_values("rank").reset_index(drop=True)


def export(db: PathLike, out: PathLike, board: str = "host", *, objective: str = "time",
           constraints: Optional[Mapping[str, float]] = None,
           resolution: Union[None, str, Iterable[str]] = None,
           tune_binary: Optional[PathLike] = None, **options) -> str:
    """Writes the tuned header of ``board``'s best config by ``objective`` under
    ``constraints`` (``tune export``) to ``out`` and returns its path; ``resolution`` (one
    ``"WxH"`` or several) exports the configs tuned at those sizes into one header. Other
    keywords are ``tune export`` options (``dataset=...``, ``workload=...``). Raises
    ``RuntimeError`` with tune's message (no measurements, no config satisfying the
    constraints, an unwritable path)."""
    binary = find_tune_binary(tune_binary)
    sizes = [resolution] if isinstance(resolution, str) else list(resolution or [])
    args = ["export", "--db", os.fspath(db), "--board", board, "--objective", objective,
            "-o", os.fspath(out)] + _constraints(constraints) + _options(options)
    for s in sizes:
        args += ["--resolution", s]
    _run(binary, args)
    return os.fspath(out)


def report(db: PathLike, out_dir: PathLike, board: str = "host", *,
           tune_binary: Optional[PathLike] = None, **options) -> str:
    """Writes ``tune report``'s report of ``board`` (HTML with its pictures, CSV, Markdown) into
    ``out_dir`` and returns the path of its ``index.html``. Other keywords are ``tune report``
    options. Raises ``RuntimeError`` with tune's message."""
    binary = find_tune_binary(tune_binary)
    _run(binary, ["report", "--db", os.fspath(db), "--board", board, "-o", os.fspath(out_dir)]
         + _options(options))
    return os.path.join(os.fspath(out_dir), "index.html")
