"""The bases study's block of REPORT.md: the kernel bases side by side. Its code lives in
plots/tables_bases.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_bases import bases_tables as tables  # noqa: F401
