"""The JSON API: what the CLI prints, the CLI's messages, bounded requests, loopback only."""

from __future__ import annotations

import io
import json
import urllib.parse
from contextlib import redirect_stderr, redirect_stdout

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.check.checker import check_step
from linkgraph.steps import make_step
from linkgraph.cli.main import main
from linkgraph.oracle import solve_unique

from .conftest import Server, wait_until

GNPX = lg.samples.GNPX_FORCECHAIN
DIAB = ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54."


def cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def query(**params) -> str:
    return urllib.parse.urlencode(params)


@pytest.mark.parametrize(
    ("command", "params", "argv"),
    [
        ("solve", {"puzzle": DIAB}, []),
        ("solve", {"puzzle": DIAB, "ladder": "se"}, ["--ladder", "se"]),
        ("solve", {"puzzle": DIAB, "hint": "1"}, ["--hint"]),
        ("solve", {"puzzle": DIAB, "max_steps": "3", "proofs": "true"}, ["--max-steps", "3", "--proofs"]),
        ("links", {"puzzle": GNPX, "prepare": "basic"}, ["--prepare", "basic"]),
        ("path", {"puzzle": GNPX, "from": "+r2c8#1", "to": "-r4c4#3"}, ["--", "+r2c8#1", "-r4c4#3"]),
        ("chains", {"puzzle": GNPX, "variant": "contradiction"}, ["--variant", "contradiction"]),
        ("nets", {"puzzle": GNPX, "depth": "1", "kind": "verity"}, ["--depth", "1", "--kind", "verity"]),
    ],
)
def test_api_answers_exactly_what_the_cli_prints(server, command, params, argv):
    status, headers, body = server.get(f"/api/{command}?{query(**params)}")
    code, out, _ = cli([command, params["puzzle"], "--format", "json", *argv])
    assert status == 200
    assert body == out  # byte for byte
    assert headers["X-Linkgraph-Status"] == str(code)
    assert headers["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    ("command", "params", "argv"),
    [
        ("solve", {"puzzle": "1526.7.89"}, []),
        ("solve", {"puzzle": "11" + "." * 79}, []),
        ("solve", {"puzzle": "." * 81}, []),  # several solutions
        ("solve", {"puzzle": DIAB, "ladder": "x-wnig"}, ["--ladder", "x-wnig"]),
        ("nets", {"puzzle": GNPX, "depth": "9"}, ["--depth", "9"]),
        ("path", {"puzzle": GNPX, "from": "+r2c8#1", "to": "+r10c1#1"}, ["--", "+r2c8#1", "+r10c1#1"]),
        ("links", {"puzzle": GNPX, "families": "cel"}, ["--families", "cel"]),
    ],
)
def test_bad_input_answers_400_with_the_cli_message(server, command, params, argv):
    status, headers, body = server.get(f"/api/{command}?{query(**params)}")
    code, out, err = cli([command, params["puzzle"], "--format", "json", *argv])
    assert code == 2 and out == ""
    message = err.strip().splitlines()[-1]
    assert message.startswith("linkgraph: ")
    assert status == 400
    assert json.loads(body) == {"error": message.removeprefix("linkgraph: ")}


def test_unknown_parameters_routes_and_repeats_are_refused(server):
    status, _, body = server.get(f"/api/nets?{query(puzzle=GNPX, colour='red')}")
    assert status == 400 and "unrecognized arguments: --colour=red" in json.loads(body)["error"]
    status, _, body = server.get(f"/api/render?{query(puzzle=GNPX)}")
    assert status == 404 and "no API route 'render'" in json.loads(body)["error"]
    status, _, body = server.get(f"/api/solve?puzzle={GNPX}&puzzle={GNPX}")
    assert status == 400 and "given twice" in json.loads(body)["error"]
    status, _, body = server.get("/api/solve")
    assert status == 400 and json.loads(body)["error"].startswith("OptionError: puzzle:")


def test_the_api_reads_no_files(server, tmp_path):
    path = tmp_path / "puzzle.txt"
    path.write_text(GNPX + "\n")
    status, _, body = server.get(f"/api/solve?{query(puzzle=str(path))}")
    assert status == 400 and json.loads(body)["error"].startswith("PuzzleFormatError")
    status, _, body = server.get(f"/api/solve?{query(puzzle='-')}")
    assert status == 400


def test_oversized_query_is_refused(server):
    status, _, body = server.get(f"/api/solve?{query(puzzle='.' * 40_000)}")
    assert status in (400, 413, 414, 431)
    if status == 400:
        assert "at most" in json.loads(body)["error"]


