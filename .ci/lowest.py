"""Write a pip constraints file that pins every lower bound a distribution declares (tox's
`lowest` env): `python .ci/lowest.py OUT DIST[EXTRA,...] ...`.

For each DIST under packages/, its run-time requirements, those of the skillc siblings it
depends on, and those of the EXTRAs named, each `name>=X` becomes `name==X` (the highest X
when several packages bound the same name). Installing with `-c OUT` then tests the oldest
versions a user may get, so a bound in pyproject.toml is a measured fact, not a guess: the
semantic extra once allowed onnxruntime 1.17, which cannot load the model file, and skillc-index
markdown-it-py 3.0, whose block parse its scanner does not follow.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: the same parser, installed with skillc-index there
    import tomli as tomllib  # type: ignore[no-redef]

root = Path(__file__).resolve().parent.parent
_BOUND = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*(?:;|$)")
_SPEC = re.compile(r"^([a-z0-9-]+)(?:\[([a-z0-9,-]+)\])?$")


def _requirements(dist: str, extras: list[str], seen: set[str]) -> list[str]:
    """The run-time requirements of ``dist`` and its ``extras``, its siblings' included."""
    if dist in seen:
        return []
    seen.add(dist)
    project = tomllib.loads((root / "packages" / dist / "pyproject.toml").read_text())["project"]
    found: list[str] = list(project.get("dependencies", []))
    for extra in extras:
        if extra not in project.get("optional-dependencies", {}):
            raise SystemExit(f"error: {dist} has no extra {extra!r}")
        found += project["optional-dependencies"][extra]
    for requirement in list(found):
        sibling = re.match(r"^\s*(skillc(?:-[a-z]+)?)\b", requirement)
        if sibling and (root / "packages" / sibling.group(1)).is_dir():
            found += _requirements(sibling.group(1), [], seen)
    return found


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: lowest.py OUT DIST[EXTRA,...] ...", file=sys.stderr)
        return 2
    bounds: dict[str, tuple[tuple[int, ...], str]] = {}
    seen: set[str] = set()
    for spec in sys.argv[2:]:
        match = _SPEC.match(spec)
        if match is None:
            print(f"error: not a distribution: {spec}", file=sys.stderr)
            return 2
        extras = match.group(2).split(",") if match.group(2) else []
        for requirement in _requirements(match.group(1), extras, seen):
            bound = _BOUND.match(requirement)
            if bound is None or bound.group(1).startswith("skillc"):
                continue
            name, version = bound.group(1).lower(), bound.group(2)
            key = tuple(int(part) for part in re.findall(r"\d+", version))
            if name not in bounds or key > bounds[name][0]:
                bounds[name] = (key, version)
    text = "".join(f"{name}=={version}\n" for name, (_, version) in sorted(bounds.items()))
    Path(sys.argv[1]).write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
