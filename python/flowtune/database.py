"""flowtune's tuning DB as pandas DataFrames (:func:`open_db`)."""

from __future__ import annotations

import os
from typing import Union

import pandas as pd

from . import _flowtune


def _frame(table: dict) -> pd.DataFrame:
    return pd.DataFrame(table["data"], columns=table["columns"])


class Database:
    """A flowtune DB read once, read-only, through the C++ DB layer (db/SCHEMA.md gives each
    column's meaning and unit). Every attribute is a pandas DataFrame:

    ``runs``
        One row per tuning run: ``run_id``, ``board``, ``workload``, ``dataset``, ``status``
        ("running", "done", "failed", "interrupted", "aborted"), ``started_at``/``ended_at``
        (ISO 8601 UTC), ``command``, ``git_revision``, ``host``, ``gpu_name``,
        ``driver_version``, ``cuda_version``, ``clocks_observed``, ``pid``.
    ``measurements``
        One row per measured config and dataset: ``measurement_id``, ``run_id``, ``dataset``,
        the config (``board``, ``workload``, ``variant``, ``precision``, ``label``,
        ``clock_mhz``, ``config_json`` -- what :func:`flowtune.flow` takes as ``config=`` --,
        one ``tunable_<name>`` and ``param_<name>`` column per tunable and parameter,
        ``key``), ``time_ms`` (median time per execution in ms, mean over items),
        ``time_ms_min``, ``time_ms_max``, ``n_repeats``, ``ns_per_unit``, ``energy_mj``,
        ``nj_per_unit``, ``power_w`` (NaN without a sensor), ``clock_mhz_observed``, one
        column per metric of the workload (e.g. ``aepe`` and ``aae`` in px and degrees, mean
        over items) and ``measured_at``.
    ``items``
        Per-item results of each measurement: ``measurement_id``, ``item`` (e.g. a
        Middlebury sequence), ``time_ms`` and the metrics on that item.
    ``fronts``
        The Pareto fronts as ``tune report`` computes them: per board, dataset and workload,
        the non-dominated measurements over the workload's objectives (``objectives``, e.g.
        "time_ms,aepe"), ``rank`` 0.. in order of the first objective, joined with their
        ``measurements`` row.
    ``failures``
        Configs that produced no valid measurement: ``run_id``, ``dataset``, the config
        columns, ``failure_class`` ("compile", "launch", "runtime", "timeout", "accuracy",
        "environment"), ``message``, ``failed_at``.
    ``pruned``
        Configs rejected before measuring: ``run_id``, the config columns, ``reason``.

    ``path`` is the DB as given (a PostgreSQL URL without its password) and
    ``schema_version`` the schema version of the file.
    """

    def __init__(self, tables: dict):
        self.path: str = tables["path"]
        self.schema_version: int = tables["schema_version"]
        self.runs = _frame(tables["runs"])
        self.measurements = _frame(tables["measurements"])
        self.items = _frame(tables["items"])
        front_ids = _frame(tables["fronts"])
        if front_ids.empty:
            self.fronts = front_ids.reindex(columns=list(front_ids.columns) + list(
                c for c in self.measurements.columns if c not in front_ids.columns))
        else:
            extra = self.measurements.drop(columns=["board", "dataset", "workload"])
            self.fronts = front_ids.merge(extra, on="measurement_id", how="left")
        self.failures = _frame(tables["failures"])
        self.pruned = _frame(tables["pruned"])

    def __repr__(self) -> str:
        return (
            f"<flowtune.Database {self.path!r}: {len(self.runs)} runs, "
            f"{len(self.measurements)} measurements, {len(self.fronts)} front points, "
            f"{len(self.failures)} failures, {len(self.pruned)} pruned>"
        )


def open_db(path: Union[str, "os.PathLike[str]"]) -> Database:
    """Opens a flowtune DB read-only and reads its tables into a :class:`Database` of pandas
    DataFrames (runs, measurements, items, fronts, failures, pruned).

    ``path``: an SQLite file written by ``tune`` (``--db``) or a ``postgresql://`` URL. The
    file is not modified (a read-only file or folder is fine). Raises ``RuntimeError``
    "<path>: <problem>" when it does not exist, is not a flowtune DB, or has a schema older
    than this build reads ("open it once with tune to migrate") or newer than it understands.
    """
    p = os.fspath(path)
    return Database(_flowtune._read_db(p))
