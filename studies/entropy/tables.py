"""The entropy study's block of REPORT.md: what "ready" holds. Its code lives in
plots/tables_arches.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_arches import entropy_tables as tables  # noqa: F401
