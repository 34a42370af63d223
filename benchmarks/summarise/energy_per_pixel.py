#!/usr/bin/env python3
"""Paper fig. 12 (ns/px against nJ/px of the paper protocol) from the raw outputs of
benchmarks/run energy-per-pixel (one folder, its $OUT, or a committed copy with .xz files):
  energy.json      bench_tvl1_energy: per CUDA scheme x precision the fastest config's time per
                   10-iteration run (run_ms, CUDA events, median) and its energy windows (runs
                   back to back, elapsed_ms, energy_mj from the board's sensor), an idle window;
  peer_energy.txt  OpenCV's CUDA TV-L1 in the same run: the line "energy-json {...}" of
                   peer_paper_energy --paper-energy (the same fields);
  rapl.txt         the host's readable RAPL zones ("rapl zones: none" without).
Per row: ns/px = run_ms * 1e6 / px; nJ/px = the median over the windows of
energy_mj * 1e6 / (runs * px); W = energy_mj / elapsed_ms (median); the ratios to OpenCV are
OpenCV's value over the row's (x > 1: the row needs less). Prints Markdown (the target: the
best f16 scheme's nJ/px <= 1/5 of OpenCV's at a better ns/px) and writes the scatter plot
FOLDER/fig12.svg (or --svg PATH).
Python standard library only.
Usage: python3 -m benchmarks.summarise energy-per-pixel FOLDER [--svg PATH]"""
import json
import os
import statistics
import sys
from benchmarks.summarise.google_benchmark import read_text

TARGET_ENERGY_RATIO = 5.0  # OpenCV's nJ/px over the best f16 scheme's (paper: 4.9x on the AGX)
PRECISION_COLOURS = {"f32": "#1f77b4", "f16": "#d62728", "mixed": "#2ca02c"}
PEER_COLOUR = "#000000"


class SummaryError(Exception):
    pass


def window_figures(entry, px):
    """(ns/px, nJ/px, W, window ns/px) of one entry with run_ms and windows; the energy
    figures are None when no window has an energy reading."""
    ns = entry["run_ms"] * 1e6 / px
    ws = [w for w in entry.get("windows", []) if w.get("energy_mj") is not None and w["runs"] > 0]
    if not ws:
        return ns, None, None, None
    nj = statistics.median(w["energy_mj"] * 1e6 / (w["runs"] * px) for w in ws)
    watts = statistics.median(w["energy_mj"] / w["elapsed_ms"] for w in ws)
    win_ns = statistics.median(w["elapsed_ms"] * 1e6 / (w["runs"] * px) for w in ws)
    return ns, nj, watts, win_ns


