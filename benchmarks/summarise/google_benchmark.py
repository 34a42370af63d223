"""Reading Google Benchmark outputs as the summarisers of its JSON share them."""
import lzma
import re


def read_text(path):
    """The text of path, or of path.xz (a committed raw output), else None."""
    for opener, q in ((open, path), (lzma.open, path + ".xz")):
        try:
            with opener(q, "rt") as f:
                return f.read()
        except OSError:
            pass
    return None


def base_name(run_name):
    """A benchmark's run name without the options Google Benchmark appends (min_time,
    iterations, repeats, manual_time, real_time): the name of the config it measured."""
    parts = [p for p in run_name.split("/")
             if not re.match(r"(min_time|iterations|repeats|manual_time|real_time)", p)]
    return "/".join(parts)
