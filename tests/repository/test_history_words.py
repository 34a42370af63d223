#!/usr/bin/env python3
"""Unit tests of history_words.py's matcher on hand-written lines, and of its scan on a small
tree written by the test (unittest; run by ctest as repository_history_words_matcher)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import history_words as hw  # noqa: E402


def matched(line):
    return [text for text, _ in hw.offences(line)]


class NumberedWords(unittest.TestCase):
    def test_issue_and_session_numbers_match(self):
        self.assertEqual(matched("see issue21 for the rule"), ["issue21"])
        self.assertEqual(matched("measured in session 9"), ["session 9"])
        self.assertEqual(matched("ISSUE21TUNED_GRID=1"), ["ISSUE21"])
        self.assertEqual(matched("issue 22's rule"), ["issue 22"])
        self.assertEqual(matched("(Issue #24)"), ["Issue #24"])
        self.assertEqual(matched("sessions 8-11"), ["sessions 8"])
        self.assertEqual(matched("issue-23 prior"), ["issue-23"])

    def test_names_carrying_a_number_match(self):
        self.assertEqual(matched("scripts/device-issue21zoom"), ["issue21"])
        self.assertEqual(matched("add_test(NAME summary_issue21_staging_sweep"), ["issue21"])
        self.assertEqual(matched("reports/issue21_session11_h200.md"), ["issue21", "session11"])
        self.assertEqual(matched("reports/fuzz_issue24/README.md"), ["issue24"])

    def test_words_without_a_number_or_inside_a_word_do_not_match(self):
        for line in ("tissue 3 of the sample", "reissue 2 kernels", "the issue tracker",
                     "a tuning session", "session_front(s)", "open_session(options, log)",
                     "the load of row t+1 is issued now", "SET SESSION CHARACTERISTICS",
                     "issues of the design", "misissue7"):
            self.assertEqual(matched(line), [], line)


class RunnerWords(unittest.TestCase):
    def test_runner_vocabulary_matches(self):
        self.assertEqual(matched("in one device call (< 150 s)"), ["device call"])
        self.assertEqual(matched("two Device Calls"), ["Device Calls"])
        self.assertEqual(matched("run(carry=['build'])"), ["run(carry", "carry="])
        self.assertEqual(matched("CARRY=build/ci"), ["CARRY="])

    def test_plain_words_do_not_match(self):
        for line in ("the GPU machine runs a benchmark run", "device code calls it",
                     "carry the bit (carry = a + b >> 8)", "a device: call it later"):
            self.assertEqual(matched(line), [], line)

    def test_reasons_name_the_kind(self):
        self.assertEqual(hw.offences("issue 3 in a device call"),
                         [("issue 3", "issue or session number"),
                          ("device call", "runner vocabulary")])


class Files(unittest.TestCase):
    def test_skipped_suffixes_and_exempt_file(self):
        self.assertFalse(hw.is_scanned("reports/x/eight.db.xz"))
        self.assertFalse(hw.is_scanned("data/middlebury/Venus/flow10.flo"))
        self.assertFalse(hw.is_scanned("docs/shot.PNG"))
        self.assertFalse(hw.is_scanned("tests/repository/test_history_words.py"))
        self.assertTrue(hw.is_scanned("tests/CMakeLists.txt"))
        self.assertTrue(hw.is_scanned("scripts/device-run"))

    def test_binary_is_not_text(self):
        self.assertIsNone(hw.text_lines(b"abc\0def"))
        self.assertIsNone(hw.text_lines(b"\xff\xfe issue 3"))
        self.assertEqual(hw.text_lines(b"a\nb issue 3\n"), ["a", "b issue 3"])

    def test_scan_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "src"))
            with open(os.path.join(root, "src", "a.cpp"), "w") as f:
                f.write("int x;\n// the default of session 9\nint y;  // one device call\n")
            with open(os.path.join(root, "src", "clean.cpp"), "w") as f:
                f.write("// the default, see docs/decisions.md\n")
            with open(os.path.join(root, "raw.bin"), "wb") as f:
                f.write(b"issue 3\0")
            found = hw.scan(root, ["src/a.cpp", "src/clean.cpp", "raw.bin", "missing_dir"])
        self.assertEqual(found, [("src/a.cpp", 2, "session 9", "issue or session number"),
                                 ("src/a.cpp", 3, "device call", "runner vocabulary")])

    def test_not_a_work_tree_skips(self):
        with tempfile.TemporaryDirectory() as root:
            if hw.tracked_files(root) is not None:
                self.skipTest("the temporary folder lies inside a git work tree")
            self.assertEqual(hw.main(["history_words.py", root]), 77)


if __name__ == "__main__":
    unittest.main()
