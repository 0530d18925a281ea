"""The linkgraph API reference, written from the package's ``__all__`` lists at build time.

When the builder starts, `write_reference` writes one page per module of the
foundation and one per package (``api/generated/*.rst``): the module's
docstring, a table of its public names, and the documentation of every name
that is *at home* there. Each object is documented once, under its shortest
public name (``linkgraph.link_graph`` rather than
``linkgraph.graph.links.link_graph``), on the page of the module that defines
it; the other modules that list it link to that entry. A cross-reference to
any of an object's public names (``linkgraph.graph.link_graph``, or a bare
``link_graph`` inside its module) resolves to that one entry
(`resolve_alias`).

A new module or package of linkgraph needs no edit here: it appears in the
reference on the next build. The command line reference is written from the
argparse parser of every subcommand (``linkgraph COMMAND --help``).
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import re
import textwrap
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes

import linkgraph

#: Foundation modules, each on its own page, in the order of the layers (README "Layout").
FOUNDATION = (
    "linkgraph.model",
    "linkgraph.errors",
    "linkgraph.geometry",
    "linkgraph.grid",
    "linkgraph.steps",
    "linkgraph.io",
    "linkgraph.samples",
    "linkgraph.oracle",
    "linkgraph.notation",
    "linkgraph.bitops",
)
#: Packages (and the solver module), in layer order; a package found on disk but not
#: listed here is appended after them.
PACKAGES = (
    "linkgraph.graph",
    "linkgraph.chains",
    "linkgraph.nets",
    "linkgraph.techniques",
    "linkgraph.solver",
    "linkgraph.check",
    "linkgraph.draw",
    "linkgraph.research",
    "linkgraph.commands",
    "linkgraph.explorer",
    "linkgraph.cli",
)


@dataclass
class Entry:
    """One public object: every public name it has, and where it is documented."""

    obj: object
    names: list[str] = field(default_factory=list)   # "module.name", in discovery order
    home: str = ""                                     # the module whose page documents it

    @property
    def canonical(self) -> str:
        """The shortest public name (fewest dots; the first found among equals) that is not a module's."""
        names = [n for n in self.names if n not in _MODULES] or self.names
        return min(names, key=lambda n: n.count("."))


_MODULES: set[str] = set()


def public_modules() -> list[str]:
    """Every importable module of linkgraph but ``__main__``, packages before their modules."""
    out = ["linkgraph"]
    for info in pkgutil.walk_packages(linkgraph.__path__, "linkgraph."):
        if info.name.endswith("__main__") or any(part.startswith("_") for part in info.name.split(".")):
            continue
        out.append(info.name)
    _MODULES.update(out)
    return out


def exported(module_name: str) -> list[str]:
    """The module's ``__all__`` (its public names), or [] without one."""
    return list(getattr(importlib.import_module(module_name), "__all__", []))


def catalogue() -> dict[tuple[str, int], Entry]:
    """Every public object of linkgraph, keyed by (name, id), with all its public names."""
    entries: dict[tuple[str, int], Entry] = {}
    for mod in public_modules():
        module = importlib.import_module(mod)
        for name in exported(mod):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            entry = entries.setdefault((name, id(obj)), Entry(obj))
            entry.names.append(f"{mod}.{name}")
    for entry in entries.values():
        listing = [n.rsplit(".", 1)[0] for n in entry.names]
        defined = getattr(entry.obj, "__module__", None)
        # home: the defining module when it lists the name, else the deepest module listing it
        entry.home = defined if defined in listing else max(listing, key=lambda m: m.count("."))
    return entries


def page_of(module: str) -> str:
    """The generated page (document name below ``api/generated``) that documents `module`."""
    for pkg in PACKAGES:
        if module == pkg or module.startswith(pkg + "."):
            return pkg
    if module in FOUNDATION or module == "linkgraph":
        return module
    parts = module.split(".")
    return ".".join(parts[:2])


def pages() -> list[str]:
    """Every generated page, in layer order."""
    found = []
    for mod in public_modules():
        if mod == "linkgraph":
            continue
        page = page_of(mod)
        if page not in found:
            found.append(page)
    order = list(FOUNDATION) + list(PACKAGES)
    return sorted(found, key=lambda p: (order.index(p) if p in order else len(order), p))


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return line


def _kind(obj: object) -> str:
    """The autodoc directive for `obj`: exception, class, function (any routine) or data."""
    if inspect.isclass(obj):
        return "autoexception" if issubclass(obj, BaseException) else "autoclass"
    if inspect.isroutine(obj):
        return "autofunction"
    return "autodata"


