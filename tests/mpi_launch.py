"""Launching Python and ``mpiexec`` in subprocesses for the tests that watch a whole job:
a clean environment (no launcher variables from an outer job), the PyPI MPICH's
``mpiexec``, and the JSON objects the ranks printed."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.mpi import LAUNCHER_VARIABLES

SCRIPTS = Path(__file__).parent / "mpi" / "scripts"


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARIABLES}
    env.pop("STRATAGEM_MPI", None)
    env.update(HYDRA_LAUNCHER="fork", MPIEXEC_TIMEOUT="60", **extra)
    return env


def mpiexec() -> str:
    # The PyPI mpich package installs mpiexec next to the interpreter.
    found = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which(
        "mpiexec"
    )
    if found is None:
        pytest.skip("mpiexec not found (pip install 'stratagem[mpich]')")
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'stratagem[mpich]')")
    return found


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, env=clean_env(**env), capture_output=True, text=True, timeout=90, check=False
    )


def mpirun(ranks: int, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return run([mpiexec(), "-n", str(ranks), sys.executable, *args], **env)


def json_lines(stdout: str) -> list[dict]:
    # Ranks share stdout; each prints whole lines, but a line may follow another's without
    # its newline, so split on the objects' boundaries.
    decoder = json.JSONDecoder()
    objects, position = [], 0
    text = stdout.strip()
    while position < len(text):
        obj, end = decoder.raw_decode(text, position)
        objects.append(obj)
        position = end
        while position < len(text) and text[position].isspace():
            position += 1
    return objects
