"""`python -m skillc_stats` runs the `skillc-stats` command."""

from skillc_stats.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
