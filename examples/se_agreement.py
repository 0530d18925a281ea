"""
Agreement of ``linkgraph rate`` with Sudoku Explainer's own ER/EP/ED
=====================================================================

Usage::

    linkgraph rate linkgraph/data/puzzles/hardest_1106.se.tsv --workers 2 --format jsonl \\
        --log rate.jsonl --progress > /dev/null
    python examples/se_agreement.py rate.jsonl [linkgraph/data/puzzles/hardest_1106.se.tsv]

Prints, for ER, EP and ED, the share of lines equal to SE's and within 0.1, Spearman's rho
of ER, the median and largest time per puzzle (the rows' process seconds), and every line
that disagrees with both ratings.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
from rating_study import spearman  # noqa: E402


def main(argv: list[str]) -> int:
    rows = [json.loads(t) for t in Path(argv[0]).read_text().splitlines() if t.strip()]
    ref_path = Path(argv[1]) if len(argv) > 1 else ROOT / "linkgraph" / "data" / "puzzles" / "hardest_1106.se.tsv"
    ref = {}
    for text in ref_path.read_text().splitlines():
        if text and not text.startswith("#"):
            p, *vals = text.split("\t")[:4]
            ref[p] = tuple(None if v == "-" else float(v) for v in vals)
    pairs = [(r, ref[r["puzzle"]]) for r in rows if r["puzzle"] in ref and not r.get("error")]
    print(f"{len(pairs)} rated lines ({len(rows) - len(pairs)} with an error or not in the reference)")
    for i, name in enumerate(("ER", "EP", "ED")):
        key = name.lower()
        known = [(r, s) for r, s in pairs if s[i] is not None]
        eq = sum(1 for r, s in known if round(r[key], 1) == s[i])
        near = sum(1 for r, s in known if abs(r[key] - s[i]) <= 0.1 + 1e-9)
        print(f"{name}: equal {eq}/{len(known)} ({100 * eq / max(len(known), 1):.1f} %), "
              f"within 0.1 {near}/{len(known)} ({100 * near / max(len(known), 1):.1f} %)")
    if len(pairs) > 2:
        print(f"Spearman (ER): {spearman([s[0] for _, s in pairs], [r['er'] for r, _ in pairs]):.3f}")
    secs = [r["seconds"] for r in rows if r.get("seconds") is not None]
    if secs:
        print(f"seconds per puzzle: median {statistics.median(secs):.1f}, max {max(secs):.1f}")
    for r, s in pairs:
        ours = (round(r["er"], 1), round(r["ep"], 1), round(r["ed"], 1))
        if any(v is not None and v != o for v, o in zip(s, ours)):
            print(f"line {r['line']}: {r['puzzle']} ours {'/'.join(map(str, ours))} SE {'/'.join('-' if v is None else str(v) for v in s)} "
                  f"(hardest step: {r.get('hardest')})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
