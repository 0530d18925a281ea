"""Run the linkgraph command line: ``python -m linkgraph``."""

from linkgraph.cli import main

raise SystemExit(main())
