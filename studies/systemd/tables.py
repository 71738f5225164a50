"""The systemd study's block of REPORT.md: systemd with PID 1's reads or a child's. Its code lives in
plots/tables_bases.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_bases import systemd_tables as tables  # noqa: F401
