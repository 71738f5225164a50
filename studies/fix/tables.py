"""The fix study's block of REPORT.md: 32-bit kernels without and with patch 0008. Its code lives in
plots/tables_bases.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_bases import fix_tables as tables  # noqa: F401
