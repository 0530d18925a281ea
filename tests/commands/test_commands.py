"""The command modules give the CLI its options and its JSON: one definition, two users."""

from __future__ import annotations

import argparse
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.commands import COMMANDS, json_text

GNPX = lg.samples.GNPX_FORCECHAIN
DIAB = ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54."


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def parse(command, argv):
    parser = argparse.ArgumentParser()
    COMMANDS[command].add_options(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("solve", []),
        ("solve", ["--ladder", "se"]),
        ("solve", ["--hint"]),
        ("solve", ["--max-steps", "4", "--proofs"]),
        ("links", ["--prepare", "basic", "--families", "cell,house"]),
        ("path", ["--prepare", "basic", "--", "+r2c8#1", "-r2c4#1"]),
        ("chains", ["--variant", "cell", "--notation", "eureka"]),
        ("nets", ["--depth", "1", "--all"]),
    ],
)
def test_cli_json_is_the_report_json(command, options):
    puzzle = DIAB if command == "solve" else GNPX
    code, out, _ = run([command, puzzle, "--format", "json", *options])
    report = COMMANDS[command].report(lg.Grid.parse(puzzle), parse(command, [o for o in options]))
    assert out == json_text(report.data)
    assert code == report.status


def test_solve_proofs_carry_the_position_and_the_proof_of_every_step():
    code, out, _ = run(["solve", GNPX, "--format", "json", "--proofs",
                        "--ladder", "full-house,hidden-single,naked-single,forcing-chain-contradiction"])
    import json

    data = json.loads(out)
    assert code == 0 and data["solved"]
    grid = lg.Grid.parse(GNPX)
    assert data["start"] == grid.to_candidates()
    assert data["givens"] == GNPX
    position = grid
    for row in data["steps"]:
        # the position a step applies to is the start with every earlier step applied
        assert row["before"] == position.to_candidates()
        for cand in row["eliminations"]:
            assert position.has(lg.Candidate.parse(cand))
        position = position.eliminate(map(lg.Candidate.parse, row["eliminations"])).place(
            map(lg.Candidate.parse, row["placements"]))
        ids = {n["id"] for n in row["proof"]["nodes"]}
        assert all(e["from"] in ids and e["to"] in ids for e in row["proof"]["edges"])
    chain = next(r for r in data["steps"] if r["technique"] == "forcing-chain-contradiction")
    # r4c8<>3 by GNPX's contradiction chain through two ALS (README): both ALS are outlined
    assert chain["eliminations"] == ["r4c8#3"]
    assert {o["text"] for o in chain["proof"]["outlines"]} == {"r48c4{237}", "r7c58{237}"}
    assert position.to_puzzle(solved=True) == data["grid"]


def test_bad_options_fail_the_same_way_in_the_cli():
    code, out, err = run(["nets", GNPX, "--depth", "9", "--format", "json"])
    assert code == 2 and out == ""
    assert "OptionError: argument --depth: invalid choice: 9 (choose from 0, 1, 2)" in err


# ---- the uniqueness check is bounded (--check-limit) ------------------------------------------

from tests.test_oracle import HARD25  # noqa: E402


def _run_cli(capsys, *argv):
    from linkgraph.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["solve", "links", "chains", "nets", "render"])
@pytest.mark.parametrize("form", ["text", "json"])
def test_a_check_past_check_limit_is_one_line_exit_2_nothing_on_stdout(capsys, tmp_path, command, form):
    extra = ["--nets", "-o", tmp_path / "p.svg"] if command == "render" else ["--format", form]
    code, out, err = _run_cli(capsys, command, HARD25, "--check-limit", "0.3", *extra)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("linkgraph: SearchLimitError: the uniqueness check of this 25x25 grid found no answer "
                          "within --check-limit 0.3 s (")
    assert "--check-limit S, 0 for no limit" in err and "--no-check" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad", ["-1", "nan", "inf"])
def test_a_bad_check_limit_is_refused(capsys, bad):
    code, out, err = _run_cli(capsys, "solve", lg.samples.GNPX_FORCECHAIN, f"--check-limit={bad}")
    assert code == 2 and out == ""
    assert err.startswith("linkgraph: OptionError: --check-limit: expected a number of seconds >= 0")


def test_check_limit_0_is_no_limit_and_the_default_is_documented(capsys):
    from linkgraph.commands.common import CHECK_LIMIT

    code, out, _ = _run_cli(capsys, "solve", lg.samples.GNPX_FORCECHAIN, "--check-limit", "0", "--max-steps", "1")
    assert code == 1 and out  # checked (no limit), one step, not solved
    code, out, _ = _run_cli(capsys, "solve", "--help")
    assert code == 0 and f"--check-limit S give up the uniqueness check after S seconds (exit 2; default {CHECK_LIMIT:g}," \
        in " ".join(out.split())


def test_time_limit_below_check_limit_still_stops_solve_with_exit_1(capsys):
    code, out, err = _run_cli(capsys, "solve", HARD25, "--time-limit", "0.3")
    assert code == 1 and "stopped at --time-limit 0.3 s in the uniqueness check" in err
