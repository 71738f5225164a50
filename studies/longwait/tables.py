"""The longwait study's block of REPORT.md: minutes without a counter, icount. Its code lives in
plots/tables_main.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_main import longwait_tables as tables  # noqa: F401
