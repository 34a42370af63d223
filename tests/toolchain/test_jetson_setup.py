#!/usr/bin/env python3
"""scripts/jetson-setup --dry-run for Ubuntu 20.04 (focal, JetPack 5) and 22.04 (jammy, JetPack 6).

The script runs with a stub nvcc (a temporary --cuda-home whose bin/nvcc prints a CUDA 11.4 or
12.2 version line) and stub apt-get, sudo, git, curl, cmake, python3, tar and dpkg-query first
on PATH that record any call: a dry run must call none of them. The checks: the apt packages of
each release are exactly the names the script's header verified for it (and none that the
release lacks or ships too old: those come from PyPI or from source), the source builds and
their pinned tags, the CMake configure and build of `tune` for the board's arch (given, or read
from a device-tree model file), the `tune --board auto` run, and the errors for an unknown
release, a missing nvcc and an unknown board. No network, no root; well under a second.
"""
import os
import shlex
import subprocess
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "jetson-setup")

# The Ubuntu names the script's header records as present in both releases (arm64).
COMMON_APT = {"ninja-build", "g++", "pkg-config", "git", "ca-certificates", "curl", "xz-utils",
              "python3-pip", "python3-venv", "libsqlite3-dev", "libpng-dev", "libpq-dev",
              "libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"}
# jammy's own: CMake 3.22 (>= 3.18), Boost 1.74 and nlohmann_json 3.10.5 are new enough.
JAMMY_APT = COMMON_APT | {"cmake", "libboost-dev", "libboost-program-options-dev",
                          "libboost-math-dev", "nlohmann-json3-dev"}
FOCAL_APT = COMMON_APT
# Debian 12's names that neither release has, or has too old for flowtune (built from source).
NEVER_APT = {"libsqlitecpp-dev", "libtomlplusplus-dev", "libhwy-dev", "libtrilinos-kokkos-dev"}
# focal's versions too old: CMake 3.16 (< 3.18), Boost 1.71, nlohmann_json 3.7.3.
FOCAL_TOO_OLD = {"cmake", "libboost-dev", "libboost-program-options-dev", "libboost-math-dev",
                 "nlohmann-json3-dev"}
# What the build never looks for with FLOWTUNE_BUILD_TESTS=OFF.
TEST_ONLY = {"libgtest-dev", "libgmock-dev", "libbenchmark-dev"}

SOURCE_BOTH = {("SQLiteCpp", "3.2.1"), ("tomlplusplus", "v3.3.0"), ("highway", "1.0.4"),
               ("kokkos", "3.4.01")}
SOURCE_FOCAL = SOURCE_BOTH | {("json", "v3.11.2")}

STUBS = ("apt-get", "sudo", "git", "curl", "cmake", "python3", "tar", "dpkg-query")


