"""Add up the JUnit XML files the tox envs wrote: one line per env, then the total.

Exits 1 when no test ran at all, so an empty test run never passes silently.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

totals = {"passed": 0, "failed": 0, "skipped": 0}
files = sorted(Path(sys.argv[1]).glob("*.xml")) if Path(sys.argv[1]).is_dir() else []
for path in files:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    passed = tests - failed - skipped
    print(f"{path.stem}: {passed} passed, {failed} failed, {skipped} skipped")
    totals["passed"] += passed
    totals["failed"] += failed
    totals["skipped"] += skipped
print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
if totals["passed"] + totals["failed"] == 0:
    print("no test ran", file=sys.stderr)
    sys.exit(1)
sys.exit(1 if totals["failed"] else 0)
