"""The guest study's block of REPORT.md: the guest's own costs. Its code lives in
plots/tables_main.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_main import guest_table as tables  # noqa: F401
