"""`python3 -m benchmarks.config_flags HEADER [--tune TUNE]`: the `tune` options that fix a tuned
header's config.

Prints, on one line, `--workload W --variant V --precision P --no-default-dimensions` followed by
one `--tunable NAME=VALUE` per tunable and one `--param NAME=VALUE` per parameter of the
header's `// flowtune-config: {...}` line (select/tuned_header_reader.hpp's format). A parameter
absent from a config has a value of its own where `TUNE params` says "(absent: V)" (e.g.
median_window: default 5, absent 0 = no filter): with --tune, each such parameter the config
lacks gets `--param NAME=V`, since --no-default-dimensions would give it the default. So that
`tune ... $(python3 -m benchmarks.config_flags H) --max-evals 1` measures exactly that config on
other inputs (another resolution, other sequences) into the store. Exit 2 naming the file when
it has no such line or the JSON is malformed.
"""
import json
import re
import subprocess
import sys

MARKER = "// flowtune-config: "


def config_of(path):
    """The config dict of HEADER's single-board config line; ValueError naming PATH else."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(MARKER):
                try:
                    return json.loads(line[len(MARKER):])
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}: malformed flowtune-config line ({e})") from e
    raise ValueError(f"{path}: no '{MARKER.strip()}' line (export it with `tune export`)")


ABSENT = re.compile(r"^  ([a-z_0-9]+) \(.*\): default [^ ]+ \(absent: ([^)]+)\)")


def absent_values(tune, workload):
    """{parameter: value when absent} of WORKLOAD from `TUNE params --workload WORKLOAD`."""
    text = subprocess.run([tune, "params", "--workload", workload], check=True,
                          capture_output=True, text=True).stdout
    return {m.group(1): m.group(2) for m in map(ABSENT.match, text.splitlines()) if m}


def flags_of(config, absent=None):
    """The tune options fixing CONFIG (a dict with workload, variant, precision, tunables,
    params), as a list of words; ABSENT ({parameter: value}) fills the parameters CONFIG
    lacks."""
    words = ["--workload", config["workload"], "--variant", config["variant"], "--precision",
             config["precision"], "--no-default-dimensions"]
    for name, value in sorted(config["tunables"].items()):
        words += ["--tunable", f"{name}={value}"]
    for name, value in sorted(config["params"].items()):
        words += ["--param", f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}"]
    for name, value in sorted((absent or {}).items()):
        if name not in config["params"]:
            words += ["--param", f"{name}={value}"]
    return words


def main(argv):
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--tune"):
        print("usage: python3 -m benchmarks.config_flags HEADER [--tune TUNE]", file=sys.stderr)
        return 2
    try:
        config = config_of(argv[0])
        absent = absent_values(argv[2], config["workload"]) if len(argv) == 3 else None
        print(" ".join(flags_of(config, absent)))
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print(f"benchmarks.config_flags: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
