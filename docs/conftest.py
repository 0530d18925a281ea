"""pytest in docs/: the Markdown pages are doctests (``--doctest-glob=*.md``); the Sphinx
configuration, the local extension and the build output are not test modules."""

collect_ignore = ["conf.py", "_ext", "_build", "gallery", "api"]
