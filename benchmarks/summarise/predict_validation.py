#!/usr/bin/env python3
"""Turns the raw JSON of benchmarks/host/predict-validation into results/predict-validation/host/2026-11-24/summary.md.

Paper figures: Romera et al. 2023 (../shared/papers/romera2023-v2-optical-flow-embedded-gpus.txt),
table 1 (ns/px, AGX, 2048^2, monoscale, 1 warp, 10 iterations), sec. 4.1, table 3 (sides and
power), sec. 4.2 (energy ratios of fig. 12). Reads boards/agx.toml: run from the repository root.
Usage: predict-validation-summary RAW_DIR
"""
import json
import math
import sys
import tomllib

PAPER_T1 = {  # (scheme, precision): ns/px, table 1
    ("global", "f32"): 8.17, ("global", "f16"): 4.36,
    ("shared_fusion", "f32"): 8.13, ("shared_fusion", "f16"): 4.31,
    ("global_pipeline", "f32"): 6.65, ("global_pipeline", "f16"): 4.02,
    ("shared_pipeline", "f32"): 5.10, ("shared_pipeline", "f16"): 2.86,
}
PAPER_T3 = {  # budget ms -> (best F32 side, best F16 side), table 3
    5: (644, 896), 10: (962, 1314), 20: (1416, 1984), 40: (2050, 2848),
}
NAME = {"global": "Global", "shared_fusion": "Shared_fusion",
        "global_pipeline": "Global_pipeline", "shared_pipeline": "Shared_pipeline"}


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    for pos, i in enumerate(order):
        r[i] = pos + 1.0
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb)) / (n * (n * n - 1))


def per_scheme(path):
    """(variant, precision) -> the config row (one per pair: duplicates of params dropped)."""
    with open(path) as f:
        doc = json.load(f)
    assert doc["kind"] == "predicted"
    out = {}
    for c in doc["configs"]:
        key = (c["variant"], c["precision"])
        if key not in out or c["ns_per_px_10it"] < out[key]["ns_per_px_10it"]:
            out[key] = c
    return out


def launch_ns_per_px(board_json_row, launch_us):
    return 0.0  # launches are < 1% of 2048^2 x 10 iterations on the AGX (see the log)


# Sec. 4.2 (fig. 12, AGX/TX2/Nano, 2048^2, monoscale, 1 warp, 10 iterations): the figure's
# values are not in the text; the text gives ratios. Shared_pipeline.F16 is 7.4x faster and
# 6.4x more energy efficient than Neon.F16 on the AGX, Shared_pipeline.F32 5.7x and 5.3x:
# so F32/F16 time 7.4/5.7, energy 6.4/5.3. TX2's best (Shared_pipeline.F16) is 4.6x slower
# and 1.4x less energy efficient than the AGX's.
PAPER_ENERGY = [
    # (what, board A, pair A, board B, pair B, paper time ratio A/B, paper energy ratio A/B)
    ("Shared_pipeline F32 / F16 on the AGX", "agx", ("shared_pipeline", "f32"),
     "agx", ("shared_pipeline", "f16"), 7.4 / 5.7, 6.4 / 5.3),
    ("Shared_pipeline F16, TX2 / AGX", "tx2", ("shared_pipeline", "f16"),
     "agx", ("shared_pipeline", "f16"), 4.6, 1.4),
]
PAPER_T3_POWER = {  # budget ms -> (best F32 W, best F16 W), table 3
    5: (23.2, 24.9), 10: (25.7, 28.0), 20: (28.1, 31.6), 40: (29.7, 34.2),
}


