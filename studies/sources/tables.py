"""The sources study's block of REPORT.md: seeds and virtio-rng. Its code lives in
plots/tables_main.py for now (shared helpers); the engine (plots/report_tables.py)
finds it here, by folder."""
from tables_main import sources_tables as tables  # noqa: F401
