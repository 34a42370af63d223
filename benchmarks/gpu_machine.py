"""The set-up every benchmark run shares on the GPU machine (or the host).

The staged build (scripts/device-build) holds the binaries in <build>/tests and the shared
libraries Debian ships only as .so in <build>/lib; the boards, the bundled data and the
Middlebury copy staged beside the build are found through flowtune's environment variables.
"""
import os
import shutil
import subprocess


def environment(root, build, tmp):
    """The environment of a benchmark run: os.environ plus LD_LIBRARY_PATH (the build's lib/
    and CUDA's lib64 first), FLOWTUNE_BOARDS_DIR, FLOWTUNE_DATA_DIR, FLOWTUNE_REPO_DATA,
    FLOWTUNE_SHARED_DATA and a kernel-build cache in the run's temporary folder."""
    env = dict(os.environ)
    libs = [os.path.join(build, "lib"), "/usr/local/cuda/lib64"]
    if env.get("LD_LIBRARY_PATH"):
        libs.append(env["LD_LIBRARY_PATH"])
    env["LD_LIBRARY_PATH"] = ":".join(libs)
    env["FLOWTUNE_BOARDS_DIR"] = os.path.join(root, "boards")
    env["FLOWTUNE_DATA_DIR"] = os.path.join(root, "data", "middlebury")
    env["FLOWTUNE_REPO_DATA"] = os.path.join(root, "data")
    env["FLOWTUNE_SHARED_DATA"] = os.path.join(build, "shared-data")
    env["FLOWTUNE_CACHE_DIR"] = os.path.join(tmp, "kernel-cache")
    return env


def record_machine(out):
    """Writes out/gpu.txt: the GPU's name, driver and SM clocks (nvidia-smi, clocks as found,
    never changed), or 'no GPU' where nvidia-smi is missing; returns its text."""
    if shutil.which("nvidia-smi"):
        p = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm",
                            "--format=csv"], capture_output=True, text=True)
        text = p.stdout or p.stderr
    else:
        text = "no GPU (nvidia-smi not found)\n"
    with open(os.path.join(out, "gpu.txt"), "w") as f:
        f.write(text)
    return text
