"""What an MPI launcher leaves in the environment, read before anything imports numpy."""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from typing import Final

#: Environment variables set by mpiexec/mpirun (MPICH Hydra, PMIx, Open MPI).
LAUNCHER_VARIABLES: Final = (
    "PMI_RANK",
    "PMI_SIZE",
    "PMIX_RANK",
    "OMPI_COMM_WORLD_SIZE",
    "MPI_LOCALNRANKS",
    "HYDI_CONTROL_FD",
)

#: The thread count of numpy's BLAS (OpenBLAS, which numpy's wheels bundle).
BLAS_THREADS_VARIABLE: Final = "OPENBLAS_NUM_THREADS"


def launcher_detected(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the environment shows an MPI launcher (``mpiexec``/``mpirun``)."""
    env = os.environ if environ is None else environ
    return any(name in env for name in LAUNCHER_VARIABLES)


def one_blas_thread_under_a_launcher(environ: MutableMapping[str, str] | None = None) -> None:
    """Under an MPI launcher, one BLAS thread a rank unless the environment sets another.

    The ranks of a host share its cores, and stratagem's work runs in its engine, not in
    numpy's BLAS, which would otherwise start a thread a core in every rank (they spin while
    the ranks work: 0.1-0.2 s of a two-rank ``conquest play`` on two cores). Takes effect only
    when set before numpy is first imported, so the package does it first.
    """
    env = os.environ if environ is None else environ
    if launcher_detected(env):
        env.setdefault(BLAS_THREADS_VARIABLE, "1")
