#!/usr/bin/env python3
"""What bounds each missed target, from Nsight Compute raw outputs.

Reads FOLDER/<target>.raw.csv (`ncu --import R --csv --page raw`: a header row of metric
names, a row of units, one row per profiled launch; written by benchmarks/run ncu) and,
where a target has no CSV, ncu's section text (`--page details`, as <target>.details.txt or the
older results/ncu/h200/2026-11-21/*.txt). Optionally THROUGHPUT_JSON (bench_frame_throughput's Google Benchmark
JSON of the same call) for the frames' device time, to set the kernels' serialised time against
it. .xz copies are read too.

Prints Markdown: per target and kernel: launches, duration (median, total), grid/block, waves
per SM, achieved DRAM bandwidth and % of peak (peak = achieved / fraction, both from ncu),
achieved / theoretical occupancy, issue slots busy, warp cycles per issued instruction and the
top stall reasons (average warps stalled per issued instruction, by reason); then one
paragraph per target naming the bound (bandwidth, instruction issue, latency, launch overhead)
from these numbers, with the rule used. Python standard library only.
Usage: python3 -m benchmarks.summarise ncu FOLDER [THROUGHPUT_JSON]"""
import csv, io, json, lzma, os, re, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out/ncu"
tp_path = sys.argv[2] if len(sys.argv) > 2 else None

RAW = {  # canonical key -> ncu metric names, first found wins
    "duration": ["gpu__time_duration.sum"],
    "dram_pct": ["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                 "dram__throughput.avg.pct_of_peak_sustained_elapsed"],
    "mem_pct": ["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"],
    "sm_pct": ["sm__throughput.avg.pct_of_peak_sustained_elapsed"],
    "dram_bw": ["dram__bytes.sum.per_second"],
    "issue_pct": ["sm__inst_issued.avg.pct_of_peak_sustained_active",
                  "smsp__issue_active.avg.pct_of_peak_sustained_active"],
    "occ_ach": ["sm__warps_active.avg.pct_of_peak_sustained_active"],
    "occ_theo": ["sm__maximum_warps_per_active_cycle_pct"],
    "grid": ["launch__grid_size"],
    "block": ["launch__block_size"],
    "regs": ["launch__registers_per_thread"],
    "waves": ["launch__waves_per_multiprocessor"],
    "cpi": ["smsp__average_warp_latency_per_inst_issued.ratio", "smsp__average_warps_latency_per_inst_issued.ratio"],
}
DETAILS = {  # (section prefix or "", label) -> key
    ("", "Duration"): "duration",
    ("GPU Speed Of Light", "DRAM Throughput"): "dram_pct",
    ("GPU Speed Of Light", "Memory Throughput"): "mem_pct",
    ("GPU Speed Of Light", "Compute (SM) Throughput"): "sm_pct",
    ("Memory Workload Analysis", "Memory Throughput"): "dram_bw",
    ("", "Issue Slots Busy"): "issue_pct",
    ("", "Achieved Occupancy"): "occ_ach",
    ("", "Theoretical Occupancy"): "occ_theo",
    ("", "Grid Size"): "grid",
    ("", "Block Size"): "block",
    ("", "Registers Per Thread"): "regs",
    ("", "Waves Per SM"): "waves",
    ("", "Warp Cycles Per Issued Instruction"): "cpi",
}
STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio$")
TIME_US = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3, "second": 1e6, "s": 1e6}
BW_GBS = {"byte": 1e-9, "Kbyte": 1e-6, "Mbyte": 1e-3, "Gbyte": 1.0, "Tbyte": 1e3}
SHORT_US = 5.0  # a launch shorter than this is dominated by launch latency and tail (H100/H200)


def read(path):
    for opener, p in ((open, path), (lzma.open, path + ".xz")):
        try:
            with opener(p, "rt") as f:
                return f.read()
        except OSError:
            pass
    return None


