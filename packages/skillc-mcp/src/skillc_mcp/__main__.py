"""`python -m skillc_mcp` runs the `skillc-mcp` command."""

from skillc_mcp.quick import main

if __name__ == "__main__":
    raise SystemExit(main())
