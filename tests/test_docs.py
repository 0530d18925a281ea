"""The documentation site: it builds with warnings as errors, a broken reference fails the
build, its Markdown pages run as doctests, and the API reference holds every public name.

The site is built once per module (about two minutes on a quiet 2-core machine): Sphinx
over docs/ with the gallery in its ``fast`` mode, which runs ``make_diagrams.py``,
``make_figures.py`` and ``rating_study.py`` (on 12 lines rather than 120) and shows the
heavier scripts (``bench_techniques.py``, ``density_study.py``, ``concept_diagrams.py``)
as source without their output; ``./setup.sh docs`` runs them all. The broken reference is
shown on a one-page site of the same configuration (seconds, not a second whole build).
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import linkgraph

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def sphinx_build(srcdir: Path, outdir: Path, *, gallery: str, options: list[str] = ()) -> subprocess.CompletedProcess:
    """``python -m sphinx -W --keep-going -b html`` as ``./setup.sh docs`` runs it (`options`: more of them),
    without colour: tests read its messages, and a CI that sets FORCE_COLOR would wrap each in escapes."""
    env = {**os.environ, "LINKGRAPH_DOCS_GALLERY": gallery}
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q", "--no-color", *options,
               "-d", str(outdir / "doctrees"), str(srcdir), str(outdir / "html")]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=srcdir)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    proc = sphinx_build(DOCS, out, gallery="fast")
    assert proc.returncode == 0, f"the docs did not build:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return out / "html"


def inventory(html: Path) -> dict[str, str]:
    """name -> role of every object in the site's objects.inv (Sphinx's format, version 2)."""
    data = (html / "objects.inv").read_bytes()
    header_end = 0
    for _ in range(4):  # four header lines, then the zlib-compressed body
        header_end = data.index(b"\n", header_end) + 1
    assert data.startswith(b"# Sphinx inventory version 2")
    out = {}
    for line in zlib.decompress(data[header_end:]).decode().splitlines():
        name, role = line.split(" ", 2)[:2]
        out[name] = role
    return out


def public_names() -> list[tuple[str, str, object]]:
    """(module, name, object) for every name in the ``__all__`` of every linkgraph module."""
    out = []
    modules = ["linkgraph"] + [m.name for m in pkgutil.walk_packages(linkgraph.__path__, "linkgraph.")
                               if not m.name.endswith("__main__")]
    for mod in modules:
        module = importlib.import_module(mod)
        out += [(mod, name, getattr(module, name)) for name in getattr(module, "__all__", [])]
    return out


def test_site_builds_with_every_page(site):
    pages = ["index", "concepts", "tutorial", "benchmarks", "changelog", "api/index",
             "howto/index", "howto/rate", "howto/soundness", "howto/explorer", "howto/dask", "howto/gephi",
             "howto/formats", "howto/compare", "explorer",
             "gallery/index", "api/generated/linkgraph.graph", "api/generated/linkgraph.cli"]
    sys.path.insert(0, str(DOCS / "_ext"))
    import lgapi

    pages += [f"gallery/{p.stem}" for p in (ROOT / "examples").glob("*.py") if p.name not in lgapi.SKIP]
    missing = [p for p in pages if not (site / f"{p}.html").is_file()]
    assert not missing


def test_every_top_level_name_is_in_the_reference(site):
    inv = inventory(site)
    missing = [name for name in linkgraph.__all__ if f"linkgraph.{name}" not in inv]
    assert not missing, f"not in the API reference: {missing}"
    modules = [name for name in linkgraph.__all__ if inspect.ismodule(getattr(linkgraph, name))]
    assert all(inv[f"linkgraph.{name}"] == "py:module" for name in modules)
    assert inv["linkgraph.link_graph"] == "py:function" and inv["linkgraph.Grid"] == "py:class"
    assert inv["linkgraph.PuzzleFormatError"] == "py:exception"


def test_every_public_name_of_every_module_is_in_the_reference(site):
    """Each name of a module's ``__all__`` is documented under one of its public paths:
    ``linkgraph.X`` when the top level exports the same object, the module's own path, or
    the path of the module that defines it."""
    inv = inventory(site)
    missing = []
    names = public_names()
    for mod, name, obj in names:
        if inspect.ismodule(obj):
            assert obj.__name__ in inv, obj.__name__
            continue
        paths = {f"{mod}.{name}"}
        if getattr(linkgraph, name, None) is obj:
            paths.add(f"linkgraph.{name}")
        paths |= {f"{m}.{n}" for m, n, o in names if o is obj and n == name}
        if not paths & inv.keys():
            missing.append(f"{mod}.{name}")
    assert not missing, f"not in the API reference: {missing}"


def test_cli_reference_lists_every_command(site):
    from linkgraph.cli.main import COMMANDS

    text = (site / "api/generated/linkgraph.cli.html").read_text()
    for module in COMMANDS:
        name = module.__name__.rsplit(".", 1)[1]
        assert f"usage: linkgraph {name}" in text, name


def test_gallery_pages_show_output_and_pictures(site):
    # rating_study ran on the diabolical sample: its printed correlation is on the page
    assert "Spearman rho =" in (site / "gallery/rating_study.html").read_text()
    # make_diagrams wrote ten SVGs (five steps, two layouts): the page shows them
    page = (site / "gallery/make_diagrams.html").read_text()
    assert page.count(".svg") >= 10


def test_tutorial_and_guides_are_doctests():
    """pytest collects docs/*.md as doctests (pyproject's testpaths and --doctest-glob)."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "docs"],
                          capture_output=True, text=True, cwd=ROOT)
    for page in ("docs/tutorial.md::tutorial.md", "docs/concepts.md::concepts.md",
                 "docs/howto/gephi.md::gephi.md", "docs/howto/soundness.md::soundness.md"):
        assert page in proc.stdout, proc.stdout[-2000:]


def test_a_broken_reference_fails_the_build(tmp_path):
    """A one-page site with this project's configuration (docs/conf.py, its extensions and
    static files) and an orphan page that names a missing function and a missing page: the
    build fails, on those two references only. The index names a real function, which the
    API reference (absent here: `lgapi` writes none without ``api/index.rst``) would
    document; it stays plain text, not a broken reference. The gallery's pages are left out."""
    src = tmp_path / "docs"
    src.mkdir()
    shutil.copy(DOCS / "conf.py", src)
    for name in ("_ext", "_static"):
        shutil.copytree(DOCS / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("examples", "linkgraph"):
        (tmp_path / name).symlink_to(ROOT / name)
    (src / "index.md").write_text("# Index\n\n{py:func}`linkgraph.link_graph` builds the link graph.\n")
    (src / "broken.md").write_text(
        "---\norphan: true\n---\n# Broken\n\nSee {py:func}`linkgraph.no_such_function` and "
        "[the missing page](no_such_page.md).\n")
    proc = sphinx_build(src, tmp_path / "out", gallery="none", options=["-D", "exclude_patterns=_build,gallery/*"])
    assert proc.returncode != 0
    assert "linkgraph.no_such_function" in proc.stderr
    assert "no_such_page" in proc.stderr
    assert not (src / "api").exists()
    problems = [line for line in proc.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert len(problems) == 2 and all(line.startswith(str(src / "broken.md")) for line in problems), proc.stderr
