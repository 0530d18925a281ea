"""Figures a paper would show, from batch or compare rows: scatter plots and histograms.

`plot` draws one figure with matplotlib (the ``plot`` extra):

- axis labels come from `GLOSSARY`, which says in words what each metric column is
  (``solver_rating`` is "linkgraph rating (hardest step, SE scale)", not the raw name);
- a discrete axis (whole numbers, or ratings on a 0.1 grid) is jittered by up to a
  third of its step, so that a thousand puzzles rated 7.1 do not print as one dot;
  the jitter is seeded, so the same rows give the same picture;
- a scatter of two ratings gets the line y = x; a scatter against a rating gets
  Spearman's rank correlation rho (per series and overall) in its legend;
- a histogram of discrete values gets one bin per value (edges half-way between
  neighbouring values), so no bin falls in a gap between ratings.

`spearman` is the rank correlation used in the legends (Pearson's r of the ranks,
ties sharing their mean rank), with numpy only.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from linkgraph.errors import OptionError, check_choice
from linkgraph.io import atomic_path

__all__ = ["GLOSSARY", "RATINGS", "fitted_bins", "is_discrete", "label", "plot", "series", "spearman"]

#: What each metric column means, as an axis label (columns not listed keep their name).
GLOSSARY: dict[str, str] = {
    "rating": "rating in the file (SE)",
    "se_rating": "Sudoku Explainer rating",
    "solver_rating": "linkgraph rating (hardest step, SE scale)",
    "steps": "steps in the solve path",
    "placements": "placements",
    "eliminations": "eliminations",
    "givens": "givens",
    "unsolved_cells": "open cells after the basic ladder",
    "live_candidates": "live candidates after the basic ladder",
    "strong_per_candidate": "strong links per open candidate",
    "weak_per_candidate": "weak links per open candidate",
    "density": "link density (edges / possible pairs)",
    "strong": "strong links",
    "weak": "weak links",
    "groups": "group nodes",
    "als": "ALS nodes",
    "chain_steps": "forcing-chain steps",
    "chain_length_max": "longest forcing chain (literals)",
    "chain_length_mean": "mean forcing-chain length (literals)",
    "net_steps": "forcing-net steps",
    "net_size_max": "largest forcing net (literals)",
    "net_size_mean": "mean forcing-net size (literals)",
    "proof_size_max": "largest proof (literals)",
    "proof_max": "largest proof (literals)",
    "proof_mean": "mean proof size (literals)",
    "seconds": "time (s)",
    "ms": "time (ms)",
}

#: Columns that hold a rating on the SE scale: y = x and Spearman's rho apply to them.
RATINGS = ("rating", "se_rating", "solver_rating")


def label(column: str) -> str:
    """The axis label of a column: its glossary entry, else the name itself.

    >>> label("solver_rating"), label("my_metric")
    ('linkgraph rating (hardest step, SE scale)', 'my_metric')
    """
    return GLOSSARY.get(column, column)


def _float(v: Any) -> float | None:
    if v is None or v == "" or isinstance(v, bool):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def series(rows: list[dict], x: str, y: str | None, by: str | None) -> dict[str, tuple[list[float], list[float]]]:
    """Numeric (xs, ys) per value of `by` (one series ``"all"`` without it); error rows left out.

    >>> rows = [{"a": "1", "b": "2", "g": "p"}, {"a": "x", "b": "3", "g": "p"}, {"a": "4", "b": "5", "g": "q"}]
    >>> series(rows, "a", "b", "g")
    {'p': ([1.0], [2.0]), 'q': ([4.0], [5.0])}
    """
    out: dict[str, tuple[list[float], list[float]]] = {}
    for row in rows:
        if row.get("error"):
            continue
        xv = _float(row.get(x))
        yv = _float(row.get(y)) if y else 0.0
        if xv is None or yv is None:
            continue
        key = str(row.get(by, "")) if by else "all"
        xs, ys = out.setdefault(key, ([], []))
        xs.append(xv)
        ys.append(yv)
    return dict(sorted(out.items()))


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=float)
    ranks[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):  # ties share their mean rank
        tie = values == v
        if tie.sum() > 1:
            ranks[tie] = ranks[tie].mean()
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation of `x` and `y` (nan for fewer than 3 pairs or a constant side).

    >>> round(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 3), round(spearman([1, 2, 3, 4], [4, 3, 2, 1]), 3)
    (1.0, -1.0)
    >>> round(spearman([1, 2, 2, 3], [1, 3, 2, 4]), 3)
    0.949
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) != len(b):
        raise OptionError(f"spearman: {len(a)} x values but {len(b)} y values")
    if len(a) < 3:
        return math.nan
    ra, rb = _ranks(a), _ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return math.nan
    return float(np.corrcoef(ra, rb)[0, 1])


def is_discrete(values: Sequence[float]) -> float | None:
    """The step of a discrete axis (1 for whole numbers, 0.1 for ratings with one decimal), or None.

    >>> is_discrete([1, 2, 5]), is_discrete([7.1, 7.2, 8.3]), is_discrete([0.123, 0.5])
    (1.0, 0.1, None)
    """
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return None
    for step in (1.0, 0.1):
        scaled = v / step
        if np.allclose(scaled, np.round(scaled), atol=1e-6) and len(np.unique(np.round(scaled))) <= 200:
            return step
    return None


def fitted_bins(values: Sequence[float], default: int = 30) -> np.ndarray | int:
    """Histogram bins: for discrete values one bin per value on their grid, else `default`.

    >>> fitted_bins([1, 2, 2, 4]).tolist()
    [0.5, 1.5, 2.5, 3.5, 4.5]
    """
    step = is_discrete(values)
    if step is None:
        return default
    v = np.asarray(values, dtype=float)
    lo, hi = np.round(v.min() / step), np.round(v.max() / step)
    return (np.arange(lo, hi + 2) - 0.5) * step


def _jitter(values: list[float], step: float | None, rng: np.random.Generator) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if step is None:
        return v
    return v + rng.uniform(-step / 3, step / 3, size=len(v))


def plot(
    rows: list[dict],
    out: str | os.PathLike,
    *,
    x: str,
    y: str | None = None,
    by: str | None = None,
    kind: str = "scatter",
    bins: int | None = None,
    title: str | None = None,
    dpi: int = 150,
    jitter: bool | None = None,
    diagonal: bool | None = None,
) -> dict[str, int]:
    """Draw `rows` to the image file `out` (``.png``, ``.svg``, ``.pdf``); return the points per series.

    Parameters
    ----------
    rows : list of dict
        Batch or compare rows (as `linkgraph.research.batch.read_rows` reads them).
    x, y : str
        Columns for the axes (`y` for a scatter only).
    by : str, optional
        One series per value of this column.
    kind : {"scatter", "hist"}
    bins : int, optional
        Histogram bins (default: one per value for discrete data, else 30).
    title : str, optional
        Default: from the glossary labels.
    dpi : int
        Resolution of a PNG (the figure is 7 x 5 inches).
    jitter : bool, optional
        Jitter discrete axes (default: yes for a scatter).
    diagonal : bool, optional
        Draw y = x (default: when both axes are ratings, `RATINGS`).

    Raises
    ------
    OptionError
        A missing column, no numeric values, a bad option, or no matplotlib.
    """
    check_choice("--kind", [kind], ("scatter", "hist"))
    if kind == "scatter" and not y:
        raise OptionError("--y: a scatter plot needs --y METRIC (or use --kind hist)")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 20 <= dpi <= 1200:
        raise OptionError(f"--dpi: expected a whole number from 20 to 1200, found {dpi!r}")
    if bins is not None and bins < 1:
        raise OptionError(f"--bins: expected 1 or more, found {bins}")
    if not rows:
        raise OptionError("RESULTS: no rows")
    for col in (x, y, by):
        if col and col not in rows[0]:
            raise OptionError(f"{col!r}: no such column; columns are {', '.join(rows[0])}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionError("plot needs matplotlib: pip install linkgraph[plot]") from None
    data = series(rows, x, y, by)
    if not data:
        raise OptionError(f"no numeric values in column {x!r}" + (f" and {y!r}" if y else ""))
    all_x = [v for xs, _ in data.values() for v in xs]
    all_y = [v for _, ys in data.values() for v in ys]
    rated = kind == "scatter" and (x in RATINGS or y in RATINGS)
    rng = np.random.default_rng(0)
    fig, ax = plt.subplots(figsize=(7, 5), dpi=dpi)
    if kind == "scatter":
        jit = True if jitter is None else jitter
        sx = is_discrete(all_x) if jit else None
        sy = is_discrete(all_y) if jit else None
        for key, (xs, ys) in data.items():
            name = f"{key} (n={len(xs)})" if by else f"n={len(xs)}"
            if rated:
                name += f", rho={spearman(xs, ys):.3f}"
            ax.scatter(_jitter(xs, sx, rng), _jitter(ys, sy, rng), s=9, alpha=0.45, linewidths=0, label=name)
        if by and rated and len(data) > 1:
            ax.plot([], [], " ", label=f"all: n={len(all_x)}, rho={spearman(all_x, all_y):.3f}")
        if diagonal if diagonal is not None else (x in RATINGS and y in RATINGS):
            lo, hi = min(min(all_x), min(all_y)), max(max(all_x), max(all_y))
            ax.plot([lo, hi], [lo, hi], color="#555555", linewidth=1, linestyle="--", label="y = x")
        notes = [f"{'x' if s == sx else 'y'} jittered by up to ±{s / 3:.2g}" for s in (sx, sy) if s]
        if sx and sy:
            notes = [f"both axes jittered (±{sx / 3:.2g}, ±{sy / 3:.2g})"]
        if notes:
            ax.annotate("; ".join(notes), xy=(1, 0), xycoords="axes fraction", ha="right", va="bottom",
                        fontsize=7, color="#777777", xytext=(-3, 3), textcoords="offset points")
        ax.set_ylabel(label(y))
    else:
        edges = fitted_bins(all_x, bins or 30) if bins is None else bins
        for key, (xs, _) in data.items():
            name = f"{key} (n={len(xs)})" if by else f"n={len(xs)}"
            ax.hist(xs, bins=edges, alpha=0.6 if by else 0.9, label=name, edgecolor="white", linewidth=0.4)
        ax.set_ylabel("puzzles")
    ax.set_xlabel(label(x))
    ax.set_title(title or (f"{label(y)} against {label(x)}" if kind == "scatter" else f"distribution of {label(x)}"),
                 fontsize=11)
    ax.legend(fontsize="small")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    with atomic_path(out) as part:  # the old picture or the whole new one
        fig.savefig(part, metadata={"Software": None} if str(out).endswith(".png") else None)
    plt.close(fig)
    return {k: len(v[0]) for k, v in data.items()}
