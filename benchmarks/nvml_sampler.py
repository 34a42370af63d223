#!/usr/bin/env python3
"""Samples GPU 0's NVML energy counter and power every PERIOD s until killed.

Usage: benchmarks/nvml_sampler.py [PERIOD_S]  ->  stdout lines "epoch_s energy_mJ power_W" ("NA" where NVML
has no reading). Reads libnvidia-ml.so.1 through ctypes (nvmlDeviceGetTotalEnergyConsumption:
millijoules since the driver loaded, Volta and later; nvmlDeviceGetPowerUsage: milliwatts), so
it needs no nvidia-smi field support. The first line is "# <why>" when NVML cannot be opened.
"""
import ctypes
import sys
import time


def main() -> int:
    period = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError as e:
        print(f"# libnvidia-ml.so.1: {e}", flush=True)
        return 1
    if nvml.nvmlInit_v2() != 0:
        print("# nvmlInit_v2 failed", flush=True)
        return 1
    handle = ctypes.c_void_p()
    if nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle)) != 0:
        print("# nvmlDeviceGetHandleByIndex_v2(0) failed", flush=True)
        return 1
    energy = ctypes.c_ulonglong()
    power = ctypes.c_uint()
    while True:
        t = time.time()
        e = energy.value if nvml.nvmlDeviceGetTotalEnergyConsumption(
            handle, ctypes.byref(energy)) == 0 else None
        p = power.value / 1000.0 if nvml.nvmlDeviceGetPowerUsage(
            handle, ctypes.byref(power)) == 0 else None
        print(f"{t:.3f} {e if e is not None else 'NA'} {p if p is not None else 'NA'}",
              flush=True)
        time.sleep(period)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(0)
