"""flowtune.open_db on a DB written by a real `tune` run in the test, checked against what
`tune` printed (--json), against flowtune.flow recomputing a measured config, and the export
round trip: flow(tuned=header) equals `tune flow --tuned header` bit for bit."""

import hashlib
import json
import subprocess

import numpy as np
import pytest

import flowtune
from conftest import aepe


@pytest.fixture(scope="module")
def tuned_db(tmp_path_factory, tune):
    from conftest import sequence_dir

    seq = sequence_dir("RubberWhale")
    d = tmp_path_factory.mktemp("db")
    db = d / "flowtune.db"
    out = subprocess.run(
        [tune, "--board", "host", "--db", str(db), "--data", str(seq.parent), "--items",
         "RubberWhale", "--variant", "simd_fused", "--precision", "f32", "--tunable",
         "threads=2", "--tunable", "band_rows=16", "--tunable", "temporal_depth=1",
         "--tunable", "tile_cols=0", "--no-default-dimensions", "--param",
         "n_scales=4", "--param", "n_warpings=1", "--param", "iterations=10,40",
         "--max-rounds", "0", "--json"],
        check=True, capture_output=True, text=True)
    return db, json.loads(out.stdout), seq


def test_tables_hold_what_tune_printed(tuned_db):
    db_path, printed, _ = tuned_db
    db = flowtune.open_db(db_path)
    assert db.runs["run_id"].tolist() == [printed["run_id"]]
    assert db.runs.loc[0, "board"] == "host" and db.runs.loc[0, "status"] == "done"
    assert len(db.measurements) == printed["measured"] == 2
    assert set(db.measurements["param_iterations"]) == {10, 40}
    assert (db.measurements["dataset"] == printed["dataset"]).all()
    front = db.fronts[db.fronts["dataset"] == printed["dataset"]].sort_values("rank")
    assert front["objectives"].unique().tolist() == [",".join(printed["front_objectives"])]
    assert [json.loads(c) for c in front["config_json"]] == [f["config"] for f in printed["front"]]
    assert front["time_ms"].tolist() == [f["time_ms"] for f in printed["front"]]
    assert front["aepe"].tolist() == [f["metrics"]["aepe"] for f in printed["front"]]
    assert db.failures.empty and db.pruned.empty
    # per-item results: one sequence, so the item's AEPE is the measurement's
    merged = db.items.merge(db.measurements, on="measurement_id", suffixes=("_item", ""))
    assert (merged["item"] == "RubberWhale").all()
    assert np.allclose(merged["aepe_item"], merged["aepe"], rtol=1e-12)


def test_a_measured_config_recomputed_by_flow_gives_its_aepe(tuned_db):
    db_path, _, seq = tuned_db
    db = flowtune.open_db(db_path)
    row = db.measurements.sort_values("param_iterations").iloc[-1]
    f = flowtune.flow(flowtune.read_png(seq / "frame10.png"), flowtune.read_png(seq / "frame11.png"),
                      config=row["config_json"])
    assert aepe(f, flowtune.read_flo(seq / "flow10.flo")) == pytest.approx(row["aepe"], abs=1e-5)


def test_flow_of_an_exported_header_equals_tune_flow(tuned_db, tune, tmp_path):
    db_path, _, seq = tuned_db
    header = tmp_path / "tuned.h"
    subprocess.run([tune, "export", "--board", "host", "--db", str(db_path), "--objective",
                    "time", "-o", str(header)], check=True, capture_output=True)
    cli_flo = tmp_path / "cli.flo"
    subprocess.run([tune, "flow", "--tuned", str(header), str(seq / "frame10.png"),
                    str(seq / "frame11.png"), "-o", str(cli_flo)], check=True, capture_output=True)
    i0, i1 = flowtune.read_png(seq / "frame10.png"), flowtune.read_png(seq / "frame11.png")
    f = flowtune.flow(i0, i1, tuned=header, device="cpu")
    assert f.tobytes() == flowtune.read_flo(cli_flo).tobytes()
    assert flowtune.read_tuned_config(header)["variant"] == "simd_fused"


def test_open_is_read_only_and_errors_name_the_db(tuned_db, tmp_path):
    db_path, _, _ = tuned_db
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    repr(flowtune.open_db(db_path))
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before
    with pytest.raises(RuntimeError, match="missing.db"):
        flowtune.open_db(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    not_db = tmp_path / "text.db"
    not_db.write_text("hello\n" * 100)
    with pytest.raises(RuntimeError, match="text.db"):
        flowtune.open_db(not_db)
