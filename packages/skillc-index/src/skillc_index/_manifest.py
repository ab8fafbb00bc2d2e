"""The build manifest (RFC-0001:C-MANIFEST) at ``<runtime>/.skillc-meta/manifest.json``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillc_index._layout import META_DIR

MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1


def manifest_path(runtime: Path) -> Path:
    return runtime / META_DIR / MANIFEST_FILE


@dataclass(frozen=True)
class Manifest:
    """The fields RFC-0001 requires; ``extra`` keeps any others."""

    skill: str
    version: int
    built_at: str
    source_hash: str
    extra: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: the four RFC fields first, then the extra ones."""
        known = {
            "skill": self.skill,
            "version": self.version,
            "built_at": self.built_at,
            "source_hash": self.source_hash,
        }
        return {**known, **{k: v for k, v in self.extra.items() if k not in known}}


def write_manifest(runtime: Path, manifest: Manifest) -> Path:
    """Write ``<runtime>/.skillc-meta/manifest.json`` atomically (a temporary file renamed
    over the old one), creating the folders; returns its path."""
    import json

    from skillc_index._atomic import ensure_dir, write_file_atomic

    path = manifest_path(runtime)
    ensure_dir(path.parent)
    text = json.dumps(manifest.to_dict(), indent=2, ensure_ascii=False) + "\n"
    write_file_atomic(path, text.encode("utf-8"))
    return path


def read_manifest(runtime: Path) -> Manifest | None:
    """The runtime's manifest, or None when it is missing or not a valid manifest."""
    import json  # only when there is a runtime to look at

    try:
        data = json.loads(manifest_path(runtime).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    skill, version = data.get("skill"), data.get("version")
    built_at, source_hash = data.get("built_at"), data.get("source_hash")
    if not (
        isinstance(skill, str)
        and isinstance(version, int)
        and not isinstance(version, bool)
        and isinstance(built_at, str)
        and isinstance(source_hash, str)
    ):
        return None
    known = {"skill", "version", "built_at", "source_hash"}
    extra = {k: v for k, v in data.items() if k not in known}
    return Manifest(skill, version, built_at, source_hash, extra)
