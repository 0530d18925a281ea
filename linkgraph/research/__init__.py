"""Corpus work: graph metrics, batch jobs over puzzle files (locally or on Dask), sweeps.

May import every layer below the command line. Modules:

- `metrics`: link density and graph metrics of a position or a solve path;
- `jobs`: the batch jobs, one function per job (`oracle`, `solve`, `links`, ...);
- `runner`: what every corpus run shares: the per-puzzle deadline, the
  ordered window over a process pool, the interrupt;
- `batch`: `run_batch` and `iter_batch`, a job over a puzzle file;
- `output`: result files (CSV, JSON lines, Parquet), resuming and progress;
- `figures`: scatter plots and histograms a paper would show (glossary labels,
  jitter, y = x, Spearman's rho, fitted bins);
- `soundness`: `sweep`, the soundness sweep behind ``linkgraph verify``
  (every step checked against the solution and by the proof checker);
- `race`: linkgraph's solve path timed side by side with another solver
  (``linkgraph bench --against larsdoku``).
"""

from __future__ import annotations

from linkgraph.research.batch import JOBS, BatchSummary, iter_batch, job_columns, run_batch, run_job
from linkgraph.research.metrics import graph_metrics, grid_counts, position_metrics, solve_metrics
from linkgraph.research import race
from linkgraph.research.output import read_rows
from linkgraph.research.soundness import SweepReport, sweep

__all__ = [
    "JOBS",
    "BatchSummary",
    "SweepReport",
    "graph_metrics",
    "grid_counts",
    "iter_batch",
    "job_columns",
    "position_metrics",
    "read_rows",
    "run_batch",
    "run_job",
    "solve_metrics",
    "race",
    "sweep",
]
