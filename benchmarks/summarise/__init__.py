"""Summarisers of benchmark raw outputs: one module per kind of table.

Each module reads the raw outputs of one experiment (a folder written by `benchmarks/run`, or
its committed copy under results/, where large files are xz-compressed) and prints the
Markdown table that a figure in the README or results/README.md cites. Run one with
`python3 -m benchmarks.summarise KIND ARGS...` from the repository root; `KIND` is the
module's name with '-' for '_' (e.g. `ncu`, `main-job`). Python standard library only.
"""
