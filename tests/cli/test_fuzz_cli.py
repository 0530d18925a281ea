"""A fuzz test of the whole command line: argv for every command from a grammar of good and bad values.

Hypothesis draws a command and its arguments from pools of good and bad values: puzzles
(strings, candidate grids, puzzles with no or several solutions, files that exist and
don't, folders, stdin), literals, option values (negative, zero, not a number, unknown
names), and output paths (new, existing, in a missing folder, a folder, a wrong suffix).
Every run must hold to the contract of `linkgraph.cli.main`:

- the exit status is 0, 1 or 2 (130 never: nothing interrupts), and ``main`` raises nothing;
- no traceback on stderr;
- on exit 2, exactly one message line (``linkgraph: <Error>: ...``, a usage line may come
  before it), and every file that existed before is unchanged;
- the run ends within its time limit plus a second (every run has one: ``--time-limit``
  for the one-puzzle commands, ``--timeout`` and tiny files for the corpus commands).

The default run draws a small budget (`CI_EXAMPLES`); ``-m slow`` draws `LONG_EXAMPLES`
(``LINKGRAPH_FUZZ_EXAMPLES`` overrides either) and prints the figures: examples run,
exit statuses and commands covered. The time bound is asserted to the second in the long
run; the default run, on a machine it shares with other jobs, only guards against a hang
(`HANG`), and records the largest overrun it saw.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.limits import Deadline, TimeLimitExceeded

CI_EXAMPLES = 60
LONG_EXAMPLES = 1500
HANG = 30.0  # seconds past its limit after which a run counts as hung (the default run's guard)

P = lg.samples.EULER_01
GNPX = lg.samples.GNPX_FORCECHAIN
EULER = [p.puzzle for p in read_puzzles(corpus_path("euler96"), limit=4)]
HARD = [p.puzzle for p in read_puzzles(corpus_path("hardest_1905_sample"), limit=2)]  # a second or more of nets
NO_SOLUTION = "12345678." + "........9" + "." * 63
POSITION = lg.prepare(lg.Grid.parse(GNPX)).to_candidates()

# ---- the grammar -------------------------------------------------------------------------------
#
# "{d}" in a value stands for the example's own temporary folder, where these files exist:
#   good.txt (one puzzle)   many.txt (four puzzles)   mixed.txt (puzzles and bad lines)
#   bad.bin (not UTF-8)     rows.csv / rows.jsonl (batch results)   old.svg, keep.csv (outputs)
#   sub/ (a folder)

def _mostly(good: list[str], bad: list[str]) -> list[str]:
    """A pool drawn from as good values four times as often as bad ones (runs that get past the checks)."""
    return good * 4 + bad


PUZZLES = _mostly([P, GNPX, EULER[1], POSITION, HARD[0], "{d}/good.txt", "-"],
                  [NO_SOLUTION, "." * 81, P[:80], P + "1", P.replace("3", "x", 1), P.replace("3", "\uff13", 1), "",
                   "12 34 56", "{d}/many.txt", "{d}/bad.bin", "{d}/sub", "{d}/missing.txt", "nodir/x.txt", "1" * 400])
LITERALS = _mostly(["+r2c8#1", "-r2c4#1", "+r6c6#2", "+r1c1#1"], ["+r10c8#1", "r2c8#1", "+r2c8#0", "+r2c789#1", "+x", "-"])
LADDERS = _mostly(["default", "basic", "hidden-single,naked-single"], ["se", "x-wnig", ""])
COUNTS = _mostly(["0", "1", "3"], ["-1", "x", "1.5"])
SECONDS = _mostly(["0.2", "1", "2"], ["-1", "0", "nan", "inf", "x"])
PICTURES = _mostly(["{d}/new.svg", "{d}/new.dot", "{d}/old.svg"],
                   ["{d}/new.txt", "{d}/nodir/x.svg", "{d}/sub", "{d}/good.txt"])
ROWS = _mostly(["{d}/new.csv", "{d}/new.jsonl", "{d}/keep.csv"], ["{d}/nodir/x.csv", "{d}/sub", "{d}/new.parquet"])
FILES = _mostly(["{d}/good.txt", "{d}/many.txt", "{d}/mixed.txt", "{d}/hard.txt"],
                ["{d}/bad.bin", "{d}/sub", "{d}/missing.txt"])
FAMILIES = _mostly(["cell,house", "cell,house,group,als"], ["foo", "cell,", ""])


def _opt(flag: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    return st.sampled_from(values).map(lambda v: [flag, v])


def _flag(flag: str) -> st.SearchStrategy[list[str]]:
    return st.just([flag])


def _options(*choices: st.SearchStrategy[list[str]], most: int = 4) -> st.SearchStrategy[list[str]]:
    return st.lists(st.one_of(*choices), max_size=most).map(lambda parts: [a for part in parts for a in part])


TIME_LIMIT = _opt("--time-limit", ["0.5", "1", "2"])  # always given to the one-puzzle commands
FMT = _opt("--format", ["text", "json", "xml"])
PREPARE = _opt("--prepare", ["basic", "none", "bogus"])

COMMANDS: dict[str, st.SearchStrategy[list[str]]] = {
    "solve": st.tuples(st.sampled_from(PUZZLES), _options(
        _opt("--ladder", LADDERS), _opt("--max-steps", COUNTS), _flag("--hint"), _flag("--explain"),
        _flag("--no-check"), FMT, _opt("--render", ["{d}/steps", "{d}/good.txt", "{d}/nodir/steps"]),
        _opt("--time-limit", SECONDS))).map(lambda t: [t[0], *t[1]]),
    "links": st.tuples(st.sampled_from(PUZZLES), _options(
        PREPARE, _opt("--families", FAMILIES), _opt("--als-max-size", COUNTS), _flag("--no-check"), FMT)
    ).map(lambda t: [t[0], *t[1]]),
    "path": st.tuples(st.sampled_from(PUZZLES), st.sampled_from(LITERALS), st.sampled_from(LITERALS), _options(
        _opt("--prepare", ["basic"]), _opt("--families", FAMILIES), _flag("--no-check"), FMT)
    ).map(lambda t: [*t[3], "--", t[0], t[1], t[2]]),
    "chains": st.tuples(st.sampled_from(PUZZLES), _options(
        _opt("--variant", ["cell", "house", "contradiction", "all", "cel"]), PREPARE,
        _opt("--notation", ["gnpx", "eureka", "english", "x"]), _opt("--family", FAMILIES), _flag("--no-check"),
        FMT)).map(lambda t: [t[0], *t[1]]),
    "nets": st.tuples(st.sampled_from(PUZZLES), _options(
        _opt("--depth", ["0", "1", "2", "9"]), _opt("--level", ["0", "1", "-1"]), _opt("--start", ["on", "both"]),
        _opt("--select", ["shortest", "first"]), _opt("--kind", ["contradiction", "triple"]), PREPARE, _flag("--all"),
        _flag("--no-check"), FMT)).map(lambda t: [t[0], *t[1]]),
    "render": st.tuples(st.sampled_from(PUZZLES), st.sampled_from([["--chains", "cell"], ["--nets"], ["--chains", "x"]]),
                        st.sampled_from(PICTURES), _options(
        _opt("--index", COUNTS), _flag("--all"), _opt("--layout", ["flow", "board"]), PREPARE, _flag("--no-check"),
        _opt("--depth", ["0", "9"]))).map(lambda t: [t[0], *t[1], "-o", t[2], *t[3]]),
    "verify": st.tuples(st.sampled_from(FILES), _options(
        _opt("--ladder", ["basic", "x-wnig"]), _opt("--limit", COUNTS), _opt("--every", COUNTS),
        _opt("--start", COUNTS), _opt("--workers", ["0", "1"]), _opt("--show", COUNTS), FMT,
        _opt("--log", ["{d}/log.jsonl", "{d}/keep.csv", "{d}/nodir/l.jsonl", "{d}/sub"]), _flag("--resume"),
        _opt("--timeout", SECONDS))).map(lambda t: [t[0], "--timeout", "2", *t[1]]),
    "batch": st.tuples(st.sampled_from(FILES), _options(
        _opt("--job", ["oracle", "links", "solve", "nets", "metrics", "nope", "nomodule:fn", "linkgraph:nothing"]),
        _opt("--out", ROWS), _flag("--resume"), _opt("--timeout", SECONDS), _opt("--chunksize", COUNTS),
        _opt("--workers", ["0", "1"]), _opt("--limit", COUNTS), _opt("--families", FAMILIES),
        _opt("--als-max-size", COUNTS), _opt("--depth", ["0", "9"]), _opt("--ladder", ["basic", "x-wnig"]),
        _opt("--position", ["start", "basic"]), _flag("--no-check"), _opt("--format", ["csv", "jsonl", "xml"]),
        _flag("--no-times"))).map(lambda t: [t[0], "--timeout", "2", *t[1]]),
    "compare": st.tuples(st.sampled_from(FILES), _options(
        _opt("--ladder", ["basic", "hidden-single", "x-wnig"]), _opt("--limit", COUNTS), _opt("--workers", ["0", "1"]),
        _opt("--out", ROWS), _opt("--families", FAMILIES), FMT, _opt("--timeout", SECONDS))
    ).map(lambda t: [t[0], "--ladder", "basic", "--timeout", "2", "--workers", "1", *t[1]]),
    "plot": st.tuples(st.sampled_from(["{d}/rows.csv", "{d}/rows.jsonl", "{d}/good.txt", "{d}/bad.bin",
                                       "{d}/missing.csv", "{d}/sub"]), _options(
        _opt("--y", ["givens", "solutions", "nope"]), _opt("--kind", ["scatter", "hist", "pie"]),
        _opt("--bins", COUNTS), _opt("--by", ["error", "nope"]), most=3),
        st.sampled_from(["{d}/p.png", "{d}/p.svg", "{d}/p.txt", "{d}/nodir/p.png", "{d}/old.svg"]),
        st.sampled_from(["givens", "nope", "line"])).map(lambda t: [t[0], "--x", t[3], "-o", t[2], *t[1]]),
    "convert": st.tuples(st.sampled_from(FILES + ["-", "{d}/one.sdk"]), st.sampled_from(_mostly(
        ["{d}/out.sdm", "{d}/out.txt", "-", "{d}/keep.csv"], ["{d}/out.sdk", "{d}/out.xyz", "{d}/nodir/o.sdm", "{d}/sub"])),
        _options(_opt("--to", ["puzzle", "sdm", "hodoku", "sudokuwiki", "sdk", "bogus"]),
                 _opt("--from", ["puzzle", "sdk", "bogus"]), most=2)).map(lambda t: [t[0], t[1], *t[2]]),
    # serve would listen until stopped: every draw has a bad option or a bad puzzle, so it must refuse at once
    "serve": st.tuples(st.sampled_from([["--request-timeout", v] for v in ("0", "-1", "nan", "x")]
                                       + [["--workers", v] for v in ("0", "65", "x")]
                                       + [[p] for p in (NO_SOLUTION[:80], "{d}/missing.txt", "{d}/bad.bin", "{d}/sub")]),
                       _options(_opt("--host", ["127.0.0.1", "localhost"]), _opt("--port", ["0", "-1"]), most=2)
                       ).map(lambda t: [*t[1], *t[0]]),
    "rate": st.tuples(st.sampled_from(FILES + [P, "-"]), _options(
        _opt("--format", ["text", "jsonl", "csv"]), _opt("--limit", COUNTS), _opt("--max-level", ["0", "1", "9"]),
        _opt("--log", ["{d}/rate.jsonl", "{d}/nodir/r.jsonl", "{d}/sub"]), _flag("--resume"),
        _opt("--timeout", SECONDS))).map(lambda t: [t[0], "--timeout", "2", "--workers", "1", *t[1]]),
    "bench": st.tuples(st.sampled_from(FILES), _options(
        _opt("--job", ["oracle", "basic", "oracle,basic", "bogus"]), _opt("--limit", COUNTS),
        _opt("--clock", ["wall", "process", "cpu"]), FMT)
    ).map(lambda t: [t[0], "--limit", "2", *t[1]]),
}

#: The commands whose run is bounded by the --time-limit the fuzzer always gives.
TIMED = ("solve", "links", "path", "chains", "nets", "render")


def _argv(command: str, limit: list[str], parts: list[str]) -> list[str]:
    """The command, its time limit first (a later --time-limit among the parts overrides it), its parts."""
    if "--" in parts:  # path: options, then -- and the positionals
        cut = parts.index("--")
        return [command, *parts[:cut], *limit, *parts[cut:]]
    return [command, *(limit if command in TIMED else []), *parts]


#: Now and then a stray argument at the end: argparse quotes it back (a multi-line one must stay one line).
STRAY = st.sampled_from([[]] * 8 + [["stray"], [POSITION], ["--bogus", "1"], ["-"]])

EXAMPLES = st.sampled_from(sorted(COMMANDS)).flatmap(
    lambda c: st.tuples(st.just(c), TIME_LIMIT, COMMANDS[c], STRAY).map(lambda t: _argv(*t[:3]) + t[3])
)


def _make_files(d: Path) -> None:
    (d / "good.txt").write_text(P + "\n")
    (d / "many.txt").write_text("\n".join(EULER) + "\n")
    (d / "hard.txt").write_text("\n".join(HARD) + "\n")
    (d / "mixed.txt").write_text("\n".join([EULER[0], "12x", NO_SOLUTION, "." * 81, EULER[1]]) + "\n")
    (d / "bad.bin").write_bytes(bytes(range(256)) * 4)
    (d / "rows.csv").write_text("line,puzzle,error,givens,solutions\n1,p,,30,1\n2,q,,25,1\n3,r,bad,,\n")
    (d / "rows.jsonl").write_text('{"line": 1, "givens": 30, "solutions": 1, "error": null}\n')
    (d / "old.svg").write_text("<svg>old</svg>\n")
    (d / "keep.csv").write_text("line,precious\n1,yesterday\n")
    (d / "sub").mkdir()
    (d / "one.sdk").write_text("#A linkgraph\n" + "\n".join(P[i : i + 9] for i in range(0, 81, 9)) + "\n")


def _snapshot(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def _limit(argv: list[str]) -> float:
    """The run's time limit: its --time-limit (the last one given, as argparse takes it), else a corpus bound.

    An invalid last --time-limit is refused at once (exit 2); the corpus commands read files of at
    most five puzzles with ``--timeout 2`` on each (`compare`: for each of at most two ladders).
    """
    values = [value for flag, value in zip(argv, argv[1:]) if flag == "--time-limit"]
    try:
        limit = float(values[-1]) if values else None
    except ValueError:
        limit = None
    if argv[0] in TIMED and limit is not None and 0 < limit < float("inf"):
        return limit
    return 15.0  # at most five puzzles, two ladders (compare), two seconds a puzzle


class _Hung(TimeLimitExceeded):
    """A run went past its limit by HANG seconds."""


FIGURES: dict[str, Counter] = {"commands": Counter(), "exits": Counter(), "examples": Counter()}
OVERRUN = [0.0]


def _check_one(argv: list[str], *, strict: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        _make_files(d)
        argv = [a.replace("{d}", tmp) for a in argv]
        before = _snapshot(d)
        out, err = io.StringIO(), io.StringIO()
        stdin = io.TextIOWrapper(io.BytesIO(GNPX.encode() + b"\n"), encoding="utf-8")
        saved = sys.stdout, sys.stderr, sys.stdin
        cwd = os.getcwd()
        limit = _limit(argv)
        t0 = time.monotonic()
        try:
            os.chdir(tmp)  # relative paths ("nodir/x.txt") land in the example's folder
            sys.stdout, sys.stderr, sys.stdin = out, err, stdin
            with Deadline(limit + HANG, _Hung):
                code = main(argv)
        except _Hung:
            pytest.fail(f"linkgraph {' '.join(argv)}: still running {HANG:g} s past its limit of {limit:g} s")
        finally:
            sys.stdout, sys.stderr, sys.stdin = saved
            os.chdir(cwd)
        elapsed = time.monotonic() - t0
        err_text = err.getvalue()
        where = f"linkgraph {' '.join(argv)}\nexit {code}\nstderr: {err_text[-2000:]}"
        FIGURES["commands"][argv[0]] += 1
        FIGURES["exits"][code] += 1
        OVERRUN[0] = max(OVERRUN[0], elapsed - limit)
        assert code in (0, 1, 2), where
        assert "Traceback" not in err_text, where
        if code == 2:
            lines = [ln for ln in err_text.splitlines() if ln.strip() and not ln.startswith(("usage:", " "))]
            assert len(lines) == 1 and lines[0].startswith("linkgraph: "), where
            assert _snapshot(d) == before, where  # nothing lost, nothing half written
        if strict:
            assert elapsed <= limit + 1.0, f"{where}\ntook {elapsed:.2f} s, limit {limit:g} s"


_SETTINGS = dict(deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])


# a time-out may land in a finaliser or a gc callback, where Python prints it and goes on; the deadline
# raises it again 50 ms later (tests/research/test_runner.py), so that print is expected, not a failure
_TIMEOUT_NOISE = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@_TIMEOUT_NOISE
@settings(max_examples=int(os.environ.get("LINKGRAPH_FUZZ_EXAMPLES", CI_EXAMPLES)), derandomize=True, **_SETTINGS)
@given(argv=EXAMPLES)
def test_fuzz_cli(argv):
    """The CI budget: the same draws every run."""
    _check_one(argv, strict=False)


@_TIMEOUT_NOISE
@pytest.mark.slow
@settings(max_examples=int(os.environ.get("LINKGRAPH_FUZZ_EXAMPLES", LONG_EXAMPLES)), **_SETTINGS)
@given(argv=EXAMPLES)
def test_fuzz_cli_long(argv):
    """The long run: new draws each time (hypothesis prints the failing argv, shrunk)."""
    _check_one(argv, strict=True)


@pytest.fixture(scope="module", autouse=True)
def _figures(request):
    """Print what the fuzz runs of this module covered, once they are over."""
    yield
    if FIGURES["commands"]:
        text = (f"fuzz: {sum(FIGURES['commands'].values())} runs; commands {dict(sorted(FIGURES['commands'].items()))}; "
                f"exits {dict(sorted(FIGURES['exits'].items()))}; largest overrun {OVERRUN[0]:.2f} s")
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            print(f"\n{text}")


def test_the_grammar_covers_every_command():
    assert set(COMMANDS) == {m.__name__.rsplit(".", 1)[1] for m in sys.modules["linkgraph.cli.main"].COMMANDS}
