#!/usr/bin/env bash
# One-command set-up for linkgraph on a fresh machine.
#   ./setup.sh run    create .venv, install linkgraph with the explorer (the serve extra), make sure `dot`
#                     is there, solve the built-in example
#   ./setup.sh test   the same set-up with the test extras and Debian's chromium (the explorer's browser
#                     test), then run the test suite on every core (extra args go to pytest)
#   ./setup.sh docs   the same set-up with the docs extras, then build the documentation site into
#                     docs/_build/html (warnings are errors; extra args go to sphinx-build)
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-run}"; shift || true

die() { echo "setup: $*" >&2; exit 1; }

pick_python() {
  for py in python3.13 python3.12 python3.11 python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      echo "$py"; return 0
    fi
  done
  die "linkgraph needs Python 3.11 or newer (Debian package python3); none found on PATH"
}

ensure_dot() {
  command -v dot >/dev/null 2>&1 && return 0
  echo "setup: the Graphviz 'dot' program is missing; installing Debian's package 'graphviz'" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null 2>&1 && sudo="sudo -n"; }
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq graphviz >/dev/null 2>&1 || true
  fi
  command -v dot >/dev/null 2>&1 || die "could not install 'dot': install the Debian package 'graphviz' (apt-get install graphviz) and run this again"
}

ensure_chromium() {
  # the explorer's browser test drives Debian's chromium (Playwright downloads no browser here)
  [ -x /usr/bin/chromium ] && return 0
  echo "setup: Chromium is missing; installing Debian's package 'chromium' for the browser test" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null 2>&1 && sudo="sudo -n"; }
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null 2>&1 || true
  fi
  [ -x /usr/bin/chromium ] || die "could not install Chromium: install the Debian package 'chromium' (apt-get install chromium) and run this again"
}

ensure_venv() {
  local extras="$1"
  if [ ! -x .venv/bin/python ]; then
    "$(pick_python)" -m venv .venv || die "could not create .venv (Debian package python3-venv)"
  fi
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q -e ".${extras}" || die "pip install failed"
}

warm_kernels() {
  # numba compiles the engine's kernels on their first call and caches the machine code beside
  # the sources: compile them here, once per install, so that no first solve, test or explorer
  # request pays for it (some 110 kernels: two minutes on a fast machine's fresh clone, more than ten
  # on a slow one; a few seconds once cached). Two processes share the work, one core each, in
  # opposite orders: one runs warm_up's searches and then a Sudoku Explainer solve (its chaining
  # rules' kernels), the other the solve and then the searches backwards; each loads from numba's
  # cache what the other has compiled by the time it gets there.
  local start=$SECONDS
  echo "setup: loading the engine's compiled kernels (on a fresh clone numba compiles them: minutes; then cached)" >&2
  local se='lg.solve(lg.Grid.parse(".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54."), ladder="se")'
  .venv/bin/python -c "import linkgraph as lg; lg.solver.warm_up(); $se" &
  local warm=$!
  .venv/bin/python -c "import linkgraph as lg; $se; lg.solver.warm_up(reverse=True)" &
  local se_first=$!
  local failed=0
  wait "$warm" || failed=1
  wait "$se_first" || failed=1
  [ "$failed" -eq 0 ] || die "the engine's compiled kernels could not be loaded (see the messages above)"
  echo "setup: kernels ready ($((SECONDS - start)) s)" >&2
}

case "$mode" in
  run)
    ensure_dot
    ensure_venv "[serve]"
    warm_kernels
    exec .venv/bin/linkgraph solve "$@"
    ;;
  test)
    ensure_dot
    ensure_chromium
    ensure_venv "[test]"
    warm_kernels
    # one pytest worker per core (pytest-xdist), each test file whole on one worker, so a
    # module's fixtures (the docs build, a test server) are set up once; `-n 0` after the
    # command runs everything in one process; files go out in collection order, the longest
    # first (tests/conftest.py LONG_FILES), so that no long file starts last
    exec .venv/bin/python -m pytest -n auto --dist loadfile --no-loadscope-reorder "$@"
    ;;
  docs)
    ensure_dot
    ensure_venv "[docs]"
    .venv/bin/python -m sphinx -W --keep-going -b html "$@" docs docs/_build/html \
      || die "the documentation did not build (see the messages above)"
    echo "setup: the documentation is in docs/_build/html/index.html"
    ;;
  *)
    die "unknown mode '$mode': use './setup.sh run', './setup.sh test' or './setup.sh docs'"
    ;;
esac
