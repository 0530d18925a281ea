"""
Agreement of ``linkgraph rate`` with Sudoku Explainer's own ER/EP/ED
=====================================================================

Usage::

    linkgraph rate linkgraph/data/puzzles/hardest_1106.se.tsv --workers 2 --format jsonl \\
        --log rate.jsonl --progress > /dev/null
    python examples/se_agreement.py rate.jsonl [more.jsonl ...] [linkgraph/data/puzzles/hardest_1106.se.tsv] [--explain]

Prints, for ER, EP and ED, the share of lines equal to SE's and within 0.1, Spearman's rho
of ER, the median and largest time per puzzle (the rows' process seconds), and every line
that disagrees, numbered from 0 among the reference's rated lines. With ``--explain``, each disagreeing puzzle is rated again
and the step where our rating parts from SE's is shown: for ED our first step, for EP the
hardest step before the first placement, for ER the first step rated above SE's ER (or our
hardest step when ours is lower). SE's own path is not known, only its three ratings.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
from rating_study import spearman  # noqa: E402


def explain(puzzle: str, se: tuple) -> list[str]:
    """Where our path's ratings part from SE's (`se`: ER, EP, ED)."""
    import linkgraph as lg
    from linkgraph.techniques.se.solver import rate

    result = rate(lg.Grid.parse(puzzle))
    hints = result.hints

    def show(i: int) -> str:
        h = hints[i]
        extra = f", complexity {h.complexity}" if hasattr(h, "complexity") else ""
        return f"step {i + 1}/{len(hints)}: {h.name} {h.difficulty:.1f}{extra}"

    out = []
    er, ep, ed = se
    if hints and ed is not None and round(hints[0].difficulty, 1) != ed:
        out.append(f"ED: ours {show(0)}; SE {ed}")
    first_place = next((i for i, h in enumerate(hints) if h.cell is not None), len(hints) - 1)
    if hints and ep is not None and round(result.ep, 1) != ep:
        i = max(range(first_place + 1), key=lambda j: hints[j].difficulty)
        out.append(f"EP: ours {show(i)} (first placement at step {first_place + 1}); SE {ep}")
    if hints and round(result.er, 1) != er:
        above = next((i for i, h in enumerate(hints) if round(h.difficulty, 1) > er), None)
        i = above if above is not None else max(range(len(hints)), key=lambda j: hints[j].difficulty)
        out.append(f"ER: ours {show(i)}; SE {er}")
    return out


def main(argv: list[str]) -> int:
    explaining = "--explain" in argv
    argv = [a for a in argv if a != "--explain"]
    logs = [a for a in argv if a.endswith(".jsonl")]
    others = [a for a in argv if not a.endswith(".jsonl")]
    by_puzzle: dict[str, dict] = {}
    for log in logs:
        for t in Path(log).read_text().splitlines():
            if t.strip():
                row = json.loads(t)
                # a puzzle in several logs counts once, rated if any log rated it
                if row["puzzle"] not in by_puzzle or not row.get("error"):
                    by_puzzle[row["puzzle"]] = row
    rows = list(by_puzzle.values())
    ref_path = Path(others[0]) if others else ROOT / "linkgraph" / "data" / "puzzles" / "hardest_1106.se.tsv"
    ref = {}
    index = {}
    for text in ref_path.read_text().splitlines():
        if text and not text.startswith("#"):
            p, *vals = text.split("\t")[:4]
            index[p] = len(ref)
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
    limits = [float(m.group(1)) for r in rows if r.get("error")
              for m in [re.search(r"no result within ([0-9.]+) s", r["error"])] if m]
    if secs:
        print(f"seconds per puzzle: median {statistics.median(secs):.1f}, max {max(secs):.1f} ({len(secs)} rated)")
    if limits:
        both = secs + limits
        print(f"{len(limits)} timed out; with them counted at their limit: median at least "
              f"{statistics.median(both):.1f} over {len(both)}")
    for r, s in pairs:
        ours = (round(r["er"], 1), round(r["ep"], 1), round(r["ed"], 1))
        if any(v is not None and v != o for v, o in zip(s, ours)):
            print(f"#{index[r['puzzle']]}: {r['puzzle']} ours {'/'.join(map(str, ours))} SE {'/'.join('-' if v is None else str(v) for v in s)} "
                  f"(hardest step: {r.get('hardest')})")
            if explaining:
                for text in explain(r["puzzle"], s):
                    print("    " + text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
