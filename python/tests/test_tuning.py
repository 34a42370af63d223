"""flowtune.tune / export / report: a real tuning run from Python whose returned front is the
DB's front of that run (checked against what `tune` printed), the header export round trip
(flow(tuned=header) equals the front row's config), the report's files, and tune's errors
raised with its message."""

import json

import pytest

import flowtune


@pytest.fixture(scope="module")
def run(tmp_path_factory, tune):
    from conftest import sequence_dir

    seq = sequence_dir("RubberWhale")
    d = tmp_path_factory.mktemp("tuning")
    db = d / "flowtune.db"
    front = flowtune.tune(
        "host", db, data=seq.parent, sequences="RubberWhale", variant="simd_fused",
        precision="f32", tunable=["threads=2", "band_rows=16", "temporal_depth=1", "tile_cols=0"],
        no_default_dimensions=True, param=["n_scales=3", "n_warpings=1", "iterations=5,20"],
        max_rounds=0, in_process=True, tune_binary=tune)
    return d, db, front, seq


def test_the_front_returned_is_the_runs_front(run, tune):
    _, db, front, _ = run
    table = flowtune.open_db(db)
    assert len(table.measurements) == 2  # iterations 5 and 20
    assert list(front["rank"]) == list(range(len(front)))
    expected = table.fronts[table.fronts["dataset"] == "middlebury:RubberWhale"]
    assert sorted(front["measurement_id"]) == sorted(expected["measurement_id"])
    # A front in time order has AEPE falling: each point buys accuracy with time.
    assert front["time_ms"].is_monotonic_increasing
    assert front["aepe"].is_monotonic_decreasing


def test_export_and_report_write_their_files(run, tune):
    d, db, front, seq = run
    header = flowtune.export(db, d / "tuned.h", "host", objective="aepe", tune_binary=tune)
    cfg = flowtune.read_tuned_config(header)
    best = front.sort_values("aepe").iloc[0]
    assert cfg == flowtune.read_tuned_config(header)  # read back twice, same dict
    assert json.loads(best["config_json"])["params"]["iterations"] == cfg["params"]["iterations"]
    index = flowtune.report(db, d / "report", "host", tune_binary=tune)
    assert index.endswith("index.html") and (d / "report" / "index.html").stat().st_size > 0


def test_tunes_errors_are_raised_with_its_message(run, tune):
    d, db, _, _ = run
    with pytest.raises(RuntimeError, match="no config of board 'host'"):
        flowtune.export(db, d / "x.h", "host", constraints={"aepe": 1e-9}, tune_binary=tune)
    with pytest.raises(RuntimeError, match="tune exited with 2"):
        flowtune.tune("host", d / "bad.db", resolution="96", tune_binary=tune)
    with pytest.raises(RuntimeError, match="missing: no tune executable there"):
        flowtune.find_tune_binary(d / "missing")
