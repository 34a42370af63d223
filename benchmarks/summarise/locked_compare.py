#!/usr/bin/env python3
"""`tune`'s time of the same configs in two DBs (xz-compressed SQLite): the configs both measured
(same config_key), the median and 10th / 90th percentiles of (A - B) in ms per frame, and the
median of B / A. Used to show what page-locked frames and flow change in `tune`'s times:
A = results/tuned-eight/h200/2026-11-25/after/eight.db.xz (staged host API),
B = results/page-locked-host/h200/2026-11-25/eight_narrow/eight_locked.db.xz (page-locked).
Python standard library only. Usage: python3 -m benchmarks.summarise locked-compare A.db.xz B.db.xz"""
import lzma, sqlite3, statistics, sys, tempfile


def times(path):
    tmp = tempfile.NamedTemporaryFile(suffix=".db", delete=False)
    tmp.write(lzma.open(path).read())
    tmp.close()
    db = sqlite3.connect(tmp.name)
    q = "select c.config_key, m.time_ms_median from measurements m join configs c on c.id = m.config_id"
    return dict(db.execute(q).fetchall())


a, b = times(sys.argv[1]), times(sys.argv[2])
common = sorted(k for k in a if k in b)
if not common:
    sys.exit("no config measured in both DBs")
d = sorted(a[k] - b[k] for k in common)
pct = lambda p: d[int(p * (len(d) - 1))]
print(f"{len(common)} configs in both ({len(a)} in A, {len(b)} in B)")
print(f"A - B, ms per frame: median {statistics.median(d):.3f}, 10th percentile {pct(0.1):.3f}, "
      f"90th percentile {pct(0.9):.3f}")
print(f"B / A: median {statistics.median(b[k] / a[k] for k in common):.3f}")