class JetsonSetupDryRun(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.home = os.path.join(t, "home")
        os.makedirs(self.home)
        self.calls = os.path.join(t, "calls")
        stubs = os.path.join(t, "stubs")
        os.makedirs(stubs)
        for name in STUBS:
            self._exe(os.path.join(stubs, name), f'echo "{name} $*" >> "{self.calls}"\nexit 0\n')
        self.path = stubs + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")
        self.cuda = {}
        for version, line in (("11.4", "release 11.4, V11.4.315"), ("12.2", "release 12.2, V12.2.140")):
            home = os.path.join(t, "cuda-" + version)
            self._exe(os.path.join(home, "bin", "nvcc"),
                      'echo "nvcc: NVIDIA (R) Cuda compiler driver"\n'
                      f'echo "Cuda compilation tools, {line}"\n')
            self.cuda[version] = home

    def tearDown(self):
        self.tmp.cleanup()

    def _exe(self, path, body):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)

    def _file(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_script(self, *args):
        env = dict(os.environ, HOME=self.home, PATH=self.path)
        env.pop("PYTHONUSERBASE", None)
        return subprocess.run(["bash", SCRIPT, *args], env=env, cwd=self.tmp.name,
                              capture_output=True, text=True, timeout=30)

    def dry_run(self, *args):
        r = self.run_script("--dry-run", *args)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertFalse(os.path.exists(self.calls),
                         "a dry run ran: " + (open(self.calls).read() if os.path.exists(self.calls) else ""))
        return r.stdout

    @staticmethod
    def commands(out):
        """The printed commands, each split into words like a shell would; the subshell of a
        command run in another directory, "(cd DIR && CMD)", without its parentheses."""
        lines = [line[2:] for line in out.splitlines() if line.startswith("+ ")]
        return [shlex.split(line[1:-1] if line.startswith("(") and line.endswith(")") else line)
                for line in lines]

    def apt_packages(self, out):
        installs = [c for c in self.commands(out) if "apt-get" in c and "install" in c]
        self.assertEqual(len(installs), 1, out)
        words = installs[0]
        return set(words[words.index("--no-install-recommends") + 1:])

    def source_builds(self, out):
        clones = [c for c in self.commands(out) if c[:2] == ["git", "clone"]]
        return {(c[-2].rsplit("/", 1)[1].removesuffix(".git"), c[c.index("--branch") + 1])
                for c in clones}

    def configure(self, out):
        lines = [c for c in self.commands(out) if "-S" in c and c[c.index("-S") + 1] == ROOT]
        self.assertEqual(len(lines), 1, out)
        return lines[0]

    def test_focal(self):
        out = self.dry_run("--release", "focal", "--cuda-home", self.cuda["11.4"], "--arch", "72")
        self.assertIn("Ubuntu focal (JetPack 5), CUDA 11.4", out)
        apt = self.apt_packages(out)
        self.assertEqual(apt, FOCAL_APT)
        self.assertFalse(apt & (NEVER_APT | FOCAL_TOO_OLD | TEST_ONLY))
        # CMake >= 3.18 from PyPI into ~/.local/bin, and that CMake builds everything after.
        pip = [c for c in self.commands(out) if c[:4] == ["python3", "-m", "pip", "install"]]
        self.assertEqual(len(pip), 1, out)
        self.assertIn("--user", pip[0])
        self.assertIn("cmake>=3.18,<4", pip[0])
        cmake = os.path.join(self.home, ".local", "bin", "cmake")
        self.assertEqual(self.configure(out)[0], cmake)
        self.assertEqual(self.source_builds(out), SOURCE_FOCAL)
        boost = [c for c in self.commands(out) if c[:1] == ["curl"]]
        self.assertEqual(len(boost), 1, out)
        self.assertTrue(boost[0][-1].endswith("/boost_1_74_0.tar.gz"))
        self.assertIn("sha256sum", out)
        self.check_build(out, cmake, "72", self.cuda["11.4"])
        self.assertIn(["cd", ROOT, "&&", os.path.join(ROOT, "build-jetson", "cli", "tune"),
                       "--board", "auto", "--data", os.path.join(ROOT, "data", "middlebury")],
                      self.commands(out))

    def test_jammy_with_the_arch_read_from_the_device_tree(self):
        model = self._file("model", "NVIDIA Jetson AGX Orin Developer Kit\0")
        out = self.dry_run("--release", "jammy", "--cuda-home", self.cuda["12.2"],
                           "--model-file", model)
        self.assertIn("Ubuntu jammy (JetPack 6), CUDA 12.2", out)
        self.assertIn("board: NVIDIA Jetson AGX Orin Developer Kit (sm_87)", out)
        apt = self.apt_packages(out)
        self.assertEqual(apt, JAMMY_APT)
        self.assertFalse(apt & (NEVER_APT | TEST_ONLY))
        self.assertFalse([c for c in self.commands(out) if "pip" in c])
        self.assertNotIn("boost_1_74_0", out)
        self.assertEqual(self.source_builds(out), SOURCE_BOTH)
        self.assertEqual(self.configure(out)[0], "cmake")
        self.check_build(out, "cmake", "87", self.cuda["12.2"])

    def check_build(self, out, cmake, arch, cuda):
        conf = self.configure(out)
        self.assertEqual(conf[conf.index("-B") + 1], os.path.join(ROOT, "build-jetson"))
        for flag in ("-DCMAKE_BUILD_TYPE=Release", "-DFLOWTUNE_BUILD_TESTS=OFF",
                     f"-DCMAKE_CUDA_ARCHITECTURES={arch}",
                     f"-DCMAKE_CUDA_COMPILER={cuda}/bin/nvcc", f"-DCUDAToolkit_ROOT={cuda}",
                     "-DCMAKE_PREFIX_PATH=" + os.path.join(self.home, ".local", "flowtune-deps")):
            self.assertIn(flag, conf)
        builds = [c for c in self.commands(out) if c[:2] == [cmake, "--build"] and "tune" in c]
        self.assertEqual(len(builds), 1, out)
        self.assertEqual(builds[0][builds[0].index("--target") + 1], "tune")

    def test_release_from_os_release_and_tune_arguments(self):
        os_release = self._file("os-release",
                                'NAME="Ubuntu"\nVERSION_ID="22.04"\nVERSION_CODENAME=jammy\nID=ubuntu\n')
        out = self.dry_run("--os-release", os_release, "--cuda-home", self.cuda["12.2"],
                           "--arch", "87", "--", "--max-evals", "5")
        self.assertEqual(self.apt_packages(out), JAMMY_APT)
        tune = [c for c in self.commands(out) if "--board" in c]
        self.assertEqual(tune[0][-2:], ["--max-evals", "5"])

    def test_no_run_builds_but_does_not_tune(self):
        out = self.dry_run("--release", "jammy", "--cuda-home", self.cuda["12.2"], "--arch", "87",
                           "--no-run")
        self.assertFalse([c for c in self.commands(out) if "--board" in c])
        self.assertIn("--no-run: not tuning", out)

    def test_prebuilt_kernels_are_unpacked_beside_the_built_tune(self):
        tarball = self._file("prebuilt-kernels.tar.xz", "")
        out = self.dry_run("--release", "jammy", "--cuda-home", self.cuda["12.2"], "--arch", "87",
                           "--prebuilt-kernels", tarball)
        kernels = os.path.join(ROOT, "build-jetson", "share", "flowtune", "kernels")
        commands = self.commands(out)
        self.assertIn(["tar", "-C", kernels, "-xJf", tarball], commands)
        build = [i for i, c in enumerate(commands) if "--build" in c and "tune" in c][0]
        unpack = commands.index(["tar", "-C", kernels, "-xJf", tarball])
        tune = [i for i, c in enumerate(commands) if "--board" in c][0]
        self.assertLess(build, unpack)
        self.assertLess(unpack, tune)
        r = self.run_script("--dry-run", "--release", "jammy", "--cuda-home", self.cuda["12.2"],
                            "--prebuilt-kernels", os.path.join(self.tmp.name, "absent.tar.xz"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--prebuilt-kernels", r.stderr)

    def test_a_cuda_of_the_other_jetpack_is_a_warning(self):
        out = self.dry_run("--release", "focal", "--cuda-home", self.cuda["12.2"], "--arch", "72")
        self.assertIn("warning: JetPack 5 ships CUDA 11.x", out)

    def test_unknown_release(self):
        r = self.run_script("--dry-run", "--release", "bionic", "--cuda-home", self.cuda["11.4"])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--release bionic: focal", r.stderr)
        os_release = self._file("os-release", 'ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n')
        r = self.run_script("--dry-run", "--os-release", os_release, "--cuda-home", self.cuda["11.4"])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{os_release} has VERSION_CODENAME=bookworm", r.stderr)
        self.assertIn("--release focal|jammy overrides", r.stderr)

    def test_missing_nvcc(self):
        r = self.run_script("--dry-run", "--release", "focal", "--cuda-home", self.tmp.name)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"no nvcc at {self.tmp.name}/bin/nvcc", r.stderr)

    def test_unknown_board(self):
        model = self._file("model", "NVIDIA Jetson TX2 Developer Kit\0")
        r = self.run_script("--dry-run", "--release", "focal", "--cuda-home", self.cuda["11.4"],
                            "--model-file", model)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{model} says 'NVIDIA Jetson TX2 Developer Kit'", r.stderr)
        self.assertIn("--arch", r.stderr)

    def test_help(self):
        r = self.run_script("--help")
        self.assertEqual(r.returncode, 0)
        for option in ("--dry-run", "--no-run", "--release", "--arch", "--cuda-home"):
            self.assertIn(option, r.stdout)


if __name__ == "__main__":
    unittest.main()
