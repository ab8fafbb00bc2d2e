"""Rebuild the held-out skill library from ``manifest.json``: the SKILL.md folders of public
repositories at pinned commits, their ``.md`` and ``.txt`` files only (as the shared corpus).

    python bench/skill-routing-heldout/build_library.py OUT_DIR [--mirrors DIR]

Each repository is read from a bare git directory: ``DIR/<owner>+<name>/repo`` when
``--mirrors`` holds one, else a bare clone of ``https://github.com/<owner>/<name>`` made in
``OUT_DIR/.git-cache``. The skill folders land under ``OUT_DIR/<owner>+<name>/<path>``; a
skill's id in the request files is ``H:<owner>+<name>/<path>``. Files are written from the
pinned commit's tree (symlinks and binaries left out), and the number of skills per
repository is checked against the manifest.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEEP = (".md", ".txt")


def git(gitdir: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={gitdir}", *args], input=data, capture_output=True, check=True
    ).stdout


def gitdir_for(repo: str, commit: str, mirrors: Path | None, cache: Path) -> Path:
    key = repo.replace("/", "+")
    if mirrors is not None and (mirrors / key / "repo").is_dir():
        return mirrors / key / "repo"
    target = cache / key
    if not target.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        url = f"https://github.com/{repo}"
        clone = ["git", "clone", "--bare", "--filter=blob:none", url, str(target)]
        subprocess.run(clone, check=True)
    return target


def included(path: str, include: list[str], exclude: list[str]) -> bool:
    return any(path.startswith(p) for p in include) and not any(path.startswith(p) for p in exclude)


def build(entry: dict[str, object], out: Path, mirrors: Path | None) -> int:
    repo, commit = str(entry["repo"]), str(entry["commit"])
    include = [str(p) for p in entry.get("include", [""])]  # type: ignore[attr-defined]
    exclude = [str(p) for p in entry.get("exclude", [])]  # type: ignore[attr-defined]
    gitdir = gitdir_for(repo, commit, mirrors, out / ".git-cache")
    listing = git(gitdir, "ls-tree", "-r", "-z", commit).decode("utf-8", "replace").split("\0")
    blobs: dict[str, str] = {}
    for row in listing:
        if not row:
            continue
        meta, _, path = row.partition("\t")
        mode, kind, sha = meta.split()
        if kind == "blob" and mode in ("100644", "100755"):
            blobs[path] = sha
    skills = sorted(
        path.rpartition("/")[0]
        for path in blobs
        if path.endswith("/SKILL.md") and included(path, include, exclude)
    )
    folders = set(skills)
    wanted = []
    for path, sha in blobs.items():
        if not path.endswith(KEEP):
            continue
        parts = path.split("/")
        if any("/".join(parts[:n]) in folders for n in range(1, len(parts))):
            wanted.append((path, sha))
    shas = "".join(f"{sha}\n" for _, sha in wanted).encode()
    batch = git(gitdir, "cat-file", "--batch", data=shas)
    root = out / repo.replace("/", "+")
    offset = 0
    for path, _sha in wanted:
        header_end = batch.index(b"\n", offset)
        _, _, size = batch[offset:header_end].decode().split()
        body = batch[header_end + 1 : header_end + 1 + int(size)]
        offset = header_end + 1 + int(size) + 1
        if b"\0" in body[:8000]:
            continue
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
    return len(skills)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--mirrors", type=Path, default=None)
    ap.add_argument("--manifest", type=Path, default=HERE / "manifest.json")
    args = ap.parse_args(argv)
    manifest = json.loads(args.manifest.read_text())
    total = 0
    for entry in manifest["repositories"]:
        n = build(entry, args.out, args.mirrors)
        total += n
        status = "" if n == entry.get("skills", n) else f" (manifest says {entry['skills']})"
        print(f"{entry['repo']}@{str(entry['commit'])[:12]}: {n} skills{status}")
    print(f"{total} skills in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
