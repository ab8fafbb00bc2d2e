"""`python -m skillc_lint` and the `skillc-lint` console script:
:mod:`skillc_lint.cli` run through :func:`skillc_index.streams.script`
(a Ctrl-C while it loads exits 130 quietly)."""

from skillc_index.streams import script


def main() -> int:
    """The `skillc-lint` command's exit status."""
    return script("skillc_lint.cli")


if __name__ == "__main__":
    raise SystemExit(main())
