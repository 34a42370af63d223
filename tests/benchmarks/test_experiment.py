"""benchmarks/run and its experiment files: loading, errors that name the file, placeholders,
parameters, step groups, and every committed experiment file loading cleanly."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import experiment  # noqa: E402

GOOD = '''description = "two steps"
record = "results/x/host"
[params]
tag = "cold"
args = "--a 1  --b"
[[step]]
name = "first"
group = "g1"
run = ["echo", "{tag}", "{*args}", "{out}/f_{tag}.txt"]
stdout = "first_{tag}.txt"
[[step]]
name = "second"
group = "g2"
unless = "{tag}"
run = ["echo", "two"]
'''


def write(folder, text):
    path = os.path.join(folder, "e.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


class Experiment(unittest.TestCase):
    def test_load_and_expand(self):
        with tempfile.TemporaryDirectory() as d:
            e = experiment.load(write(d, GOOD))
            self.assertEqual(e["params"], {"tag": "cold", "args": "--a 1  --b"})
            self.assertEqual([s["name"] for s in e["step"]], ["first", "second"])
            values = {"tag": "warm", "args": "--a 1  --b", "out": "/o"}
            self.assertEqual(experiment.expand_args(e["step"][0]["run"], values),
                             ["echo", "warm", "--a", "1", "--b", "/o/f_warm.txt"])
            self.assertEqual(experiment.expand_args(["x", "{*args}"], dict(values, args="")), ["x"])

    def test_errors_name_the_file_and_the_problem(self):
        cases = [
            (GOOD.replace('description = "two steps"\n', ""), "'description' (a string) is missing"),
            (GOOD + "colour = 1\n", "unknown key(s) colour"),
            (GOOD.replace('run = ["echo", "two"]', 'run = "echo two"'),
             "step 2 (second): 'run' must be a list of strings"),
            (GOOD.replace("{tag}\", \"{*args}", "{tga}\", \"{*args}"),
             "step 1 (first): unknown placeholder {tga}"),
            (GOOD.replace('group = "g1"', 'gruop = "g1"'), "step 1: unknown key(s) gruop"),
            ("description = [", "not valid TOML"),
            ('description = "none"\n', "no [[step]]"),
        ]
        with tempfile.TemporaryDirectory() as d:
            for text, message in cases:
                path = write(d, text)
                with self.assertRaises(experiment.ExperimentError) as cm:
                    experiment.load(path)
                self.assertIn(f"{path}: ", str(cm.exception))
                self.assertIn(message, str(cm.exception))
            with self.assertRaises(experiment.ExperimentError) as cm:
                experiment.load(os.path.join(d, "missing.toml"))
            self.assertIn("missing.toml: no such experiment file", str(cm.exception))

    def test_parameter_environment_name(self):
        self.assertEqual(experiment.param_env_name("grid"), "FLOWTUNE_BENCH_GRID")

    def test_every_committed_experiment_loads(self):
        folder = os.path.join(ROOT, "benchmarks", "experiments")
        names = sorted(f for f in os.listdir(folder) if f.endswith(".toml"))
        self.assertGreater(len(names), 10)
        for name in names:
            e = experiment.load(os.path.join(folder, name))
            self.assertTrue(e["record"].startswith("results/"), name)


class Runner(unittest.TestCase):
    def run_tool(self, *args, env=None):
        return subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run"), *args],
                              capture_output=True, text=True, env=env, timeout=60)

    def test_runs_steps_writes_outputs_and_honours_groups_and_parameters(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "fixture.toml")
            with open(path, "w") as f:
                f.write(GOOD)
            env = dict(os.environ, FLOWTUNE_BENCH_TAG="")
            p = self.run_tool(path, "--out", d, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            # tag empty (environment): `unless` runs the second step.
            with open(os.path.join(d, "first_.txt")) as f:
                self.assertEqual(f.read().strip(), f"--a 1 --b {d}/f_.txt")
            self.assertIn("== second: echo two", p.stdout)
            self.assertTrue(os.path.exists(os.path.join(d, "gpu.txt")))
            # --set beats the environment; --only picks the group; `unless` skips.
            p = self.run_tool(path, "--out", d, "--set", "tag=warm", "--only", "g1,g2", env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "first_warm.txt")) as f:
                self.assertEqual(f.read().split()[0], "warm")
            self.assertIn("== second: skipped", p.stdout)
            p = self.run_tool(path, "--out", d, "--set", "colour=red")
            self.assertEqual(p.returncode, 2)
            self.assertIn("no parameter 'colour'", p.stderr)
            p = self.run_tool(path, "--out", d, "--only", "g3")
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"{path}: --only g3: no step group g3", p.stderr)

    def test_failed_step_gives_exit_1(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "failing.toml")
            with open(path, "w") as f:
                f.write('description = "fails"\n[[step]]\nname = "false"\nrun = ["false"]\n'
                        '[[step]]\nname = "after"\nrun = ["true"]\n')
            p = self.run_tool(path, "--out", os.path.join(d, "out"))
            self.assertEqual(p.returncode, 1)
            self.assertIn("failed steps: false", p.stdout)
            self.assertIn("== after: true", p.stdout)

    def test_unknown_experiment_is_a_usage_error(self):
        p = self.run_tool("no-such-experiment")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no-such-experiment.toml: no such experiment file", p.stderr)


if __name__ == "__main__":
    unittest.main()