def _table(rows: list[tuple[str, str]]) -> list[str]:
    if not rows:
        return []
    out = [".. list-table::", "   :widths: 30 70", "   :class: lg-names", ""]
    for ref, summary in rows:
        out += [f"   * - {ref}", f"     - {summary or ' '}"]
    return out + [""]


def _ref(entry: Entry) -> str:
    name = entry.canonical
    return f":py:obj:`{name.rsplit('.', 1)[1]} <{name}>`"


def module_section(module: str, entries: dict[tuple[str, int], Entry], *, level: str) -> list[str]:
    """The rst of one module: heading, docstring, table of its names, then the names at home here."""
    mod = importlib.import_module(module)
    heading = f"``{module}``"
    lines = [heading, level * len(heading), "", f".. automodule:: {module}", "   :no-members:", ""]
    names = exported(module)
    rows, here, submodules = [], [], []
    for name in names:
        obj = getattr(mod, name)
        if inspect.ismodule(obj):
            submodules.append(obj.__name__)
            continue
        entry = entries[(name, id(obj))]
        rows.append((_ref(entry), _summary(entry)))
        if entry.home == module:
            here.append(entry)
    if rows:
        lines += _table(rows)
    for entry in here:
        directive = _kind(entry.obj)
        lines += [f".. {directive}:: {entry.canonical}"]
        if directive in ("autoclass", "autoexception"):
            lines += ["   :members:"]
            if entry.obj.__bases__ != (object,):
                lines += ["   :show-inheritance:"]
            if _is_enum(entry.obj):
                lines += ["   :undoc-members:"]
        elif directive == "autodata":
            lines += ["   :no-value:" if _long_value(entry.obj) else "   :annotation:"]
        others = [n for n in entry.names if n != entry.canonical]
        lines += [""]
        if others:
            lines += [f"   Also importable as {', '.join(f'``{n}``' for n in others)}.", ""]
    return lines


def _summary(entry: Entry) -> str:
    """The first sentence of the docstring; for a constant, of its ``#:`` comment in its module."""
    if not _is_plain_data(entry.obj):
        text = _first_line(entry.obj)
    else:
        from sphinx.pycode import ModuleAnalyzer

        name = entry.canonical.rsplit(".", 1)[1]
        try:
            comments = ModuleAnalyzer.for_module(entry.home).find_attr_docs()
        except Exception:  # no source to read: no summary
            comments = {}
        text = " ".join(comments.get(("", name), [])).strip().split(". ")[0]
    return text.replace("|", "\\|")


def _is_enum(obj: object) -> bool:
    import enum

    return inspect.isclass(obj) and issubclass(obj, enum.Enum)


def _is_plain_data(obj: object) -> bool:
    return isinstance(obj, (str, int, float, tuple, list, dict, frozenset, set, bytes)) or obj is None


def _long_value(obj: object) -> bool:
    return len(repr(obj)) > 80


def page_text(page: str, entries: dict[tuple[str, int], Entry]) -> str:
    """The rst of one generated page: the package, then each of its modules."""
    modules = [m for m in public_modules() if m != "linkgraph" and page_of(m) == page]
    title = f"``{page}``"
    lines = [f".. _api-{page}:", "", title, "=" * len(title), ""]
    first, *rest = modules
    lines += module_section(first, entries, level="-")[3:]  # the page title stands for the first heading
    for module in rest:
        lines += module_section(module, entries, level="-")
    if page == "linkgraph.cli":
        lines += cli_reference()
    return "\n".join(lines) + "\n"


def cli_reference() -> list[str]:
    """Each subcommand's ``--help``, as the parser prints it (width 100)."""
    import os

    from linkgraph.cli.main import COMMANDS, build_parser

    lines = [".. _cli-reference:", "", "Every command's options", "-" * 23, ""]
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = build_parser()
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        for module in COMMANDS:
            name = module.__name__.rsplit(".", 1)[1]
            command = sub.choices[name]
            buf = io.StringIO()
            with redirect_stdout(buf):
                command.print_help()
            heading = f"``linkgraph {name}``"
            lines += [f".. _cli-{name}:", "", heading, "~" * len(heading), "", ".. code-block:: text", ""]
            lines += [textwrap.indent(line, "   ") if line else "" for line in buf.getvalue().splitlines()]
            lines += [""]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return lines


