"""The arches study's block of REPORT.md: the revert's architectures. Its code lives in
plots/tables_arches.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_arches import arches_tables as tables  # noqa: F401
