"""`python -m skillc_index` runs the `skillc-index` command."""

from skillc_index.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