def toc_text(names: list[str]) -> str:
    lines = ["Modules and packages", "====================", "",
             "One page per foundation module and per package, in layer order.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    return "\n".join(lines + [f"   {n}" for n in names]) + "\n"


def write_reference(app) -> None:
    """Write ``api/generated/*.rst`` (only files whose text changed, so rebuilds stay incremental).

    A source tree without ``api/index.rst`` (a page or two built with this configuration,
    as the docs test does) has no reference to hold them: nothing is written."""
    if not (Path(app.srcdir) / "api" / "index.rst").is_file():
        return
    out = Path(app.srcdir) / "api" / "generated"
    out.mkdir(parents=True, exist_ok=True)
    entries = catalogue()
    app.lg_entries = entries
    wanted = {}
    names = pages()
    for page in names:
        wanted[f"{page}.rst"] = page_text(page, entries)
    wanted["toc.rst"] = toc_text(names)
    for stale in out.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _aliases(app) -> dict[str, str]:
    cached = getattr(app, "_lg_aliases", None)
    if cached is not None:
        return cached
    aliases: dict[str, str] = {}
    entries = getattr(app, "lg_entries", None) or catalogue()
    for entry in entries.values():
        for name in entry.names:
            aliases[name] = entry.canonical
            aliases.setdefault("lg." + name.removeprefix("linkgraph."), entry.canonical)
    app._lg_aliases = aliases
    return aliases


def _import(name: str) -> object | None:
    """The object a dotted name stands for, importing the longest module prefix; None if none."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        except Exception:
            return None
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _by_identity(app) -> dict[int, str]:
    cached = getattr(app, "_lg_identity", None)
    if cached is None:
        entries = getattr(app, "lg_entries", None) or catalogue()
        cached = app._lg_identity = {id(e.obj): e.canonical for e in entries.values() if not _is_plain_data(e.obj)}
    return cached


def resolve_alias(app, env, node, contnode):
    """Resolve a Python cross-reference that Sphinx could not: any public name of an object
    (``linkgraph.graph.link_graph``, ``lg.link_graph``, a bare ``link_graph`` in a module that
    imports it) goes to its one documented entry, and a member of a documented class to the
    class's entry. A name that imports but is private (``_helper``, an undocumented
    attribute) stays plain text; a name that imports nothing stays a broken reference."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip(".~")
    module = node.get("py:module") or ""
    klass = node.get("py:class") or ""
    candidates = []
    if target.startswith("lg."):
        candidates.append("linkgraph." + target[3:])
    if module and not target.startswith("linkgraph."):
        if klass:
            candidates.append(f"{module}.{klass}.{target}")
        candidates.append(f"{module}.{target}")
        candidates.append(f"{module.rsplit('.', 1)[0]}.{target}")
    candidates.append(target)
    aliases, identity = _aliases(app), _by_identity(app)
    domain = env.get_domain("py")

    def attempt(name):
        new = node.deepcopy()
        new["reftarget"] = name
        new["refspecific"] = False
        found = domain.resolve_any_xref(env, node.get("refdoc"), app.builder, name, new, contnode)
        return found[0][1] if found else None

    for name in candidates:
        if name in aliases and (found := attempt(aliases[name])) is not None:
            return found
    for name in candidates:
        obj = _import(name)
        if obj is None:
            continue
        if id(obj) in identity and (found := attempt(identity[id(obj)])) is not None:
            return found
        owner, _, member = name.rpartition(".")
        owner_obj = _import(owner)
        if owner_obj is not None and id(owner_obj) in identity:
            if (found := attempt(f"{identity[id(owner_obj)]}.{member}")) is not None:
                return found
        return contnode  # real, but not documented on its own: plain text
    return None


# ---- sphinx-gallery -------------------------------------------------------------------------------

#: Arguments each example script is run with in the docs (small samples, output under the build).
GALLERY_ARGS = {
    "bench_techniques.py": ["--every", "60", "--techniques", "skyscraper,xy-wing,aic"],
    "density_study.py": ["--per-corpus", "40", "--out", "{out}/density"],
    "make_diagrams.py": ["{out}/diagrams"],
    "make_figures.py": ["{out}/figures"],
    "concept_diagrams.py": ["{out}/concepts"],
    "rating_study.py": ["--solve", "{root}/linkgraph/data/puzzles/diabolical_sample.txt", "--ladder", "se", "--limit", "120"],
}
#: Scripts that are tools rather than gallery examples (explorer_load.py needs a running server).
SKIP = ("explorer_load.py",)
#: The scripts quick enough for the docs test (``LINKGRAPH_DOCS_GALLERY=fast``).
FAST = ("make_diagrams.py", "make_figures.py", "rating_study.py")
#: The arguments of `GALLERY_ARGS` that the ``fast`` mode shortens: the rating study on 12
#: lines rather than 120 (``--ladder se`` takes about a second a line; the last ``--limit``
#: given is the one the script reads).
FAST_ARGS = {"rating_study.py": [*GALLERY_ARGS["rating_study.py"], "--limit", "12"]}


