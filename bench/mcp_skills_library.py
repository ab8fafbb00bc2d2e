"""Make a library for bench/mcp_skills.py: up to N top-level skills of SRC that both skillc and
"FastMCP 4.2 serve (name = folder, the name rule, a description of 1 to 1,024 characters, the
standard fields of their types, no symlink, hidden file or nested skill, within 512 files and
16 MiB), as hard-linked copies in DEST: ``python bench/mcp_skills_library.py SRC DEST N``."""

import json
import os
import shutil
import sys
from pathlib import Path

from skillc_index.dialect import skill_name_problem
from skillc_index.markdown.frontmatter import as_yaml_12, parse_frontmatter

src, dest, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
dest.mkdir(parents=True, exist_ok=True)
names = {entry.name for entry in dest.iterdir()}
for p in sorted(src.rglob("SKILL.md")):
    if len(names) >= n:
        break
    folder = p.parent
    if ".git" in p.parts or folder.name in names:
        continue
    if any(
        parent.joinpath("SKILL.md").exists()
        for parent in folder.parents
        if parent != src and src in parent.parents
    ):
        continue  # nested: comes with its parent
    ok = True
    count = 0
    size = 0
    for f in folder.rglob("*"):
        if (
            f.is_symlink()
            or any(part.startswith(".") for part in f.relative_to(folder).parts)
            or not (f.is_file() or f.is_dir())
        ):
            ok = False
            break
        if f.is_file():
            count += 1
            size += f.stat().st_size
        if f.is_dir() and (f / "SKILL.md").exists():
            ok = False
            break
    if not ok or count > 512 or size > 16 << 20:
        continue
    fm = parse_frontmatter(p.read_text(errors="replace"))
    if fm.data is None:
        continue
    d = as_yaml_12(fm)
    if d != fm.data:
        continue
    name = d.get("name")
    if not isinstance(name, str) or skill_name_problem(name) or name != folder.name:
        continue
    desc = d.get("description")
    if not isinstance(desc, str) or not desc.strip() or len(desc) > 1024:
        continue
    try:
        json.dumps(d, allow_nan=False)
    except Exception:
        continue
    if "license" in d and not isinstance(d["license"], str):
        continue
    if "compatibility" in d and not (
        isinstance(d["compatibility"], str) and 1 <= len(d["compatibility"]) <= 500
    ):
        continue
    if "metadata" in d and not isinstance(d["metadata"], dict):
        continue
    at = d.get("allowed-tools")
    if "allowed-tools" in d and not (
        isinstance(at, str) or (isinstance(at, list) and all(isinstance(t, str) for t in at))
    ):
        continue
    shutil.copytree(folder, dest / folder.name, copy_function=os.link)
    names.add(folder.name)
print(len(names))
