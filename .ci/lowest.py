"""Write a pip constraints file that pins every lower bound a distribution declares (tox's
`lowest` env): `python .ci/lowest.py OUT DIST[EXTRA,...] ...`.

For each DIST under packages/, its run-time requirements, those of the EXTRAs named, and
those of the skillc siblings it depends on with the extras each names (`skillc[semantic]`
reads skillc-gateway's `semantic`), each `name>=X` becomes `name==X` whatever follows the
bound or the name (`pygls>=2.0,<3`, `psycopg[binary]>=3.1.4`; the highest X when several
packages bound the same name; an `==` pin is kept). Installing with `-c OUT` then tests the oldest
versions a user may get, so a bound in pyproject.toml is a measured fact, not a guess: the
semantic extra once allowed onnxruntime 1.17, which cannot load the model file, and skillc-index
markdown-it-py 3.0, whose block parse its scanner does not follow.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

try:
    import tomllib
except ImportError:  # Python 3.10: the same parser, installed with skillc-index there
    import tomli as tomllib  # type: ignore[no-redef]

root = Path(__file__).resolve().parent.parent
_SPEC = re.compile(r"^([a-z0-9-]+)(?:\[([a-z0-9,-]+)\])?$")


def _requirements(dist: str, extras: set[str], seen: dict[str, set[str]]) -> list[Requirement]:
    """The run-time requirements of ``dist`` and its ``extras``, its siblings' (with the
    extras they are named with) included; ``seen`` holds what was read of each dist already
    (``""`` for its dependencies), so a dist met again is read only for its new extras."""
    project = tomllib.loads((root / "packages" / dist / "pyproject.toml").read_text())["project"]
    done = seen.setdefault(dist, set())
    found: list[Requirement] = []
    for extra in sorted({"", *extras} - done):
        if extra and extra not in project.get("optional-dependencies", {}):
            raise SystemExit(f"error: {dist} has no extra {extra!r}")
        texts = (
            project["optional-dependencies"][extra] if extra else project.get("dependencies", [])
        )
        found += [Requirement(text) for text in texts]
        done.add(extra)
    for requirement in list(found):
        if (root / "packages" / requirement.name).is_dir():
            found += _requirements(requirement.name, requirement.extras, seen)
    return found


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: lowest.py OUT DIST[EXTRA,...] ...", file=sys.stderr)
        return 2
    bounds: dict[str, Version] = {}
    seen: dict[str, set[str]] = {}
    for spec in sys.argv[2:]:
        match = _SPEC.match(spec)
        if match is None:
            print(f"error: not a distribution: {spec}", file=sys.stderr)
            return 2
        extras = set(match.group(2).split(",")) if match.group(2) else set()
        for requirement in _requirements(match.group(1), extras, seen):
            if (root / "packages" / requirement.name).is_dir():
                continue
            name = re.sub(r"[-_.]+", "-", requirement.name).lower()
            for bound in requirement.specifier:
                if bound.operator in (">=", "==", "~="):
                    version = Version(bound.version)
                    bounds[name] = max(version, bounds.get(name, version))
    # a constraints file takes names alone (no extras): `psycopg[binary]` pins `psycopg`
    text = "".join(f"{name}=={version}\n" for name, version in sorted(bounds.items()))
    Path(sys.argv[1]).write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
