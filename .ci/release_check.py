"""Check a release tag against the packages (the release workflow's first step).

``python .ci/release_check.py v0.2.0`` exits 0 when every distribution under packages/ is at
version 0.2.0 and its CHANGELOG.md has a ``## 0.2.0`` section and nothing under
``## Unreleased`` (a release moves those entries into its own section); otherwise it prints
what is wrong, one line each, and exits 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 (the declared minimum): the same parser, installed with skillc-index there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def unreleased(changelog: str) -> str:
    """The entries under a CHANGELOG's ``## Unreleased`` heading ("" when none)."""
    found = re.search(r"^## Unreleased[ \t]*\n(.*?)(?=^## |\Z)", changelog, re.M | re.S)
    return found.group(1).strip() if found else ""


def problems(tag: str, root: Path = ROOT) -> list[str]:
    if not re.fullmatch(r"v\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?", tag):
        return [f"tag {tag!r} is not vX.Y.Z"]
    version = tag[1:]
    found = []
    for pyproject in sorted(root.glob("packages/*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        if project["version"] != version:
            found.append(f"{project['name']} is at {project['version']}, the tag says {version}")
        changelog = (pyproject.parent / "CHANGELOG.md").read_text(encoding="utf-8")
        if not re.search(rf"^## {re.escape(version)}\b", changelog, re.MULTILINE):
            found.append(f"{project['name']}: CHANGELOG.md has no '## {version}' section")
        if unreleased(changelog):
            found.append(
                f"{project['name']}: CHANGELOG.md has entries under '## Unreleased':"
                f" move them to '## {version}'"
            )
    return found


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: release_check.py vX.Y.Z")
    wrong = problems(sys.argv[1])
    for line in wrong:
        print(f"error: {line}", file=sys.stderr)
    sys.exit(1 if wrong else 0)
