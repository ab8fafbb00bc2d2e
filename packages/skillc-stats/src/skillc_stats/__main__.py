"""`python -m skillc_stats` and the `skillc-stats` console script:
:mod:`skillc_stats.cli` run through :func:`skillc_index.streams.script`
(a Ctrl-C while it loads exits 130 quietly)."""

from skillc_index.streams import script


def main() -> int:
    """The `skillc-stats` command's exit status."""
    return script("skillc_stats.cli")


if __name__ == "__main__":
    raise SystemExit(main())