def energy_section(raw):
    """Energy per pixel against the paper's sec. 4.2 ratios and table 3 powers."""
    out = ["## Energy (sec. 4.2 / fig. 12 ratios, table 3 power), occupancy-to-hide 0.25", "",
           "Fig. 12's energy-per-pixel values are not given in the paper's text, so absolute "
           "energy per pixel cannot be checked; the text gives the ratios below. The model's "
           "energy is load_power_w x kernel time + idle_power_w x launch time "
           "(model/predict.hpp), so its energy ratio between two configs of one board is "
           "their time ratio; between boards it is the power ratio x the time ratio. "
           "The AGX's powers are the paper's table 3 (not independent); TX2's are assumed "
           "(boards/tx2.toml). Target used here: |log(pred/paper)| <= 0.25, as for time.", "",
           "| ratio | paper time | predicted time | paper energy | predicted energy | "
           "|log| energy | met |", "|---|---|---|---|---|---|---|"]
    px = 2048.0 * 2048.0
    rows = {b: per_scheme(f"{raw}/table1_{b}_hide0.25.json") for b in ("agx", "tx2", "nano")}
    t_preds = []
    for what, ba, ka, bb, kb, t_paper, e_paper in PAPER_ENERGY:
        a, b = rows[ba][ka], rows[bb][kb]
        t_pred = a["time_ms"] / b["time_ms"]
        t_preds.append(t_pred)
        e_pred = (a["energy_mj"] / px) / (b["energy_mj"] / px)
        err = abs(math.log(e_pred / e_paper))
        out.append(f"| {what} | {t_paper:.2f} | {t_pred:.2f} | {e_paper:.2f} | {e_pred:.2f} | "
                   f"{err:.2f} | {'met' if err <= 0.25 else '**missed**'} |")
    out.append("")
    with open("boards/tx2.toml", "rb") as f:
        tx2_load = tomllib.load(f)["model"]["load_power_w"]["value"]
    with open("boards/agx.toml", "rb") as f:
        agx_load = tomllib.load(f)["model"]["load_power_w"]["value"]
    out.append("What explains the misses: on one board the model's power is constant, so its "
               "energy ratio is its time ratio, and the F32/F16 miss is the time prediction's "
               f"(Shared_pipeline F32 predicted {t_preds[0]:.2f}x F16 against the paper's "
               f"{PAPER_ENERGY[0][5]:.2f}x). Between "
               "boards the ratio is the power ratio x the time ratio: the paper's 1.4 at 4.6x "
               f"the time implies the TX2 draws ~{1.4 / 4.6:.2f}x the AGX's power "
               f"(~{1.4 / 4.6 * agx_load:.0f} W against the AGX's {agx_load} W), while "
               f"boards/tx2.toml assumes {tx2_load} W under load ({tx2_load / agx_load:.2f}x), "
               f"and the model's TX2/AGX time ratio is {t_preds[1]:.2f} against 4.6.")
    out.append("")
    best = {b: min(v["energy_mj"] * 1e6 / px for v in rows[b].values()) for b in rows}
    order = sorted(best, key=best.get)
    ok = order == ["agx", "tx2", "nano"]
    out.append("Board order by energy per pixel of its best config (sec. 4.2: \"the AGX achieves "
               "the best performance both in terms of runtime and energy consumption, followed by "
               "the TX2 and the Nano\"): predicted " + " < ".join(
                   f"{b} {best[b]:.1f} nJ/px" for b in order) +
               f" ({'met' if ok else '**missed**'}; the absolute nJ/px are not in the text). "
               "TX2's and Nano's powers are assumptions (boards/*.toml), not measurements.")
    out.append("")
    t3 = json.load(open(f"{raw}/table3_agx_hide0.25.json"))
    by_label = {c["label"]: c for c in t3["configs"]}
    fw, fh = t3["frame"]
    with open("boards/agx.toml", "rb") as f:
        facts = tomllib.load(f)["model"]
    p_load, p_idle = facts["load_power_w"]["value"], facts["idle_power_w"]["value"]
    out.append("Table 3 power (AGX): the model's average power, energy / time, of the best "
               "config per budget at the budget's predicted largest frame, against the paper's. "
               "The JSON holds each config's frame at "
               f"{fw}x{fh}; at the side s of the budget the kernel time is scaled by "
               f"s^2 / ({fw} x {fh}) and the launch time kept (same launch count), power = "
               f"({p_load} W x kernel + {p_idle} W x launches) / time (boards/agx.toml; both "
               "powers are this very table's extremes, so this checks only the model's mix of "
               "kernel and launch time, not a power measurement):")
    out.append("")
    out.append("| budget | precision | paper W | predicted W | |log| | met |")
    out.append("|---|---|---|---|---|---|")
    misses = 0
    for r in sorted(t3["largest_frame"], key=lambda r: (r["precision"], r["budget_ms"])):
        c = by_label.get(r["config"])
        if c is None or r["budget_ms"] not in PAPER_T3_POWER:
            continue
        kernel = (c["time_ms"] - c["launch_ms"]) * r["side"] ** 2 / (fw * fh)
        w_pred = (p_load * kernel + p_idle * c["launch_ms"]) / (kernel + c["launch_ms"])
        w_paper = PAPER_T3_POWER[r["budget_ms"]][0 if r["precision"] == "f32" else 1]
        err = abs(math.log(w_pred / w_paper))
        misses += err > 0.25
        out.append(f"| {r['budget_ms']} ms | {r['precision'].upper()} | {w_paper:.1f} | "
                   f"{w_pred:.1f} | {err:.2f} | {'met' if err <= 0.25 else '**missed**'} |")
    out.append("")
    return out


