"""``python -m stratagem``: the command line (also under ``mpiexec -n N``)."""

from stratagem.cli import main

raise SystemExit(main())