def number(text):
    text = (text or "").strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        return None


def normalise(key, value, unit):
    """Durations to us, bandwidths to GB/s; the rest as given."""
    if value is None:
        return None
    unit = (unit or "").strip()
    if key == "duration":
        return value * TIME_US.get(unit, 1.0)
    if key == "dram_bw":
        return value * BW_GBS.get(unit.split("/")[0], 1e-9)
    return value


def short_name(name):
    """'void ns::(anonymous namespace)::pixel_kernel<ns::Warp>(int, ...)' -> 'pixel_kernel<Warp>'."""
    name = re.sub(r"^void ", "", name.strip()).replace("(anonymous namespace)", "anon")
    name = name.split("(")[0]
    while True:
        shorter = re.sub(r"\b\w+::", "", name)
        if shorter == name:
            return name.strip() or "?"
        name = shorter


def parse_raw(text):
    rows = list(csv.reader(io.StringIO(text)))
    rows = [r for r in rows if r and not r[0].startswith("==")]
    if len(rows) < 2:
        return []
    head = rows[0]
    col = {n: i for i, n in enumerate(head)}
    # The second row holds the units, unless this ncu printed none (then it is a launch: its
    # ID is a number).
    has_units = number(rows[1][col.get("ID", 0)]) is None
    units = rows[1] if has_units else [""] * len(head)
    launches = []
    for r in rows[2 if has_units else 1:]:
        if len(r) != len(head):
            continue
        k = {"name": short_name(r[col.get("Kernel Name", 4)]), "stall": {}}
        for key, names in RAW.items():
            for n in names:
                if n in col and number(r[col[n]]) is not None:
                    k[key] = normalise(key, number(r[col[n]]), units[col[n]])
                    break
        for n, i in col.items():
            m = STALL.match(n)
            if m and number(r[i]) is not None:
                k["stall"][m.group(1)] = number(r[i])
        launches.append(k)
    return launches


def parse_details(text):
    launches, cur, section = [], None, ""
    for line in text.splitlines():
        m = re.match(r"^  (\S+)\s+\((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\)", line)
        if m:
            cur = {"name": short_name(m.group(1)), "stall": {}}
            launches.append(cur)
            continue
        m = re.match(r"^    Section: (.*)$", line)
        if m:
            section = m.group(1).strip()
            continue
        m = re.match(r"^    (\S(?:.*?\S)?)\s{2,}(?:(\S+)\s+)?([-\d.,]+)$", line)
        if cur is None or not m:
            continue
        label, unit, value = m.group(1), m.group(2), number(m.group(3))
        for (sec, lab), key in DETAILS.items():
            if lab == label and section.startswith(sec) and key not in cur:
                cur[key] = normalise(key, value, unit)
    return launches


def load_target(base):
    text = read(base + ".raw.csv")
    if text:
        got = parse_raw(text)
        if got:
            return got, os.path.basename(base) + ".raw.csv"
    for suffix in (".details.txt", ".txt"):
        text = read(base + suffix)
        if text:
            return parse_details(text), os.path.basename(base) + suffix
    return [], None


def weighted(ks, key):
    """Duration-weighted mean of key over launches that have it (a rate over the kernel time)."""
    pairs = [(k[key], k.get("duration", 0) or 0) for k in ks if k.get(key) is not None]
    if not pairs:
        return None
    w = sum(d for _, d in pairs)
    return sum(v * d for v, d in pairs) / w if w > 0 else statistics.mean(v for v, _ in pairs)


def stalls(ks, top=3):
    total = {}
    w = sum(k.get("duration", 0) or 0 for k in ks if k["stall"]) or 1
    for k in ks:
        for r, v in k["stall"].items():
            total[r] = total.get(r, 0) + v * (k.get("duration", 0) or 0) / w
    return sorted(total.items(), key=lambda x: -x[1])[:top]