class _ResetArgv:
    """sphinx-gallery's ``reset_argv``: the arguments of `GALLERY_ARGS`, or with `fast` those
    of `FAST_ARGS` where it has some (picklable by repr)."""

    def __init__(self, root: Path, out: Path, fast: bool = False):
        self.root, self.out, self.fast = root, out, fast

    def __call__(self, gallery_conf, script_vars):
        name = Path(script_vars["src_file"]).name
        args = (FAST_ARGS if self.fast else {}).get(name, GALLERY_ARGS.get(name, []))
        return [a.format(root=self.root, out=self.out) for a in args]

    def __repr__(self) -> str:
        return f"lgapi._ResetArgv({str(self.root)!r}, {str(self.out)!r}, {self.fast!r})"


class _PictureScraper:
    """Collect the SVG/PNG files a script wrote under the gallery's output folder."""

    def __init__(self, out: Path):
        self.out = out
        self.seen: set[tuple[Path, int]] = set()

    def __call__(self, block, block_vars, gallery_conf):
        from sphinx_gallery.scrapers import figure_rst

        found = {(p, p.stat().st_mtime_ns) for p in self.out.rglob("*") if p.suffix in (".svg", ".png")}
        pictures = sorted(p for p, _ in found - self.seen)
        self.seen |= found
        if not pictures:
            return ""
        targets = []
        image_path_iterator = block_vars["image_path_iterator"]
        for picture in pictures:
            target = Path(next(image_path_iterator)).with_suffix(picture.suffix)
            target.write_bytes(picture.read_bytes())
            targets.append(str(target))
        return figure_rst(targets, gallery_conf["src_dir"])

    def __repr__(self) -> str:
        return f"lgapi._PictureScraper({str(self.out)!r})"


def gallery_conf(root: Path, docs: Path, mode: str) -> dict:
    """The ``sphinx_gallery_conf`` of docs/conf.py; `mode` is ``all``, ``fast`` or ``none``."""
    import shutil

    out = docs / "_build" / "gallery-output"
    shutil.rmtree(out, ignore_errors=True)  # pictures of an earlier build are not this build's
    out.mkdir(parents=True, exist_ok=True)
    if mode == "none":
        pattern = r"^$"
    elif mode == "fast":
        pattern = "/(" + "|".join(re.escape(n) for n in FAST) + ")$"
    else:
        pattern = r"/[a-z_]+\.py$"
    return {
        "examples_dirs": str(root / "examples"),
        "gallery_dirs": str(docs / "gallery"),
        "filename_pattern": pattern,
        "ignore_pattern": "(" + "|".join(re.escape(n) for n in ("__init__.py", *SKIP)) + ")$",
        "reset_argv": _ResetArgv(root, out, fast=mode == "fast"),
        "image_scrapers": ("matplotlib", _PictureScraper(out)),
        "download_all_examples": False,
        "line_numbers": False,
        "remove_config_comments": True,
        "within_subsection_order": "FileNameSortKey",
        "min_reported_time": 1,
        "show_memory": False,
        "plot_gallery": "True",
        "abort_on_example_error": True,
        "first_notebook_cell": None,
        "show_signature": False,
        "write_computation_times": False,
        "copyfile_regex": "",
    }


def strip_code_ends(app, doctree) -> None:
    """Drop the blank line that ends a doctest block in Markdown (doctest needs it, readers do not)."""
    for node in doctree.findall(nodes.literal_block):
        text = node.astext()
        if text != text.rstrip() and len(node.children) == 1 and isinstance(node.children[0], nodes.Text):
            node.children[0] = nodes.Text(text.rstrip())
            node.rawsource = text.rstrip()  # equal to the text, or the writer skips highlighting


def setup(app):
    app.connect("builder-inited", write_reference)
    app.connect("doctree-read", strip_code_ends)
    app.connect("missing-reference", resolve_alias)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
