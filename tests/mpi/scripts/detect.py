"""Print this rank's ``mpi_info()`` as one JSON line, plus whether mpi4py.MPI was imported."""

from __future__ import annotations

import json
import sys

from stratagem.mpi import mpi_info


def main() -> None:
    info = mpi_info()
    print(json.dumps({"info": info, "mpi_imported": "mpi4py.MPI" in sys.modules}), flush=True)


if __name__ == "__main__":
    main()