def f(v, fmt="{:.1f}", none="-"):
    return none if v is None else fmt.format(v)


def stall_text(s):
    return ", ".join(f"{r} {v:.2f}" for r, v in s) if s else "stall reasons not collected"


def device_ms():
    if not tp_path:
        return {}
    text = read(tp_path)
    if not text:
        return {}
    out = {}
    for b in json.loads(text).get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median" and b["name"].startswith("device_ms/"):
            out[b["name"].split("/")[1]] = b.get("device_ms")
    return out


TARGETS = [
    ("paper_f16", "paper protocol 2048^2, best f16 (shared_pipeline depth 5): target <= 0.025 ns/px", None),
    ("paper_f32", "paper protocol 2048^2, best f32 (shared_pipeline depth 5): target <= 0.040 ns/px", None),
    ("paper_f32_staged", "paper protocol 2048^2, the same f32 strip with its ring filled by cp.async "
     "(staging=1): target <= 0.040 ns/px", None),
    ("paper_global_f32", "paper protocol 2048^2, global f32 (the memory-roof reference)", None),
    ("frame_default", "default frame (3 scales x 1 warping x 10 iterations): target <= 0.15 ms device-pointer API", "default"),
    ("frame_opencv", "frame at OpenCV's accuracy (5 scales x 0.8, 5 warpings x 20 iterations): target <= 0.6 ms host API", "opencv_accuracy"),
    ("frame_tuned", "the tuned header's frame at OpenCV's accuracy (global_pipeline f16, 4 scales x 0.65, "
     "2 warpings x 15 iterations): target <= 0.25 ms device-pointer API, <= 0.32 ms page-locked host API", "tuned"),
]

