"""Unit tests of the documentation's command checker on hand-written Markdown."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import doc_commands  # noqa: E402

HELP = {
    "": "Options:\n  --board arg   board\n  --max-aepe arg\n  -q [ --quiet ]\n",
    "export": "Options:\n  -o [ --output ] arg\n  --objective arg\n  --board arg\n",
}


def failures(markdown):
    return doc_commands.check([("doc.md", markdown)], lambda sub: HELP.get(sub, ""))


def test_max_metric_options_are_those_of_the_workloads_metrics():
    params = "metrics: aepe (px, lower is better), aae_deg (deg, lower is better); work unit: px\n"
    metrics = doc_commands.metric_names(params)
    assert metrics == {"aepe", "aae_deg"}
    help_of = lambda sub: "  --max arg   also --max-METRIC V\n"
    md = ("    tune --max-aepe 0.2 --max-aae_deg 3 --max-aae-deg 3\n"
          "    tune --max-aepee 0.2\n")
    out = doc_commands.check([("d.md", md)], help_of, metrics)
    assert len(out) == 1 and "--max-aepee" in out[0]


def test_known_options_pass():
    assert failures("    tune --board auto --max-aepe 0.2 -q\n") == []


def test_an_unknown_option_is_named_with_file_and_line():
    out = failures("text\n\n    tune export --board h200 --max-watts 3 -o x.h\n")
    assert len(out) == 1
    assert out[0].startswith("doc.md:3: `tune export` has no option --max-watts")


def test_inline_code_and_paths_to_the_binary_are_commands():
    out = failures("Run `build/release/cli/tune --bored auto` first.\n")
    assert [f.split(": ")[1] for f in out] == ["`tune` has no option --bored"]


def test_continuation_brackets_alternatives_and_comments():
    md = "```\ntune export --board h200 \\\n    [--objective time|energy] -o t.h  # --nope in a comment\n```\n"
    assert failures(md) == []


def test_lines_that_are_not_tune_commands_are_ignored():
    assert failures("    cmake --build build --target tune\n    tuner --x\n") == []


def test_run_is_the_flow_sub_command():
    assert doc_commands.split_command("tune run a.png b.png -o f.flo") == ("flow", ["-o"])


if __name__ == "__main__":
    tests = [f for name, f in sorted(globals().items()) if name.startswith("test_")]
    for t in tests:
        t()
    print(f"{len(tests)} tests passed")
