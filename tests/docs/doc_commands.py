#!/usr/bin/env python3
"""Checks that every `tune` command shown in Markdown files is accepted by the tool's --help.

A command is a line of a code block (fenced, or indented by four spaces) or an inline code span
whose first word is `tune` or a path ending in `/tune` (`build/release/cli/tune`). Its
sub-command is the next word when it names one (`tune export ...`), else the tuning run itself.
Every option of the command (`--name`, `--name=value`, `-o`; in brackets or alternatives such
as `[--list]`, `--objective time|energy`) must appear in that sub-command's `--help`.

Usage: doc_commands.py TUNE FILE.md|FOLDER...   (exit 1, naming file, line and option, on a failure)
"""
import os
import re
import subprocess
import sys

SUBCOMMANDS = ("boards", "space", "predict", "export", "report", "flow", "run", "params",
               "worker", "search", "replay", "import", "status", "stream")
_TUNE = re.compile(r"^(?:\$\s+)?(?:\S*/)?tune(?:\s|$)")
_OPTION = re.compile(r"(?<![\w-])(--[a-z0-9][a-z0-9_-]*|-[a-zA-Z])(?![\w-])")


def commands(markdown):
    """Yields (line number, command text) for each `tune` command of a Markdown text.

    Continuation lines (ending in a backslash) are joined to their command; a `#` comment
    after the command is dropped.
    """
    lines = markdown.splitlines()
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        number = i + 1
        i += 1
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        code_line = fenced or line.startswith("    ")
        candidates = [line.strip()] if code_line else re.findall(r"`([^`]+)`", line)
        for text in candidates:
            if not _TUNE.match(text):
                continue
            while code_line and text.endswith("\\") and i < len(lines):
                text = text[:-1] + " " + lines[i].strip()
                i += 1
            yield number, re.split(r"\s#\s|\s#$", text)[0]


def split_command(text):
    """Returns (sub-command or "", the options used) of one command's text."""
    words = text.split()
    if words and words[0] == "$":
        words = words[1:]
    sub = words[1] if len(words) > 1 and words[1] in SUBCOMMANDS else ""
    if sub == "run":
        sub = "flow"
    options = []
    for word in words[1:]:
        for part in re.split(r"[\[\]|(),]", word):
            m = _OPTION.match(part.split("=")[0])
            if m and m.group(0) == part.split("=")[0]:
                options.append(m.group(0))
    return sub, options


def known_options(help_text, metrics=()):
    """The options a `--help` text names (`--name`, and `-x` of `-x [ --name ]`).

    Where the text offers `--max-METRIC`, `--max-<m>` of each metric name m is an option too,
    also with its underscores written as dashes (`--max-ref-aepe` for ref_aepe).
    """
    options = set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9_-]*|-[a-zA-Z])(?![\w-])", help_text))
    if "--max-METRIC" in help_text:
        options |= {"--max-" + m for m in metrics}
        options |= {"--max-" + m.replace("_", "-") for m in metrics}
    return options


def metric_names(params_markdown):
    """The metric names of every workload in `tune params --markdown` ("metrics: a (px, ...), b")."""
    names = set()
    for line in params_markdown.splitlines():
        if line.startswith("metrics:"):
            body = re.sub(r"\([^)]*\)", "", line[len("metrics:"):].split(";")[0])
            names |= {n.strip() for n in body.split(",") if n.strip()}
    return names


def check(files, help_of, metrics=()):
    """Returns the failures ("file:line: ...") of the commands in `files`.

    `help_of(sub)` returns the `--help` text of a sub-command ("" for the tuning run);
    `metrics` are the workloads' metric names (for `--max-METRIC`).
    """
    failures = []
    cache = {}
    for path, text in files:
        for number, command in commands(text):
            sub, options = split_command(command)
            if sub not in cache:
                cache[sub] = known_options(help_of(sub), metrics) | {"--help", "-h"}
            for option in options:
                if option not in cache[sub]:
                    name = "tune " + sub if sub else "tune"
                    failures.append(f"{path}:{number}: `{name}` has no option {option}: {command}")
    return failures


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    tune = argv[1]

    def help_of(sub):
        args = [tune] + ([sub] if sub else []) + ["--help"]
        return subprocess.run(args, capture_output=True, text=True, check=False).stdout

    paths = []
    for arg in argv[2:]:
        if os.path.isdir(arg):
            paths += sorted(os.path.join(arg, n) for n in os.listdir(arg) if n.endswith(".md"))
        else:
            paths.append(arg)
    files = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            files.append((path, f.read()))
    params = subprocess.run([tune, "params", "--markdown"], capture_output=True, text=True,
                            check=False).stdout
    failures = check(files, help_of, metric_names(params))
    for f in failures:
        print(f)
    print(f"doc_commands: {len(failures)} unknown option(s) in {len(files)} file(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
