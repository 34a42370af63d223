"""Google Test's JUnit XML (--gtest_output=xml) as the summarisers report it."""
import xml.etree.ElementTree as ET


def tests_line(name, text):
    """One Markdown line for the JUnit XML `text` of file `name` (None: missing): its test
    count, passed, failed and skipped, and the failed tests' names."""
    if text is None:
        return f"- `{name}`: missing"
    n = failed = skipped = 0
    bad = []
    for c in ET.fromstring(text).iter("testcase"):
        n += 1
        if c.find("failure") is not None:
            failed += 1
            bad.append(c.get("classname") + "." + c.get("name"))
        elif c.get("result") == "skipped" or c.find("skipped") is not None:
            skipped += 1
    line = f"- `{name}`: {n} tests, {n - failed - skipped} passed, {failed} failed, {skipped} skipped"
    return line + ("" if not bad else " (failed: " + ", ".join(bad) + ")")
