"""Builds the release wheel the way the README says, from the source distribution, and proves
it works where no Rust toolchain is: a manylinux2014 (glibc 2.17) abi3 wheel built with zig,
installed into a new virtual environment, then ``stratagem info --json`` and a short game of
each kind run with no cargo or rustc on PATH.

Run by ``tests/run_all.sh``; by hand: ``python tests/check_wheel.py [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The oldest glibc the wheel may need: manylinux2014.
GLIBC_FLOOR = (2, 17)
WHEEL_NAME = re.compile(r"stratagem-[^-]+-cp311-abi3-.*manylinux_2_17_x86_64\.whl$")
# A short game of each kind, and the build report.
COMMANDS = [
    ["info"],
    ["conquest", "play", "--board", "grid:8x8", "--turns", "20"],
    ["annexation", "play", "--board", "hex:4", "--players", "greedy,random"],
    ["outpost", "play", "--turns", "40"],
    ["mastermind", "play", "--spots", "4", "--colours", "6", "--secret", "0123"],
    ["diplomacy", "count", "AUS: A VIE / BUD TRI VIE"],
]


def _run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, check=True, text=True, **options)  # type: ignore[call-overload]


def build(work: Path) -> Path:
    """The wheel built from the sdist built from this checkout."""
    dist = work / "dist"
    _run([sys.executable, "-m", "maturin", "sdist", "--out", str(dist)], cwd=ROOT)
    (sdist,) = dist.glob("stratagem-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "sdist", filter="data")
    (source,) = (work / "sdist").iterdir()
    environment = {**os.environ, "CARGO_TARGET_DIR": str(work / "target")}
    _run(
        [
            *[sys.executable, "-m", "maturin", "build", "--profile", "wheel", "--zig"],
            *["--compatibility", "manylinux2014", "--out", str(dist)],
        ],
        cwd=source,
        env=environment,
    )
    (wheel,) = dist.glob("*.whl")
    return wheel


def glibc_needed(wheel: Path, work: Path) -> tuple[int, ...]:
    """The newest glibc symbol version the extension links against."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".so")]
        extension = work / "extension.so"
        extension.write_bytes(archive.read(name))
    symbols = subprocess.run(
        ["objdump", "-T", str(extension)], check=True, capture_output=True, text=True
    ).stdout
    versions = {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_([0-9.]+)", symbols)}
    return max(versions)


def without_rust() -> str:
    """PATH without any folder that holds cargo or rustc."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(
        folder
        for folder in folders
        if not any((Path(folder) / tool).exists() for tool in ("cargo", "rustc"))
    )


def check_installed(wheel: Path, work: Path) -> None:
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)])
    path = os.pathsep.join([str(venv / "bin"), without_rust()])
    environment = {"PATH": path, "HOME": str(work), "LANG": "C.UTF-8"}
    for tool in ("cargo", "rustc"):
        assert shutil.which(tool, path=path) is None, f"{tool} is still on PATH"
    for command in COMMANDS:
        done = _run(
            ["stratagem", *command, "--json"], env=environment, cwd=work, capture_output=True
        )
        report = json.loads(done.stdout)
        assert isinstance(report, dict), (command, report)
        assert "error" not in report, (command, report)
        print(f"  ok: {len(done.stdout)} bytes of JSON")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build in DIR and keep it (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stratagem-wheel-") as temporary:
        work = args.keep or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        wheel = build(work)
        assert WHEEL_NAME.search(wheel.name), f"unexpected wheel name {wheel.name}"
        needed = glibc_needed(wheel, work)
        assert needed <= GLIBC_FLOOR, f"the extension needs glibc {needed}, above {GLIBC_FLOOR}"
        check_installed(wheel, work)
        size = wheel.stat().st_size
        print(f"wheel {wheel.name}: {size / 1e6:.2f} MB, needs glibc {'.'.join(map(str, needed))}")


if __name__ == "__main__":
    main()