def test_propagate_rounds_match_the_solution(server):
    grid = lg.Grid.parse(GNPX)
    solution = solve_unique(grid)  # the oracle's values, found by plain search
    truth = {lg.Candidate(lg.Cell(i // 9, i % 9), int(v)) for i, v in enumerate(solution)}
    # +r2c8#2 is the solution's digit: everything it implies agrees with the solution
    status, _, body = server.get(f"/api/propagate?{query(**{'puzzle': GNPX, 'assert': '+r2c8#2', 'depth': '0'})}")
    assert status == 200
    data = json.loads(body)
    assert data["contradiction"] is None
    assert data["rounds"][0] == {"round": 0, "literals": ["+r2c8#2"]}
    literals = [lg.Literal.parse(x) for row in data["rounds"] for x in row["literals"]]
    assert len(literals) > 20
    for lit in literals:
        assert (lit.cand in truth) == lit.on, lit
    # +r2c8#1 is false: by hand, round 1 holds -r2c4#1 (row 2 shares digit 1) and a contradiction follows
    status, _, body = server.get(f"/api/propagate?{query(**{'puzzle': GNPX, 'assert': '+r2c8#1', 'explain': '-r2c4#1'})}")
    data = json.loads(body)
    assert "-r2c4#1" in data["rounds"][1]["literals"] and "-r2c8#2" in data["rounds"][1]["literals"]
    con = data["contradiction"]
    assert con is not None and con["round"] == len(data["rounds"]) - 1
    assert [(e["from"], e["to"], e["via"]) for e in data["explain"]["proof"]["edges"]] == [("+r2c8#1", "-r2c4#1", "r2#1")]
    assert data["explain"]["svg"].startswith("<svg")


def test_propagate_contradiction_proof_passes_the_checker(server):
    status, _, body = server.get(f"/api/propagate?{query(**{'puzzle': GNPX, 'assert': 'r2c8#1', 'explain': 'contradiction'})}")
    data = json.loads(body)
    assert status == 200 and data["assert"] == ["+r2c8#1"]  # a bare candidate (a '+' read as space) is ON
    proof = data["explain"]["proof"]
    roles = {n["id"]: n["role"] for n in proof["nodes"]}
    assert roles["+r2c8#1"] == "premise"
    assert set(data["contradiction"]["literals"]) <= {n["id"] for n in proof["nodes"]}
    # rebuilt from the JSON alone, the proof is a contradiction net the independent checker accepts
    P = nx.DiGraph(**proof["graph"])
    for node in proof["nodes"]:
        P.add_node(lg.Literal.parse(node["id"]), role=node["role"])
    for e in proof["edges"]:
        P.add_edge(lg.Literal.parse(e["from"]), lg.Literal.parse(e["to"]), kind=e["kind"], family=e["family"], via=e["via"])
    grid = lg.Grid.parse(GNPX)
    premise = lg.Literal.parse("+r2c8#1")

    def step(graph):
        return make_step("forcing-net-contradiction", eliminations=[premise.cand], premises=[premise], proof=graph)

    assert check_step(grid, step(P)) is None
    broken = P.copy()
    broken.remove_edge(*next(iter(P.edges)))
    with pytest.raises(lg.ProofError):
        check_step(grid, step(broken))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"assert": "+r2c8#9"}, "assert: r2c8#9 is not an open candidate of this position"),
        ({"assert": "+r1c1#1"}, "assert: r1c1#1 is not an open candidate of this position"),
        ({"assert": "+r2c8#x"}, "NotationError"),
        ({"assert": ""}, "assert: expected literals"),
        ({"assert": "+r2c8#1", "depth": "3"}, "depth: expected 0..2, found 3"),
        ({"assert": "+r2c8#2", "explain": "-r9c9#1"}, "explain: -r9c9#1 does not follow from the assertions"),
        ({"assert": "+r2c8#2", "explain": "contradiction"}, "explain: the assertions lead to no contradiction"),
        ({"assert": "+r2c8#1", "colour": "red"}, "unknown parameter 'colour'"),
    ],
)
def test_propagate_bad_input(server, params, message):
    status, _, body = server.get(f"/api/propagate?{query(puzzle=GNPX, **params)}")
    assert status == 400
    assert message in json.loads(body)["error"]


def test_explore_gives_the_page_its_data(server):
    status, headers, body = server.get(f"/api/explore?{query(puzzle=GNPX, ladder='forcing-chains')}")
    assert status == 200
    data = json.loads(body)
    code, out, _ = cli(["solve", GNPX, "--format", "json", "--proofs", "--ladder",
                        "full-house,hidden-single,naked-single,forcing-chain-contradiction,forcing-chain-cell,forcing-chain-house"])
    assert data["solve"] == json.loads(out)
    assert len(data["steps"]) == len(data["solve"]["steps"])
    chain = [i for i, s in enumerate(data["solve"]["steps"]) if s["technique"].startswith("forcing-chain")]
    assert chain and all(data["steps"][i]["svg"].startswith("<svg") for i in chain)
    assert data["board"]["size"] == 9 and len(set(data["board"]["regions"])) == 9


