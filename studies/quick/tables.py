"""The quick study's block of REPORT.md: the main run's tables. Its code lives in
plots/tables_main.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_main import tables as tables  # noqa: F401