def summarise(target, what, proto, ks, src):
    print(f"### {target}: {what}\n")
    print(f"Source: `{src}`, {len(ks)} launches profiled.\n")
    print("| kernel | launches | duration us median (total) | grid x block | waves/SM | DRAM GB/s (% of peak) | "
          "occupancy achieved / theoretical % | issue slots busy % | cycles per issued instr. | top stalls (warps per issue) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for k in ks:
        groups.setdefault(k["name"], []).append(k)
    for name, g in sorted(groups.items(), key=lambda x: -sum(k.get("duration", 0) or 0 for k in x[1])):
        durs = [k["duration"] for k in g if k.get("duration") is not None]
        grid = statistics.median([k["grid"] for k in g if k.get("grid")]) if any(k.get("grid") for k in g) else None
        block = statistics.median([k["block"] for k in g if k.get("block")]) if any(k.get("block") for k in g) else None
        waves = statistics.median([k["waves"] for k in g if k.get("waves") is not None]) if any(k.get("waves") is not None for k in g) else None
        print(f"| {name} | {len(g)} | {f(statistics.median(durs) if durs else None, '{:.2f}')} ({f(sum(durs), '{:.1f}')}) | "
              f"{f(grid, '{:.0f}')} x {f(block, '{:.0f}')} | {f(waves, '{:.2f}')} | {f(weighted(g, 'dram_bw'), '{:.0f}')} "
              f"({f(weighted(g, 'dram_pct'))}) | {f(weighted(g, 'occ_ach'))} / {f(weighted(g, 'occ_theo'))} | "
              f"{f(weighted(g, 'issue_pct'))} | {f(weighted(g, 'cpi'), '{:.2f}')} | {stall_text(stalls(g))} |")
    durs = [k.get("duration") or 0 for k in ks]
    total = sum(durs)
    short = [d for d in durs if d < SHORT_US]
    bw, pct = weighted(ks, "dram_bw"), weighted(ks, "dram_pct")
    peak = bw / (pct / 100) if bw and pct else None
    occ, theo, issue = weighted(ks, "occ_ach"), weighted(ks, "occ_theo"), weighted(ks, "issue_pct")
    top = stalls(ks)
    print()
    print(f"Totals: {len(ks)} launches, {total:.1f} us of kernel time (serialised under ncu); "
          f"{len(short)} launches under {SHORT_US:.0f} us ({sum(short):.1f} us); duration-weighted: DRAM "
          f"{f(bw, '{:.0f}')} GB/s = {f(pct)}% of a {f(peak, '{:.0f}')} GB/s peak, achieved occupancy {f(occ)}% "
          f"(theoretical {f(theo)}%), issue slots busy {f(issue)}%, top stalls {stall_text(top)}.")
    if target.startswith("paper_") and bw and total:
        # 2048^2; the pipelines' 2 launches of depth 5 are the 10 iterations, global's u and p
        # launches are one iteration of 10.
        px, per10 = 2048.0 * 2048.0, (10 if "global" in target else 1)
        moved = bw * total * 1e3 / px  # GB/s x us -> bytes, per pixel
        print(f" At 2048^2: {total * per10 * 1e3 / px:.4f} ns/px of kernel time per 10 iterations under ncu "
              f"(caches flushed before each launch), {moved * per10:.1f} DRAM bytes per pixel per 10 iterations "
              "(the model's floor moves 60 in f32 and 30 in f16 once for all 10).")
    d = dev.get(proto) if proto else None
    if d:
        print(f" Device time of the same frame in bench_frame_throughput (graph, median): {d:.3f} ms; kernels "
              f"{total / 1000:.3f} ms; the rest, {d - total / 1000:.3f} ms, is launch gaps, copies and dependencies.")
    print()
    # The bound, by a fixed rule (stated in the output).
    if pct is not None and pct >= 60:
        bound = f"**bandwidth**: DRAM at {pct:.0f}% of peak"
    elif issue is not None and issue >= 60:
        bound = f"**instruction issue**: {issue:.0f}% of the issue slots busy while DRAM is at {f(pct)}%"
    elif len(ks) >= 20 and len(short) >= len(ks) / 2:
        bound = (f"**launch overhead and latency**: {len(short)} of {len(ks)} launches are shorter than "
                 f"{SHORT_US:.0f} us (median {statistics.median(durs):.2f} us), each too small to fill the GPU "
                 f"(median {f(statistics.median([k['waves'] for k in ks if k.get('waves') is not None]) if any(k.get('waves') is not None for k in ks) else None, '{:.2f}')} waves per SM)")
    else:
        bound = (f"**latency**: neither DRAM ({f(pct)}% of peak) nor the issue slots ({f(issue)}%) are near "
                 f"their roof; achieved occupancy {f(occ)}% of {f(theo)}% theoretical leaves too few warps "
                 f"to hide the stalls ({stall_text(top)})")
    print(f"**Bound ({target}).** {bound}. Rule: bandwidth if DRAM >= 60% of peak; else instruction issue if "
          f"issue slots >= 60%; else launch overhead if at least half of >= 20 launches are under {SHORT_US:.0f} us; "
          "else latency.\n")


names = sys.argv[3:] if len(sys.argv) > 3 else None
dev = device_ms()
found = False
for target, what, proto in TARGETS:
    if names and target not in names:
        continue
    ks, src = load_target(os.path.join(folder, target))
    if ks:
        found = True
        summarise(target, what, proto, ks, src)
if not found:
    # Any other ncu output in the folder (e.g. results/ncu/h200/2026-11-21/*.txt of earlier sessions).
    for fn in sorted(os.listdir(folder) if os.path.isdir(folder) else []):
        m = re.match(r"(.+?)(\.raw\.csv|\.details\.txt|\.txt)(\.xz)?$", fn)
        if not m:
            continue
        ks, src = load_target(os.path.join(folder, m.group(1)))
        if ks:
            found = True
            summarise(m.group(1), "ncu output " + fn, None, ks, src)
if not found:
    print(f"No ncu raw output (<target>.raw.csv / .details.txt / .txt) in {folder}.")
