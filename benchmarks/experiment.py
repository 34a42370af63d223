"""Experiment files: a benchmark run on the GPU machine (or the host) described as data.

An experiment is a TOML file benchmarks/experiments/<name>.toml:

    description = "what is measured and which figure it backs"
    build = ["test_cuda", "tune"]          # targets of scripts/device-build it needs
    record = "results/<benchmark>/<board>" # where its outputs are committed (+ /<date>)
    [params]                               # options; FLOWTUNE_BENCH_<NAME> or --set override
    grid = "focused"
    [env]                                  # environment of every step
    FLOWTUNE_CACHE_DIR = "{tmp}/cache"
    [[step]]
    name = "main job"                      # printed, and the default output file stem
    run = ["{build}/tests/tune", "--board", "auto", "--db", "{tmp}/main_job.db"]
    stdout = "main_job.txt"                # files under the output folder ({out})
    stderr = "main_job.log"
    timeout_s = 600
    env = { FLOWTUNE_THROUGHPUT_HOST_CHUNKS = "8" }
    remove = ["{tmp}/cache"]               # removed before the step
    compress = ["{tmp}/main_job.db"]       # xz-compressed into {out} after the step
    group = "tests"                        # `benchmarks/run --only tests,...` picks groups
    when = "{ncu}"                         # the step runs only when this is not empty
    unless = "{warm_cache}"                # the step is skipped when this is not empty

Strings may use {build} (the staged build folder), {out} (the output folder), {tmp} (a fresh
temporary folder), {root} (the repository root), {data} (data/middlebury), {shared_data}
(the Middlebury copy staged with the build) and {<param>} for each parameter. A `run` argument
that is exactly {*<param>} becomes the parameter's whitespace-separated words (none when empty).
"""
import os
import re

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

TOP_KEYS = {"description", "build", "record", "params", "env", "step"}
STEP_KEYS = {"name", "run", "stdout", "stderr", "timeout_s", "env", "remove", "compress", "when",
             "unless", "group"}
PLACEHOLDER = re.compile(r"\{\*?([A-Za-z_][A-Za-z0-9_]*)\}")
SPLICE = re.compile(r"^\{\*([A-Za-z_][A-Za-z0-9_]*)\}$")


class ExperimentError(Exception):
    """A malformed experiment file; the message names the file and the problem."""


def param_env_name(name):
    """The environment variable that overrides parameter NAME: FLOWTUNE_BENCH_<NAME>."""
    return "FLOWTUNE_BENCH_" + name.upper()


def load(path):
    """The experiment of the TOML file PATH as a dict with keys description, build, record,
    params, env and step (a list of step dicts, `run` a list of strings). Raises
    ExperimentError naming PATH for a missing file, bad TOML, an unknown key, a step without
    `name` or `run`, or a placeholder that names no parameter."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ExperimentError(f"{path}: no such experiment file")
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: not valid TOML: {e}")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ExperimentError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
    if not isinstance(data.get("description"), str):
        raise ExperimentError(f"{path}: 'description' (a string) is missing")
    steps = data.get("step")
    if not isinstance(steps, list) or not steps:
        raise ExperimentError(f"{path}: no [[step]]")
    params = {k: str(v) for k, v in data.get("params", {}).items()}
    known = set(params) | {"build", "out", "tmp", "root", "data", "shared_data"}
    for i, step in enumerate(steps, 1):
        where = f"{path}: step {i}"
        bad = set(step) - STEP_KEYS
        if bad:
            raise ExperimentError(f"{where}: unknown key(s) {', '.join(sorted(bad))}")
        if not isinstance(step.get("name"), str):
            raise ExperimentError(f"{where}: 'name' (a string) is missing")
        run = step.get("run")
        if not isinstance(run, list) or not run or not all(isinstance(a, str) for a in run):
            raise ExperimentError(f"{where} ({step['name']}): 'run' must be a list of strings")
        texts = list(run) + [str(v) for v in step.get("env", {}).values()]
        texts += step.get("remove", []) + step.get("compress", [])
        texts += [step.get("when", ""), step.get("unless", "")]
        texts += [step.get("stdout", ""), step.get("stderr", "")]
        for t in texts:
            for name in PLACEHOLDER.findall(t):
                if name not in known:
                    raise ExperimentError(f"{where} ({step['name']}): unknown placeholder "
                                          f"{{{name}}} in '{t}'")
    return {"description": data["description"], "build": list(data.get("build", [])),
            "record": data.get("record", ""), "params": params,
            "env": {k: str(v) for k, v in data.get("env", {}).items()}, "step": steps}


def expand(text, values):
    """TEXT with each {name} replaced by values[name] (names checked by load())."""
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def expand_args(args, values):
    """A step's `run` list expanded: {*name} spliced as words, other strings by expand()."""
    out = []
    for a in args:
        m = SPLICE.match(a)
        out += values[m.group(1)].split() if m else [expand(a, values)]
    return out
