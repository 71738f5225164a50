"""The hz study's block of REPORT.md: chart 5's table. Its code lives in
plots/tables_main.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_main import hz_table as tables  # noqa: F401