def load(folder):
    """(flowtune JSON, peer entry or None, RAPL zones list) of the folder."""
    path = os.path.join(folder, "energy.json")
    text = read_text(path)
    if text is None:
        raise SummaryError(f"{path}: missing (the output of bench_tvl1_energy --out)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SummaryError(f"{path}: not valid JSON: {e}")
    if not isinstance(data.get("rows"), list):
        raise SummaryError(f"{path}: no 'rows' list")
    peer = None
    peer_text = read_text(os.path.join(folder, "peer_energy.txt"))
    if peer_text:
        for line in peer_text.splitlines():
            if line.startswith("energy-json "):
                try:
                    peer = json.loads(line[len("energy-json "):])
                except json.JSONDecodeError as e:
                    raise SummaryError(f"{os.path.join(folder, 'peer_energy.txt')}: the "
                                       f"energy-json line is not valid JSON: {e}")
    rapl_text = read_text(os.path.join(folder, "rapl.txt")) or ""
    zones = [z for z in rapl_text.split() if z.startswith("/sys/")]
    return data, peer, zones


def fmt(v, digits=4):
    return "n/a" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def summarise(folder):
    """(Markdown text, points for the SVG)."""
    data, peer, zones = load(folder)
    out = [f"## Fig. 12: ns/px and nJ/px of the paper protocol, {data.get('device', '?')}", ""]
    clocks = sorted({w["sm_clock_mhz"] for r in data["rows"] for w in r.get("windows", [])
                     if w.get("sm_clock_mhz") is not None})
    out.append(f"Energy sensor: {data.get('sensor') or 'none'}; windows of >= "
               f"{data.get('window_ms', '?')} ms of the {data.get('iterations_per_run', 10)}-"
               f"iteration run repeated back to back; nJ/px the median over the windows.")
    clock_text = (f"SM clock during the windows {clocks[0]:.0f}-{clocks[-1]:.0f} MHz" if clocks
                  else "SM clock not read")
    out.append(f"Clocks: as found, never set (no clock sweep on this machine); {clock_text}.")
    idle = data.get("idle")
    if idle and idle.get("energy_mj") is not None and idle.get("elapsed_ms"):
        out.append(f"Idle: {idle['energy_mj'] / idle['elapsed_ms']:.1f} W over "
                   f"{idle['elapsed_ms']:.0f} ms (the board's floor; nJ/px counts the whole board).")
    out.append("")
    peer_fig = None
    if peer:
        px = peer["size"] * peer.get("height", peer["size"])
        peer_fig = window_figures(peer, px)
    out.append("| scheme | precision | config | size | ns/px | nJ/px | W | window ns/px | "
               "ns/px: OpenCV / this | nJ/px: OpenCV / this |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    points = []
    rows = []
    for r in data["rows"]:
        px = r["size"] * r["size"]
        ns, nj, w, win = window_figures(r, px)
        rows.append((r, ns, nj))
        points.append((f"{r['variant']} {r['precision']}", r["precision"], ns, nj))
        out.append(f"| {r['variant']} | {r['precision']} | {r['config']} | {r['size']}^2 | "
                   f"{fmt(ns)} | {fmt(nj, 3)} | {fmt(w, 1)} | {fmt(win)} | "
                   f"{fmt(ratio(peer_fig[0], ns) if peer_fig else None, 2)} | "
                   f"{fmt(ratio(peer_fig[1], nj) if peer_fig else None, 2)} |")
    if peer_fig:
        ns, nj, w, win = peer_fig
        points.append(("OpenCV CUDA TV-L1", None, ns, nj))
        out.append(f"| OpenCV CUDA TV-L1 | f32 | {peer.get('config', 'peer')} | {peer['size']}^2 | "
                   f"{fmt(ns)} | {fmt(nj, 3)} | {fmt(w, 1)} | {fmt(win)} | 1.00 | 1.00 |")
    out.append("| host CPU variants | - | - | - | - | "
               + ("no RAPL" if not zones else "not measured") + " | - | - | - | - |")
    out.append("")
    if zones:
        out.append(f"RAPL zones readable on the host: {', '.join(zones)} (the host variants' "
                   "energy is not part of this experiment).")
    else:
        out.append("Host CPU: no RAPL (no readable /sys/class/powercap/*/energy_uj), so no "
                   "energy of the host variants.")
    f16 = [(r, ns, nj) for r, ns, nj in rows if r["precision"] == "f16" and nj is not None]
    if not peer_fig or peer_fig[1] is None:
        out.append("Target (best f16 nJ/px <= OpenCV / 5 at a better ns/px): no OpenCV energy "
                   "in this run.")
    elif not f16:
        out.append("Target (best f16 nJ/px <= OpenCV / 5 at a better ns/px): no f16 energy.")
    else:
        best, ns, nj = min(f16, key=lambda t: t[2])
        er, tr = peer_fig[1] / nj, peer_fig[0] / ns
        met = er >= TARGET_ENERGY_RATIO and tr > 1
        out.append(f"Target (best f16 nJ/px <= OpenCV / {TARGET_ENERGY_RATIO:g} at a better "
                   f"ns/px): {best['variant']} f16 {nj:.3f} nJ/px vs OpenCV {peer_fig[1]:.3f} "
                   f"({er:.2f}x less), {ns:.4f} vs {peer_fig[0]:.4f} ns/px ({tr:.2f}x faster): "
                   f"{'met' if met else 'missed'}.")
    return "\n".join(out) + "\n", points


def svg(points, title):
    """A scatter plot of (ns/px, nJ/px), colour by precision, OpenCV in black; points without
    energy are left out."""
    pts = [p for p in points if p[3] is not None]
    W, H, L, R, T, B = 640, 420, 70, 170, 40, 50
    if not pts:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">'
                f'<text x="20" y="40">{title}: no energy readings</text></svg>\n')
    xmax = max(p[2] for p in pts) * 1.1
    ymax = max(p[3] for p in pts) * 1.1
    sx = lambda x: L + (W - L - R) * x / xmax
    sy = lambda y: H - B - (H - T - B) * y / ymax
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="sans-serif" font-size="11">',
         f'<text x="{L}" y="20" font-size="13">{title}</text>',
         f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="#444"/>',
         f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="#444"/>',
         f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">time, ns/px</text>',
         f'<text x="16" y="{(T + H - B) / 2}" transform="rotate(-90 16 {(T + H - B) / 2})" '
         f'text-anchor="middle">energy, nJ/px</text>']
    for i in range(5):
        x, y = xmax * i / 4, ymax * i / 4
        s.append(f'<text x="{sx(x):.1f}" y="{H - B + 14}" text-anchor="middle">{x:.3g}</text>')
        s.append(f'<text x="{L - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:.3g}</text>')
    for label, prec, x, y in pts:
        colour = PRECISION_COLOURS.get(prec, PEER_COLOUR)
        if prec is None:
            s.append(f'<rect x="{sx(x) - 5:.1f}" y="{sy(y) - 5:.1f}" width="10" height="10" '
                     f'fill="{colour}"><title>{label}: {x:.4f} ns/px, {y:.3f} nJ/px</title></rect>')
        else:
            s.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4.5" fill="{colour}">'
                     f'<title>{label}: {x:.4f} ns/px, {y:.3f} nJ/px</title></circle>')
        s.append(f'<text x="{sx(x) + 7:.1f}" y="{sy(y) + 4:.1f}" font-size="9">{label}</text>')
    legend = list(PRECISION_COLOURS.items()) + [("OpenCV CUDA TV-L1", PEER_COLOUR)]
    for i, (name, colour) in enumerate(legend):
        y = T + 10 + 18 * i
        s.append(f'<rect x="{W - R + 20}" y="{y - 8}" width="10" height="10" fill="{colour}"/>')
        s.append(f'<text x="{W - R + 36}" y="{y + 1}">{name}</text>')
    s.append(f'<text x="{W - R + 20}" y="{T + 10 + 18 * len(legend) + 6}" font-size="9">'
             'clocks as found</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    folder = argv[0]
    svg_path = os.path.join(folder, "fig12.svg")
    if "--svg" in argv[1:]:
        i = argv.index("--svg")
        if i + 1 >= len(argv):
            print("energy-per-pixel: --svg needs a path", file=sys.stderr)
            return 2
        svg_path = argv[i + 1]
    try:
        text, points = summarise(folder)
    except SummaryError as e:
        print(f"energy-per-pixel: {e}", file=sys.stderr)
        return 1
    print(text, end="")
    with open(svg_path, "w") as f:
        f.write(svg(points, "Paper fig. 12: time and energy per pixel"))
    print(f"\nScatter plot: {svg_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