def test_page_is_one_document_for_the_loopback_only(server):
    status, headers, body = server.get("/")
    assert status == 200 and body.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    status, _, body = server.get("/", headers={"Host": "attacker.example:80"})
    assert status == 400 and "loopback" in body
    status, _, _ = server.get("/api/solve?" + query(puzzle=GNPX), headers={"Host": "attacker.example"})
    assert status == 400


def test_serve_listens_on_the_loopback_by_default():
    from linkgraph.cli.main import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and args.request_timeout == 10.0


def test_a_request_past_the_timeout_answers_504_and_the_server_goes_on():
    srv = Server("--request-timeout", "0.5", "--workers", "1")
    try:
        # a nested net search over every conclusion of Golden Nugget takes far longer than 0.5 s
        slow = query(puzzle=lg.samples.GOLDEN_NUGGET, level="1", all="1", depth="2")
        status, _, body = srv.get(f"/api/nets?{slow}")
        assert status == 504 and "timeout" in json.loads(body)["error"]
        # the worker was replaced: quick requests are answered again (the new worker loads first)
        assert wait_until(lambda: srv.get(f"/api/path?{query(puzzle=GNPX, **{'from': '+r2c8#1', 'to': '-r2c4#1'})}")[0] == 200,
                          timeout=60)
        status, _, body = srv.get("/healthz")
        assert status == 200 and json.loads(body)["replaced"] >= 1
    finally:
        srv.stop()
    assert srv.process.returncode is not None


def test_explore_reads_candidate_grids_and_sudokuwiki_links(server):
    grid = lg.prepare(lg.Grid.parse(DIAB))  # a position after the basic ladder, as candidates
    status, _, body = server.get(f"/api/explore?{query(puzzle=grid.to_candidates(), pictures='0')}")
    assert status == 200
    data = json.loads(body)
    assert data["solve"]["start"] == grid.to_candidates()
    assert data["solve"]["solved"]
    link = "https://www.sudokuwiki.org/sudoku.htm?bd=" + DIAB.replace(".", "0")
    status, _, body = server.get(f"/api/solve?{query(puzzle=link)}")
    assert status == 200 and body == cli(["solve", DIAB, "--format", "json"])[1]


def test_serve_refuses_bad_options_and_a_busy_port():
    import socket
    import subprocess
    import sys

    def serve(*args):
        return subprocess.run([sys.executable, "-m", "linkgraph", "serve", *args], capture_output=True,
                              text=True, timeout=120)

    proc = serve("--request-timeout", "0")
    assert proc.returncode == 2 and proc.stderr.strip().endswith(
        "OptionError: --request-timeout: expected a positive number of seconds, found 0.0")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = serve("--port", str(port), "--workers", "1")  # the port is tried before the pool starts
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith(
        f"linkgraph: OptionError: --host 127.0.0.1 --port {port}: could not listen there (Address already in use)")
    assert "Traceback" not in proc.stderr


def test_solve_html_into_a_missing_folder_writes_nothing(tmp_path):
    code, out, err = cli(["solve", GNPX, "--html", str(tmp_path / "nodir" / "s.html")])
    assert code == 2 and out == ""
    assert "no such folder" in err and not (tmp_path / "nodir").exists()
    target = tmp_path / "s.html"
    target.write_text("old")
    code, out, err = cli(["solve", GNPX, "--html", str(target), "--format", "json"])
    assert code == 0 and json.loads(out) == json.loads(cli(["solve", GNPX, "--format", "json"])[1])
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and '"mode":"file"' in html
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.html"]  # no temporary file left


def test_a_big_puzzle_whose_check_does_not_settle_answers_400_and_keeps_its_worker():
    """The uniqueness check gets half the request's time: past it, the check's own message, no killed worker."""
    from tests.test_oracle import HARD25

    srv = Server("--request-timeout", "2", "--workers", "1")
    try:
        for route in ("explore", "solve"):
            status, _, body = srv.get(f"/api/{route}?{query(puzzle=HARD25)}")
            error = json.loads(body)["error"]
            assert status == 400, body
            assert error.startswith("SearchLimitError: the uniqueness check of this 25x25 grid found no answer "
                                    "within --check-limit ") and "--no-check" in error
        status, _, body = srv.get("/healthz")
        assert status == 200 and json.loads(body)["replaced"] == 0
    finally:
        srv.stop()


def test_answer_bounds_the_check_and_a_parameter_may_only_lower_it():
    from linkgraph.explorer.api import answer
    from tests.test_oracle import HARD25

    out = answer("solve", {"puzzle": HARD25, "check_limit": "30"}, check_limit=0.2)
    assert out.status == 400 and "within --check-limit 0.2 s" in out.body
    out = answer("links", {"puzzle": HARD25, "check_limit": "0.1"}, check_limit=5.0)
    assert out.status == 400 and "within --check-limit 0.1 s" in out.body
    out = answer("solve", {"puzzle": HARD25, "check_limit": "-2"}, check_limit=5.0)
    assert out.status == 400 and "OptionError: --check-limit:" in out.body
