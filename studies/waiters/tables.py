"""The waiters study's block of REPORT.md: several tasks waiting at once, without and with patch 0009. Its code lives in
plots/tables_bases.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_bases import waiters_tables as tables  # noqa: F401
