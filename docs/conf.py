"""Sphinx configuration of the linkgraph documentation (built by ``./setup.sh docs``).

The API reference is generated from the docstrings (numpydoc) by the local
extension ``_ext/lgapi.py``; the gallery runs the scripts in ``examples/``
through sphinx-gallery. ``LINKGRAPH_DOCS_GALLERY=fast`` (the docs test) runs only
the quick scripts and shows the others' source without their output.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(ROOT))

import linkgraph  # noqa: E402  (after the path is set)

project = "linkgraph"
author = "the linkgraph authors"
copyright = "the linkgraph authors"
release = version = linkgraph.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "sphinx_design",
    "lgapi",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "conftest.py", "gallery/*.ipynb", "gallery/*.py", "gallery/*.zip", "gallery/*.json"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["linkgraph.css"]

# Every cross-reference must resolve: a broken one is a warning, and the build
# runs with warnings as errors (-W). Names from other projects are left as text.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(nx|networkx|np|numpy|graphviz|pd|pandas|pyarrow|dask|distributed|matplotlib|collections|typing|concurrent|argparse|pathlib|os|io|re|datetime|enum|csv|json|types)\..*"),
    (r"py:.*", r"(Path|Callable|Iterator|Iterable|Sequence|Mapping|Collection|Hashable|Any|TextIO|Generator|IO|PathLike|Self|Executor|Future|Client|Namespace|ArgumentParser|NDArray|ndarray|DiGraph|Graph|MultiDiGraph|Counter|Literal\[.*\]|TypeAlias|StrEnum|Enum|Digraph)"),
    (r"py:.*", r"(int|float|str|bytes|bool|list|tuple|dict|set|frozenset|object|type|None|callable|iterable|iterator|generator|sequence|mapping|optional|default|array|array-like|array_like|file|path|path-like|function|class|module|slice|range|complex|BaseException|Exception|ValueError|KeyError|RuntimeError|TypeError|OSError|TimeoutError|KeyboardInterrupt|SystemExit|NotImplemented|Ellipsis)"),
]

# autodoc / numpydoc
autodoc_member_order = "bysource"
autodoc_typehints = "none"          # the numpydoc Parameters section carries the types
autodoc_preserve_defaults = True
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()
default_role = "autolink"

# MyST: Markdown pages with fenced code blocks and a few extensions
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# sphinx-gallery: the scripts in examples/, each run with the arguments of lgapi.GALLERY_ARGS
import lgapi  # noqa: E402

sphinx_gallery_conf = lgapi.gallery_conf(ROOT, HERE, os.environ.get("LINKGRAPH_DOCS_GALLERY", "all"))

html_theme = "pydata_sphinx_theme"
html_title = f"linkgraph {release}"
html_logo = None
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_context = {"default_mode": "light"}
# pages without sub-pages get the full width (no empty "Section Navigation" column)
html_sidebars = {page: [] for page in ("index", "concepts", "tutorial", "benchmarks", "speed", "changelog", "develop", "explorer")}
html_show_sourcelink = False
