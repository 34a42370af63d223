#!/usr/bin/env python3
"""Tables of the re-scheduled pyramid level (zoom_out_pair_one_launch's ZoomSchedule)
from the raw outputs of benchmarks/run pyramid-schedule (one folder, its $OUT, or a committed copy
whose files may be .xz-compressed):
  tests_zoom.xml, tests_fusion.xml   test_cuda's schedule and fusion tests (bit-identity);
  zoom.json                          bench_zoom_schedule: each level and the pyramid stage
                                     under each schedule, median [min, max] of 60 launches (us);
  frame_before.json / frame_after.json  bench_frame_throughput's device_ms and latency_device
                                     rows of the default frame with the earlier run's schedule
                                     (32x8t256) and with the new default, same call, 5
                                     repetitions: median [min, max] over the repetitions.
Prints Markdown. Python standard library only.
Usage: python3 -m benchmarks.summarise pyramid-schedule FOLDER"""
import json, lzma, os, re, statistics, sys
from benchmarks.summarise._gtest_xml import tests_line

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"


def read(name):
    p = os.path.join(folder, name)
    for opener, q in ((open, p), (lzma.open, p + ".xz")):
        try:
            with opener(q, "rt") as f:
                return f.read()
        except OSError:
            pass
    return None


def tests(name):
    return tests_line(name, read(name))


def benchmarks(name):
    """{base name: [rows]} of a Google Benchmark JSON (iterations only), and its context."""
    text = read(name)
    if text is None:
        return {}, {}
    data = json.loads(text)
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        key = "/".join(p for p in b.get("run_name", b["name"]).split("/")
                       if not re.match(r"(min_time|iterations|repeats|manual_time|real_time)", p))
        out.setdefault(key, []).append(b)
    return out, data.get("context", {})


def spread(values, fmt="{:.3f}"):
    if not values:
        return "-"
    return (fmt.format(statistics.median(values)) + " [" + fmt.format(min(values)) + ", " +
            fmt.format(max(values)) + "]")


print(f"## The pyramid level's schedule ({folder})\n")
gpu = read("gpu.txt")
if gpu:
    print("```\n" + gpu.strip() + "\n```\n")
print("### Tests (bit-identity)\n")
print(tests("tests_zoom.xml"))
print(tests("tests_fusion.xml"))

zoom, ctx = benchmarks("zoom.json")
if zoom:
    old, new = ctx.get("old_schedule", next(
        (v for k, v in ctx.items() if k.endswith("_schedule") and k != "default_schedule"), "32x8t256")), ctx.get("default_schedule", "?")
    print(f"\n### The pyramid stage per schedule (bench_zoom_schedule, CUDA events, us, median "
          f"[min, max] of {int(next(iter(zoom.values()))[0].get('samples', 60))} launches)\n")
    print(f"The earlier run's schedule {old}; the default now {new}. `x old` = the earlier run's median / "
          "this median (> 1: faster). Level cells: median [min, max] us, waves = blocks / "
          "(resident blocks per SM x SMs) and the resident blocks per SM (driver's query).\n")
    groups = sorted({k.split("/")[1] + "/" + k.split("/")[2] for k in zoom if k.startswith("pyramid/")})
    for g in groups:
        levels = sorted({k.split("/")[3] for k in zoom if k.startswith("level/" + g + "/")})
        rows = [k for k in zoom if k.startswith("pyramid/" + g + "/")]
        base = zoom.get(f"pyramid/{g}/{old}")
        base_med = base[0]["median_us"] if base else None
        print(f"#### {g}\n")
        print("| schedule | pyramid stage | x old | " + " | ".join(
            f"{l} ({int(zoom['level/'+g+'/'+l+'/'+old][0]['out_w']) if 'level/'+g+'/'+l+'/'+old in zoom else '?'}"
            f"x{int(zoom['level/'+g+'/'+l+'/'+old][0]['out_h']) if 'level/'+g+'/'+l+'/'+old in zoom else '?'})"
            for l in levels) + " |")
        print("|---|---|---|" + "---|" * len(levels))
        best = min(rows, key=lambda k: zoom[k][0]["median_us"])
        for k in sorted(rows, key=lambda k: zoom[k][0]["median_us"]):
            r = zoom[k][0]
            tag = k.split("/")[-1]
            mark = " (old)" if tag == old else (" (default)" if tag == new else "")
            mark += " **best**" if k == best else ""
            cells = []
            for l in levels:
                lr = zoom.get(f"level/{g}/{l}/{tag}")
                waves = (f", {lr[0]['waves']:.2f} w ({lr[0]['blocks_per_sm']:.0f}/SM)"
                         if lr and "waves" in lr[0] else "")
                cells.append("-" if not lr else
                             f"{lr[0]['median_us']:.2f} [{lr[0]['min_us']:.2f}, {lr[0]['max_us']:.2f}]"
                             + waves)
            ratio = f"{base_med / r['median_us']:.2f}" if base_med else "-"
            print(f"| {tag}{mark} | {r['median_us']:.2f} [{r['min_us']:.2f}, {r['max_us']:.2f}] | "
                  f"{ratio} | " + " | ".join(cells) + " |")
        print()

before, bctx = benchmarks("frame_before.json")
after, actx = benchmarks("frame_after.json")
if before or after:
    print("### The default frame before / after (bench_frame_throughput, same call, median "
          "[min, max] over 5 repetitions, ms)\n")
    print(f"before: pyramid_schedule {bctx.get('pyramid_schedule', '?')}; after: "
          f"{actx.get('pyramid_schedule', '?')}; config {actx.get('config_default', bctx.get('config_default', '?'))}\n")
    print("| row | before | after | after / before (medians) |")
    print("|---|---|---|---|")

    def row(label, key, field):
        b = [r[field] for r in before.get(key, []) if field in r]
        a = [r[field] for r in after.get(key, []) if field in r]
        ratio = f"{statistics.median(a) / statistics.median(b):.3f}" if a and b else "-"
        print(f"| {label} | {spread(b)} | {spread(a)} | {ratio} |")

    row("device ms per frame (upload + graph + download, RubberWhale)", "device_ms/default", "device_ms")
    row("pyramid stage ms (direct frame, st_pyramid_ms)", "device_ms/default", "st_pyramid_ms")
    row("direct frame ms (sum of stages)", "device_ms/default", "direct_ms")

    def latency(rows):
        # real_time in the benchmark's time unit (ms): manual time per frame
        return [r["real_time"] * (1e-3 if r.get("time_unit") == "us" else 1) for r in rows]

    for seq in ("RubberWhale", "Grove2"):
        key = f"latency_device/default/{seq}"
        b, a = latency(before.get(key, [])), latency(after.get(key, []))
        ratio = f"{statistics.median(a) / statistics.median(b):.3f}" if a and b else "-"
        target = "" if not a else (" (target <= 0.15: " +
                                   ("met" if statistics.median(a) <= 0.15 else "missed") + ")")
        print(f"| device-pointer latency ms, {seq}{target} | {spread(b)} | {spread(a)} | {ratio} |")
