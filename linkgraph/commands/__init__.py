"""Subcommands of the ``linkgraph`` CLI, one module each (see `linkgraph.cli`)."""
