import pytest

import linkgraph as lg
from linkgraph.io import parse_line, read_puzzles

P = lg.samples.GNPX_FORCECHAIN


def test_columns():
    assert parse_line(f"{P}\t9.3", 1).rating == 9.3
    line = parse_line(f"Golden Nugget\t{P}", 4)
    assert line.name == "Golden Nugget" and line.puzzle == P
    assert parse_line(f"{P}\t-", 2).rating is None


def test_bad_line_is_a_row_not_a_crash(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(f"{P}\n# comment\n\n{P[:-1]}\n{P}\r\n")
    lines = list(read_puzzles(f))
    assert [ln.number for ln in lines] == [1, 4, 5]
    with pytest.raises(lg.PuzzleFormatError, match="line 4: expected 81"):
        lines[1].grid()
    assert lines[2].grid() == lines[0].grid()


def test_missing_file(tmp_path):
    with pytest.raises(lg.PuzzleFormatError, match="no such file"):
        list(read_puzzles(tmp_path / "nope.txt"))
