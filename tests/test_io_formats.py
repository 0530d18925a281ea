"""Puzzle formats of other programs, read from hand-made files that follow each format's
documentation (tests/cases/formats/), written back, and converted by ``linkgraph convert``.

Expected values are typed by hand from the files (and the GNPX puzzle's givens); the
SudokuWiki boards are encoded in this file by the formula of SudokuWiki's "Sudoku String
Definitions" page, independently of linkgraph's writer."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import cli
from linkgraph.io import detect_format, format_puzzle, parse_puzzle, read_puzzles

CASES = Path(__file__).parent / "cases" / "formats"
SEED = lg.samples.GNPX_FORCECHAIN
SUDOCUE = "2..1.5..3.54...71..1.2.3.8.6.28.73.4.........1.53.98.6.2.7.1.6..81...24.7..4.2..1"
# progress.sdx typed by hand: the GNPX puzzle solved but for four cells, which keep these candidates
OPEN = {"r7c2": "28", "r7c3": "19", "r8c2": "28", "r8c3": "19"}
SOLUTION = "152647389397158624846923517518394276264715893973862451429576138681239745735481962"


def cands(grid: lg.Grid, cell: str) -> str:
    return "".join(map(str, grid.digits(lg.Cell.parse(cell))))


def wiki_board(cells: list[tuple[str, bool]]) -> str:
    """SudokuWiki's 162-character board, by the page's formula: each cell's digits as bits
    (digit d = 2**(d-1)), shifted left once, plus 1 for a clue, in base 32, two characters."""
    digits = "0123456789abcdefghijklmnopqrstuv"
    out = ""
    for text, clue in cells:
        n = sum(2 ** (int(d) - 1) for d in text) * 2 + (1 if clue else 0)
        out += digits[n // 32] + digits[n % 32]
    return out


def sdx_cells() -> list[tuple[str, bool]]:
    tokens = (CASES / "progress.sdx").read_text().split()
    return [(t[1:] if t.startswith("u") else t, len(t) == 1) for t in tokens]


def test_sdk_with_sudocue_information_lines():
    text = (CASES / "sudocue.sdk").read_text()
    assert detect_format(text) == "sdk"
    grid = parse_puzzle(text)
    assert grid.to_puzzle() == SUDOCUE
    assert int(grid.givens.sum()) == sum(ch != "." for ch in SUDOCUE)
    rows = format_puzzle(grid, "sdk", name="A random puzzle").splitlines()
    assert rows[0] == "#DA random puzzle"
    assert rows[1:] == [ln for ln in text.splitlines() if not ln.startswith("#")]


def test_sdm_collection_one_puzzle_a_line():
    lines = list(read_puzzles(CASES / "collection.sdm"))
    assert [line.grid().to_puzzle() for line in lines] == [SEED, SUDOCUE]


def test_sdx_progress_givens_user_digits_and_candidates():
    text = (CASES / "progress.sdx").read_text()
    assert detect_format(text) == "sdx"
    grid = parse_puzzle(text)
    assert grid.to_puzzle() == SEED  # the plain digits are the givens
    assert int(grid.givens.sum()) == sum(ch != "." for ch in SEED)
    assert {cell: cands(grid, cell) for cell in OPEN} == OPEN
    user = (grid.counts == 1) & ~grid.givens
    assert int(user.sum()) == 81 - len(OPEN) - int(grid.givens.sum())
    assert grid.to_puzzle(solved=True) == "".join(
        "." if f"r{i // 9 + 1}c{i % 9 + 1}" in OPEN else ch for i, ch in enumerate(SOLUTION)
    )
    assert format_puzzle(grid, "sdx") == text.strip()


def test_simple_sudoku_ss():
    text = (CASES / "simple.ss").read_text()
    assert detect_format(text) == "ss"
    grid = parse_puzzle(text)
    assert grid.to_puzzle() == SEED
    assert format_puzzle(grid, "ss") == text.strip()


def test_hodoku_library_lines():
    lines = list(read_puzzles(CASES / "library.txt"))
    assert [line.number for line in lines] == [2, 3, 4]
    plain, marked, step = (line.grid() for line in lines)
    assert plain == lg.Grid.parse(SEED) and plain.to_puzzle() == SEED
    # +4 at r1c5 and +3 at r1c7 are placed, not given; 822 and 623 delete 8 from r2c2, 6 from r2c3
    assert marked.to_puzzle() == SEED
    assert cands(marked, "r1c5") == "4" and not marked.givens[4] and marked.placed[4]
    assert cands(marked, "r2c2") == "79" and cands(marked, "r2c3") == "79"
    assert cands(plain, "r2c2") == "789" and cands(plain, "r2c3") == "679"
    # a step's line: its eliminations field (822) is the step's, not the position's
    assert step == plain
    assert format_puzzle(plain, "hodoku") == lines[0].puzzle
    back = parse_puzzle(format_puzzle(marked, "hodoku"))
    assert back == marked and back.to_puzzle() == SEED


def test_sudokuwiki_links():
    assert parse_puzzle(lg.io.SUDOKUWIKI_URL + SEED) == lg.Grid.parse(SEED)
    assert parse_puzzle(lg.io.SUDOKUWIKI_URL + SEED.replace(".", "0")) == lg.Grid.parse(SEED)
    board = wiki_board(sdx_cells())
    # by hand: r1c1 given 1 -> 1*2+1 = 3 -> '03'; r1c5 placed 4 -> 8*2 = 16 -> '0g';
    # r7c2 {2,8} -> (2+128)*2 = 260 = 8*32+4 -> '84'
    assert board[0:2] == "03" and board[8:10] == "0g" and board[2 * 55 : 2 * 55 + 2] == "84"
    position = parse_puzzle((CASES / "progress.sdx").read_text())
    link = "https://www.sudokuwiki.org/sudoku.htm?bd=" + board
    assert parse_puzzle(link) == position
    assert np.array_equal(parse_puzzle(link).givens, position.givens)
    assert format_puzzle(position, "sudokuwiki") == link
    # a fresh puzzle travels as its 81 givens
    assert format_puzzle(lg.Grid.parse(SEED), "sudokuwiki") == lg.io.SUDOKUWIKI_URL + SEED.replace(".", "0")


@pytest.mark.parametrize(
    "text, message",
    [
        (":0000:x:1526.7.89:::", "HoDoKu line: expected 81 cells in the grid field, found 9"),
        (f":0000:x:{SEED}:8x2::", "deleted candidate '8x2'"),
        (lg.io.SUDOKUWIKI_URL + "abc", "expected a board of 81 or 162 characters, found 3"),
        (lg.io.SUDOKUWIKI_URL + "zz" * 81, "r1c1 (characters 1-2): 'zz' is not base 32"),
        ("https://www.sudokuwiki.org/sudoku.htm?x=1", "no 'bd=' board"),
        ("1 5 2 6 u4 7 u3 8 9\n" * 8 + "1 5 2 6 u4 7 u3 8", "sdx: expected 81 cells in 9 lines, found 80"),
        ("1 5 2 6 u47 7 u3 8 9\n" + "1 " * 72, "sdx: r1c5 (cell 5): unexpected 'u47'"),
    ],
)
def test_bad_text_names_where(text, message):
    with pytest.raises(lg.PuzzleFormatError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_puzzle(text)


def test_grid_formats_refuse_other_sizes():
    small = lg.Grid.parse("1..." + "." * 12)
    with pytest.raises(lg.OptionError, match="format ss: holds 9x9 grids only, found 4x4"):
        format_puzzle(small, "ss")
    assert format_puzzle(small, "puzzle") == "1..............."


# ---- the command line ---------------------------------------------------------------------


def test_solve_reads_a_sudokuwiki_link_and_a_hodoku_line(capsys):
    assert cli.main(["solve", "https://www.sudokuwiki.org/sudoku.htm?bd=" + SEED]) == 0
    first = capsys.readouterr().out
    assert cli.main(["solve", f":0000:x:{SEED}:::"]) == 0
    assert capsys.readouterr().out == first


def test_solve_prints_the_position_as_a_sudokuwiki_link(capsys):
    assert cli.main(["solve", SEED, "--max-steps", "3", "--format", "sudokuwiki"]) == 1  # not solved
    link = capsys.readouterr().out.strip()
    assert link.startswith(lg.io.SUDOKUWIKI_URL) and len(link) == len(lg.io.SUDOKUWIKI_URL) + 162
    result = lg.solve(lg.Grid.parse(SEED), max_steps=3)
    assert parse_puzzle(link) == result.final
    assert cli.main(["solve", SEED, "--hint", "--format", "hodoku"]) == 0
    assert capsys.readouterr().out.strip() == f":0000:x:{SEED}:::"


@pytest.mark.parametrize(
    "source, suffix, to",
    [("sudocue.sdk", ".ss", None), ("simple.ss", ".sdk", None), ("progress.sdx", ".sdx", None),
     ("progress.sdx", ".txt", "sudokuwiki"), ("collection.sdm", ".txt", "hodoku")],
)
def test_convert_round_trips(tmp_path, source, suffix, to, capsys):
    out = tmp_path / f"out{suffix}"
    argv = ["convert", str(CASES / source), str(out)] + (["--to", to] if to else [])
    assert cli.main(argv) == 0
    back = tmp_path / f"back{Path(source).suffix}"
    assert cli.main(["convert", str(out), str(back)]) == 0
    original = (CASES / source).read_text()
    if source.endswith(".sdk"):  # the information lines are SudoCue's own; the grid comes back
        original = "\n".join(ln for ln in original.splitlines() if not ln.startswith("#")) + "\n"
    assert back.read_text() == original
    assert "Traceback" not in capsys.readouterr().err


def test_convert_hodoku_lines_to_hodoku_lines(tmp_path, capsys):
    out = tmp_path / "out.txt"
    assert cli.main(["convert", str(CASES / "library.txt"), str(out), "--to", "hodoku"]) == 0
    given = [ln for ln in (CASES / "library.txt").read_text().splitlines() if ln.startswith(":")]
    # positions come back as they were; the step line becomes its position (technique 0000, x)
    assert out.read_text().splitlines() == [given[0], given[1], given[0]]
    assert "3 puzzles" in capsys.readouterr().err


def test_convert_errors_leave_no_file(tmp_path, capsys):
    bad = tmp_path / "bad.sdm"
    bad.write_text(SEED + "\n" + SEED[:80] + "\n")
    out = tmp_path / "out.sdm"
    assert cli.main(["convert", str(bad), str(out)]) == 2
    assert "line 2: expected 81 cells" in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.glob(".*part"))
    assert cli.main(["convert", str(CASES / "collection.sdm"), str(tmp_path / "one.ss")]) == 2
    assert "format ss holds one puzzle" in capsys.readouterr().err
    assert cli.main(["convert", str(CASES / "collection.sdm"), str(tmp_path / "x.csv")]) == 2
    assert "unknown suffix '.csv'" in capsys.readouterr().err
    assert cli.main(["convert", str(tmp_path / "missing.sdm"), "-"]) == 2
    assert "missing.sdm: no such file" in capsys.readouterr().err


def test_simple_sudoku_givens_and_solved_cells():
    """Simple Sudoku's second export: the givens, then the grid with the cells solved so far
    (r1c5=4 and r1c7=3 here, typed by hand)."""
    grid = parse_puzzle((CASES / "progress.ss").read_text())
    assert grid.to_puzzle() == SEED
    assert grid.to_puzzle(solved=True)[:9] == "152647389"
    assert not grid.givens[4] and grid.placed[4] and not grid.givens[6] and grid.placed[6]
    # a position with candidates removed beyond the solved cells' peers: three grids, read back equal
    position = lg.solve(lg.Grid.parse(SEED), max_steps=12).final
    text = format_puzzle(position, "ss")
    assert text.count("*-") == 6  # three framed grids
    assert parse_puzzle(text) == position
    with pytest.raises(lg.PuzzleFormatError, match="ss: grid 2: expected 81 cells, found 9"):
        parse_puzzle((CASES / "simple.ss").read_text() + "\n*-----------*\n|152|647|389|\n*-----------*\n")


# ---- SudokuWiki boards, written from SudokuWiki's documented rule ----------------------------

def _sudokuwiki_encode(grid_tokens: list[str], clues: set[int]) -> str:
    """SudokuWiki's 162-character board, written from its documented rule (one bit per
    digit, 1 -> 1 ... 9 -> 256, shifted left once, bit 0 set for a clue, two base-32
    characters per cell), independently of the reader under test."""
    digits = "0123456789abcdefghijklmnopqrstuv"
    out = []
    for i, token in enumerate(grid_tokens):
        n = sum(1 << (int(d) - 1) for d in token) * 2 + (i in clues)
        out.append(digits[n // 32] + digits[n % 32])
    return "".join(out)


def test_sudokuwiki_link_with_81_characters_reads_as_the_puzzle():
    link = "https://www.sudokuwiki.org/sudoku.htm?bd=" + lg.samples.GNPX_FORCECHAIN.replace(".", "0")
    assert lg.io.parse_puzzle(link) == lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    assert lg.io.parse_puzzle("sudoku.htm?x=1&bd=" + lg.samples.GNPX_FORCECHAIN.replace(".", "0") + "&y=2") == lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)


def test_sudokuwiki_162_character_board_keeps_candidates_and_givens():
    start = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    grid = start.eliminate([lg.Candidate.parse("r2c4#2")])  # a position that is not the start
    tokens = grid.tokens()
    clues = {i for i, ch in enumerate(lg.samples.GNPX_FORCECHAIN) if ch != "."}
    board = _sudokuwiki_encode(tokens, clues)
    # by hand: r1c1 is the given 1 -> (1 << 1) + 1 = 3 -> "03"; r2c4 holds 1 and 8 after the
    # elimination -> (1 + 128) * 2 = 258 = 8 * 32 + 2 -> "82"
    assert board[:2] == "03" and board[2 * 12 : 2 * 13] == "82"
    for text in (board, "https://www.sudokuwiki.org/sudoku.htm?bd=" + board, board.upper()):
        read = lg.io.parse_puzzle(text)
        assert read == grid
        assert sorted(np.flatnonzero(read.givens)) == sorted(clues)
    assert sorted(lg.io.parse_puzzle(board).digits(lg.Cell(1, 3))) == [1, 8]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("https://www.sudokuwiki.org/sudoku.htm?bd=123", "expected a board of 81 or 162 characters, found 3"),
        ("?bd=" + "0" * 162, "r1c1: no candidate left"),
        ("?bd=" + "w" * 162, "r1c1 (characters 1-2): 'ww' is not base 32"),
    ],
)
def test_sudokuwiki_board_errors_name_what_and_where(text, message):
    with pytest.raises((lg.PuzzleFormatError, lg.InvalidPuzzleError), match=re.escape(message)):
        lg.io.parse_puzzle(text)