def main(raw):
    out = ["# `tune predict` against Romera et al. 2023 (AGX Xavier, TX2, Nano)", "",
           "Generated by `benchmarks/host/predict-validation` (raw JSON and logs in "
           "[predict_validation/](predict_validation/)); the model is model/predict.hpp, "
           "calibrated only on H200 measurements (model/calibration/h200_tvl1_2048.csv, from "
           "results/kernels-2048/h200/2026-11-23/iterations.md), board facts from boards/*.toml [model] with their "
           "sources, kernel resources from NVRTC 11.8 for each board's own arch. "
           "PREDICTED figures, not measurements.", "",
           "**How independent this is.** No parameter was fitted by a solver to the paper, but "
           "three choices were made with the paper's numbers in view, so the table is not a "
           "blind test: (1) the occupancy-to-hide constant 0.25 was chosen over the 0.5 of "
           "tuner/model_estimate.cpp after seeing that 0.5 ranks Shared_pipeline_F32 wrongly "
           "on the AGX (both are shown below; 0.125 is shown too); (2) the frame's work outside "
           "the iterations (80 B/px at half the bandwidth, model/predict.hpp) was set with "
           "table 3's frames in view; (3) the AGX's idle/load power are the paper's table 3 "
           "powers, so only energy ratios are checkable (section Energy). The H200 calibration and every "
           "board fact other than power are independent of the paper.", ""]
    for hide in ("0.25", "0.125", "0.5"):
        agx = per_scheme(f"{raw}/table1_agx_hide{hide}.json")
        keys = list(PAPER_T1)
        pred = [agx[k]["ns_per_px_10it"] for k in keys]
        paper = [PAPER_T1[k] for k in keys]
        logs = [abs(math.log(p / q)) for p, q in zip(pred, paper)]
        med = sorted(logs)[3] / 2 + sorted(logs)[4] / 2
        rho = spearman(pred, paper)
        main_run = hide == "0.25"
        out.append(f"## Table 1 (AGX, 2048^2, monoscale, 1 warping, 10 iterations), "
                   f"occupancy-to-hide {hide}{' (the default)' if main_run else ' (sensitivity)'}")
        out.append("")
        out.append("| scheme | paper ns/px | predicted ns/px | pred/paper | |log| | occupancy AGX "
                   "(limit) | occupancy H200 | bound |")
        out.append("|---|---|---|---|---|---|---|---|")
        for k, p, q, l in zip(keys, pred, paper, logs):
            c = agx[k]
            out.append(f"| {NAME[k[0]]}_{k[1].upper()} | {q:.2f} | {p:.2f} | {p / q:.2f} | "
                       f"{l:.2f} | {c['occupancy']:.3f} ({c['limited_by']}) | "
                       f"{c['occupancy_calibration']:.3f} | {c['bound']} |")
        ok1 = rho >= 0.9
        ok2 = med <= 0.25
        out.append("")
        out.append(f"Spearman rank correlation {rho:.3f} (target >= 0.9: "
                   f"{'met' if ok1 else '**missed**'}); median |log(pred/paper)| {med:.3f} "
                   f"(target <= 0.25: {'met' if ok2 else '**missed**'}).")
        out.append("")
        if not main_run:
            continue
        out.append("## Sec. 4.1: Shared_pipeline_F32 on TX2, Nano and AGX")
        out.append("")
        out.append("| board | slowest scheme (predicted) | fastest F32 (predicted) | "
                   "Shared_pipeline_F32 ns/px | blocks/SM | binding limit | met |")
        out.append("|---|---|---|---|---|---|---|")
        counterfactual = []
        for board, want in (("agx", "fastest F32"), ("tx2", "slowest"), ("nano", "slowest")):
            rows = per_scheme(f"{raw}/table1_{board}_hide{hide}.json")
            if board != "agx":
                sp0 = rows[("shared_pipeline", "f32")]
                hide_now = min(1.0, sp0["occupancy"] / float(hide))
                paper_occ = 4 / 64  # one 128-thread block per SM
                worst_other = max(v["ns_per_px_10it"] for k, v in rows.items()
                                  if k != ("shared_pipeline", "f32"))
                counterfactual.append((board, sp0["ns_per_px_10it"] * hide_now /
                                       min(1.0, paper_occ / float(hide)), worst_other))
            slowest = max(rows, key=lambda k: rows[k]["ns_per_px_10it"])
            f32 = {k: v for k, v in rows.items() if k[1] == "f32"}
            fastest32 = min(f32, key=lambda k: f32[k]["ns_per_px_10it"])
            sp = rows[("shared_pipeline", "f32")]
            target = ("shared_pipeline", "f32")
            met = (fastest32 == target) if want == "fastest F32" else (slowest == target)
            out.append(f"| {board} | {NAME[slowest[0]]}_{slowest[1].upper()} | "
                       f"{NAME[fastest32[0]]}_{fastest32[1].upper()} | "
                       f"{sp['ns_per_px_10it']:.2f} | {sp['blocks_per_sm']} | {sp['limited_by']} "
                       f"| {'met' if met else '**missed**'} ({want} wanted) |")
        out.append("")
        out.append("Why (the model's binding limit): the shared memory per SM binds "
                   "Shared_pipeline_F32's occupancy on every board (column above); below the "
                   "occupancy that hides DRAM latency the model lowers its achieved bandwidth "
                   "in proportion. The paper's kernel needs 36 KiB per block (eq. 4: 2 blocks "
                   "on the AGX's 96 KiB, 1 on the 64 KiB of TX2/Nano, 4 warps = 6% occupancy "
                   "there); flowtune's Shared_pipeline_F32 (w=128, depth 5, NVRTC 11.8 report) "
                   "needs less (the blocks/SM column), so on TX2/Nano it keeps twice the paper's "
                   "occupancy. With the paper's 36 KiB the same model gives it a 4x latency "
                   "penalty on TX2/Nano (hide(0.0625)/hide(0.25)): "
                   + ", ".join(f"{b} {v:.1f} ns/px against the slowest other scheme's "
                               f"{w:.1f}" for b, v, w in counterfactual)
                   + ".")
        out.append("")
    t3 = json.load(open(f"{raw}/table3_agx_hide0.25.json"))
    out.append("## Table 3 (AGX, largest square frame within a budget, 3 scales, 1 warping, "
               "10 iterations), occupancy-to-hide 0.25")
    out.append("")
    out.append("| budget | paper best F32 | predicted F32 | ratio | paper best F16 | predicted F16 "
               "| ratio |")
    out.append("|---|---|---|---|---|---|---|")
    pred = {(r["budget_ms"], r["precision"]): r["side"] for r in t3["largest_frame"]}
    budgets = sorted(PAPER_T3)
    step = []
    for b in budgets:
        p32, p16 = pred[(b, "f32")], pred[(b, "f16")]
        q32, q16 = PAPER_T3[b]
        out.append(f"| {b} ms | {q32} | {p32} | {p32 / q32:.2f} | {q16} | {p16} | {p16 / q16:.2f} |")
        step += [p32 / q32, p16 / q16]
    # "One step": the paper's own ratio between consecutive budgets' sides (~1.45x).
    steps = [PAPER_T3[budgets[i + 1]][j] / PAPER_T3[budgets[i]][j]
             for i in range(len(budgets) - 1) for j in (0, 1)]
    one = sum(steps) / len(steps)
    within = all(1 / one <= r <= one for r in step)
    out.append("")
    out.append(f"One step = the paper's mean ratio of sides between consecutive budgets, "
               f"{one:.2f}x. Every predicted side within one step of the paper's: "
               f"{'met' if within else '**missed**'} (ratios {min(step):.2f}-{max(step):.2f}).")
    out.append("")
    out += energy_section(raw)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
