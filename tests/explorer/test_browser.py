"""The explorer page in a real headless Chromium (Debian's, driven by Playwright).

Loads the page from a server the tests started, enters the GNPX puzzle, steps with the
arrow keys to a forcing chain, asks for a graded hint, asserts +r2c8#1 in the simulator
and moves the round slider, explains a consequence, finds an implication path and reads
the link counts, checking at each stage what the board and the panels show. With
``LINKGRAPH_SCREENSHOTS=DIR`` it also saves the two screenshots the README shows.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import urllib.parse
from pathlib import Path

import pytest

import linkgraph as lg

CHROMIUM = os.environ.get("LINKGRAPH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
GNPX = lg.samples.GNPX_FORCECHAIN
CHAIN_LADDER = "forcing-chains"


def _need_browser():
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the Python package playwright")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        missing.append(f"Chromium at {CHROMIUM} (Debian package chromium)")
    if missing:
        message = "needs " + " and ".join(missing) + " (./setup.sh test installs them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def browser_page(server):
    _need_browser()
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="linkgraph-chromium-")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1600, "height": 1000},
        )
        page = context.new_page()
        page.set_default_timeout(30_000)
        problems, requests = [], []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
        page.on("request", lambda req: requests.append(req.url))
        yield page, problems, requests
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


def expect(locator):
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def api(server, route, **params):
    status, _, body = server.get(f"/api/{route}?{urllib.parse.urlencode(params)}")
    assert status == 200, body
    return json.loads(body)


def marks(page) -> dict[str, str]:
    """The literals marked on the board: {'+r2c8#1': 'mark on premise', ...}."""
    return page.eval_on_selector_all(
        "#board [data-lit]", "els => Object.fromEntries(els.map(e => [e.dataset.lit, e.getAttribute('class')]))")


def shot(page, name):
    folder = os.environ.get("LINKGRAPH_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def test_step_to_a_forcing_chain_and_grow_a_net(server, browser_page):
    page, problems, requests = browser_page
    page.goto(server.url)
    page.wait_for_selector("#step-list tbody tr[data-k='1']")

    # enter the GNPX puzzle with a ladder of singles and forcing chains
    page.fill("#puzzle-input", GNPX)
    page.select_option("#ladder-select", CHAIN_LADDER)
    page.click("#load-button")
    expect(page.locator("#status")).to_have_text(re.compile("^solved"))
    data = api(server, "explore", puzzle=GNPX, ladder=CHAIN_LADDER, pictures="0")
    steps = data["solve"]["steps"]
    assert page.locator("#step-list tbody tr").count() == len(steps) + 2  # start, the steps, the end
    # the board shows the puzzle: givens in bold, r2c8's candidates 1 and 2 (the GNPX text's cell)
    assert page.locator("#board text.value.given").count() == sum(ch != "." for ch in GNPX)
    assert sorted(page.eval_on_selector_all("#board text[data-cand^='r2c8#']", "els => els.map(e => e.textContent)")) == ["1", "2"]

    # step with the arrow keys to the first forcing chain
    first_chain = next(i for i, s in enumerate(steps, 1) if s["technique"].startswith("forcing-chain"))
    page.click("#board")  # focus the page, not a field
    for k in range(1, first_chain + 1):
        page.keyboard.press("ArrowDown")
        assert page.locator("#step-list tr.selected").get_attribute("data-k") == str(k)
    chain = steps[first_chain - 1]
    assert chain["technique"] == "forcing-chain-contradiction" and chain["eliminations"] == ["r4c8#3"]
    assert "Forcing Chain (Contradiction)" in page.text_content("#caption")
    shown = marks(page)
    for node in chain["proof"]["nodes"]:  # every literal of the proof is marked, in its role
        classes = shown[node["id"]]
        assert ("on" if node["on"] else "off") in classes.split()
        if node["role"] in ("premise", "conclusion", "contradiction"):
            assert node["role"] in classes.split()
    arrows = page.eval_on_selector_all("#board path.arrow", "els => els.map(e => [e.dataset.from, e.dataset.to])")
    assert sorted(map(tuple, arrows)) == sorted((e["from"], e["to"]) for e in chain["proof"]["edges"])
    outlines = page.eval_on_selector_all("#board .outline-als", "els => els.map(e => e.dataset.outline)")
    assert sorted(outlines) == ["r48c4{237}", "r7c58{237}"]  # one outline per ALS
    assert page.locator("#board text.cand.elim[data-cand='r4c8#3']").count() == 2  # ON and OFF side by side
    assert page.locator("#flow svg").count() == 1  # the flow graph Graphviz drew
    assert "r4c8#3" in page.text_content("#flow")
    shot(page, "explorer-steps.png")

    # a graded hint for the step after the selected one: technique, then where, then the step itself
    page.keyboard.press("ArrowUp")
    page.click("#hint-button")
    assert page.text_content("#hint") == "Next: Forcing Chain (Contradiction)"
    page.click("#hint-button")
    assert page.text_content("#hint") == "Next: Forcing Chain (Contradiction) in cell r4c8"
    assert page.locator("#board .shade-hint").count() == 1
    page.click("#hint-button")
    assert page.locator("#step-list tr.selected").get_attribute("data-k") == str(first_chain)

    # the simulator on the start position: assert +r2c8#1 and move the round slider
    page.keyboard.press("Home")
    page.click("#tabs button[data-tab='sim']")
    page.click("#board rect.hit[data-cand='r2c8#1']")
    page.wait_for_selector("#sim-list .round[data-round='1']")
    rounds = api(server, "propagate", puzzle=GNPX, **{"assert": "+r2c8#1"}, pictures="0")
    last = len(rounds["rounds"]) - 1
    assert page.get_attribute("#sim-round", "max") == str(last)

    def literals_up_to(r):
        return {x for row in rounds["rounds"][: r + 1] for x in row["literals"]}

    page.focus("#sim-round")
    page.keyboard.press("Home")  # the slider, moved with the keys as a person would
    assert page.input_value("#sim-round") == "0"
    assert set(marks(page)) == {"+r2c8#1"}
    page.keyboard.press("ArrowRight")
    shown = marks(page)
    assert set(shown) == literals_up_to(1)
    assert {"-r2c4#1", "-r2c8#2"} <= set(shown)  # by hand: row 2's other 1, the cell's other digit
    assert "newest" in shown["-r2c4#1"].split()
    page.keyboard.press("ArrowRight")
    assert page.text_content("#sim-round-out") == "2"
    shown = marks(page)
    assert set(shown) == literals_up_to(2) and len(shown) > len(literals_up_to(1))
    assert "round 2 of" in page.text_content("#caption")
    assert page.locator("#board .mark.contradiction").count() == 0
    shot(page, "explorer-simulator.png")
    page.keyboard.press("End")
    assert page.input_value("#sim-round") == str(last)
    con = rounds["contradiction"]
    assert con is not None and con["round"] == last
    assert page.locator("#board .mark.contradiction").count() >= 1
    assert page.get_attribute("#sim-contradiction", "class") == "contradiction"
    assert f"Contradiction at round {last}" in page.text_content("#sim-summary")

    # explain a consequence: its proof is drawn on the board and as a flow graph
    page.click("#sim-list .lit[data-lit='-r2c4#1']")
    page.wait_for_selector("#flow svg")
    arrows = page.eval_on_selector_all("#board path.arrow", "els => els.map(e => [e.dataset.from, e.dataset.to])")
    assert [tuple(a) for a in arrows] == [("+r2c8#1", "-r2c4#1")]

    # the shortest implication path between two candidates
    page.click("#tabs button[data-tab='path']")
    page.click("#board rect.hit[data-cand='r2c8#1']")
    page.click("#board rect.hit[data-cand='r4c4#3']")  # TO is OFF by default: no chain reaches -r4c4#3
    expect(page.locator("#path-result")).to_have_text("No implication path between them.")
    page.click("#board rect.hit[data-cand='r2c8#1']")
    page.select_option("#path-to-sign", "+")
    page.click("#board rect.hit[data-cand='r3c5#1']")
    page.wait_for_selector("#path-links li")
    path = api(server, "path", puzzle=GNPX, **{"from": "+r2c8#1", "to": "+r3c5#1"})
    # by hand: +r2c8#1 turns r2c4's 1 OFF (row 2), leaving r3c5 the only 1 of box 2
    assert [(link["from"], link["to"], link["kind"]) for link in path] == [
        ("+r2c8#1", "-r2c4#1", "weak"), ("-r2c4#1", "+r3c5#1", "strong")]
    assert page.locator("#path-links li").count() == len(path)
    arrows = page.eval_on_selector_all("#board path.arrow", "els => els.map(e => [e.dataset.from, e.dataset.to])")
    assert [tuple(a) for a in arrows] == [(link["from"], link["to"]) for link in path]

    # the link counts of the position
    page.click("#tabs button[data-tab='links']")
    page.wait_for_selector("#links-table")
    links = api(server, "links", puzzle=GNPX)
    assert page.text_content("#links-table td[data-key='candidates']") == str(links["candidates"])
    assert page.text_content("#links-table td[data-key='density']") == str(links["density"])

    assert problems == []
    assert all(url.startswith(server.url) for url in requests), requests  # nothing from elsewhere


def test_bad_puzzle_shows_the_cli_message(server, browser_page):
    page, problems, _ = browser_page
    page.goto(server.url)
    page.wait_for_selector("#step-list tbody tr[data-k='1']")
    page.fill("#puzzle-input", "1526.7.89")
    page.click("#load-button")
    expect(page.locator("#status")).to_have_class(re.compile("error"))
    assert page.text_content("#status") == "PuzzleFormatError: expected 81 cells (or 16, 36, 64, 144, 256, 625), found 9"


def test_saved_page_steps_through_the_path_offline(tmp_path, browser_page):
    page, problems, requests = browser_page
    from linkgraph.cli.main import main

    out = tmp_path / "solve.html"
    assert main(["solve", GNPX, "--ladder", "full-house,hidden-single,naked-single,forcing-chain-contradiction",
                 "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "/*LG-" not in html and "src=" not in html.split("<body", 1)[1]
    del requests[:]
    page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    page.goto(out.as_uri())
    page.wait_for_selector("#step-list tbody tr[data-k='26']")
    assert "offline" in page.text_content("#status")
    page.click("#step-list tbody tr[data-k='26']")
    assert page.locator("#board path.arrow").count() == 3
    assert page.locator("#flow svg").count() == 1
    page.keyboard.press("ArrowDown")
    assert page.locator("#step-list tr.selected").get_attribute("data-k") == "27"
    page.unroute("**/*")
    assert all(url.startswith("file:") for url in requests), requests


def test_the_address_is_a_link_to_what_is_shown(server, browser_page):
    page, problems, _ = browser_page
    del problems[:]
    data = api(server, "explore", puzzle=GNPX, ladder=CHAIN_LADDER, pictures="0")
    steps = data["solve"]["steps"]
    first_chain = next(i for i, s in enumerate(steps, 1) if s["technique"].startswith("forcing-chain"))

    # a link to a step opens the puzzle on that step, as a person would have stepped there
    link = f"{server.url}#" + urllib.parse.urlencode({"puzzle": GNPX, "ladder": CHAIN_LADDER, "step": first_chain})
    page.goto(link)
    expect(page.locator("#step-list tr.selected")).to_have_attribute("data-k", str(first_chain))
    assert "Forcing Chain (Contradiction)" in page.text_content("#caption")
    assert page.input_value("#ladder-select") == CHAIN_LADDER and page.input_value("#puzzle-input") == GNPX

    # what the person does next is written into the address: the simulator, its assertion, the round
    page.keyboard.press("Home")
    page.click("#tabs button[data-tab='sim']")
    page.click("#board rect.hit[data-cand='r2c8#1']")
    page.wait_for_selector("#sim-list .round[data-round='1']")
    page.focus("#sim-round")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#sim-round-out")).to_have_text("2")
    shown = marks(page)
    address = urllib.parse.parse_qs(page.evaluate("location.hash")[1:])
    assert address == {"puzzle": [GNPX], "ladder": [CHAIN_LADDER], "step": ["0"], "tab": ["sim"],
                       "assert": ["+r2c8#1"], "depth": ["0"], "round": ["2"]}

    # the address opened afresh shows the same board: same literals marked, same round, same tab
    shared = page.evaluate("location.href")
    page.goto("about:blank")
    page.goto(shared)
    expect(page.locator("#sim-round-out")).to_have_text("2")
    assert page.get_attribute("#tabs button[data-tab='sim']", "class") == "active"
    assert marks(page) == shown
    assert page.input_value("#sim-assert") == "+r2c8#1"
    shot(page, "explorer-shared-link.png")

    # editing the address in place (a hashchange, no reload) moves to the step it names
    page.evaluate(f"location.hash = {json.dumps(urllib.parse.urlencode({'puzzle': GNPX, 'ladder': CHAIN_LADDER, 'step': 3}))}")
    expect(page.locator("#step-list tr.selected")).to_have_attribute("data-k", "3")
    assert page.get_attribute("#tabs button[data-tab='steps']", "class") == "active"

    assert problems == []

    # a link with a bad puzzle says what is wrong, as the form does (the browser logs the 400)
    page.goto(f"{server.url}#" + urllib.parse.urlencode({"puzzle": "1526.7.89"}))
    expect(page.locator("#status")).to_have_text(
        "PuzzleFormatError: expected 81 cells (or 16, 36, 64, 144, 256, 625), found 9")
    assert not [p for p in problems if p.startswith("page error")], problems


def test_a_big_puzzle_whose_check_does_not_settle_shows_the_check_message(server, browser_page):
    """A 25x25 puzzle the uniqueness check cannot settle in half the request's time: the page says so."""
    from tests.test_oracle import HARD25

    page, problems, _ = browser_page
    page.goto(server.url)
    page.wait_for_selector("#step-list tbody tr[data-k='1']")
    page.fill("#puzzle-input", HARD25)
    page.click("#load-button")
    # the check gets half of the server's 10 s request timeout
    expect(page.locator("#status")).to_have_class(re.compile("error"), timeout=30_000)
    text = page.text_content("#status")
    assert text.startswith("SearchLimitError: the uniqueness check of this 25x25 grid found no answer within "
                           "--check-limit "), text
    assert "--no-check" in text
    shot(page, "explorer-check-limit.png")
    assert all("status of 400" in p for p in problems), problems  # the browser logs the 400 itself
    problems.clear()
