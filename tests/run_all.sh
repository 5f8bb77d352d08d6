#!/usr/bin/env bash
# Every test of stratagem, in the order that fails fastest. Run after installing the test
# extra (the README's test command and .ci/run do both):
#   pip install -e '.[test]' && bash tests/run_all.sh
set -euo pipefail
cd "$(dirname "$0")/.."

export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
# The PyPI MPICH: fork-launched ranks, and a job that outlives this limit is killed, never hung.
export HYDRA_LAUNCHER=fork
export MPIEXEC_TIMEOUT="${MPIEXEC_TIMEOUT:-300}"
export STRATAGEM_SOAK_SECONDS="${STRATAGEM_SOAK_SECONDS:-10}"
scripts="$(python -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
mpiexec="$scripts/mpiexec"
[ -x "$mpiexec" ] || mpiexec="$(command -v mpiexec)"

step() { printf '\n== %s\n' "$*"; }

step "rust: format, lints, tests"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked

step "python: ruff, mypy, stubs"
python -m ruff check python tests benches
python -m ruff format --check python tests benches
python -m mypy
python -m mypy.stubtest stratagem._core

step "docs site: mkdocs build --strict (pages, pictures, API reference from the docstrings)"
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --quiet --site-dir "$(mktemp -d)"

step "benchmarks run (smoke test, figures not checked)"
python benches/run.py --quick --min-seconds 0.05 > /dev/null
python benches/conquest_mpi_scaling.py --quick > /dev/null
python benches/conquest_ends.py --seeds 2 --turns 50 > /dev/null

step "wheel: a manylinux2014 abi3 wheel from the sdist, installed and run with no Rust toolchain"
python tests/check_wheel.py

step "MPI: collective tests under mpiexec -n 2 and oversubscribed -n 4"
"$mpiexec" -n 2 python -m pytest tests/mpi -q -p no:cacheprovider
"$mpiexec" -n 4 python -m pytest tests/mpi -q -p no:cacheprovider

step "MPI: conquest, mastermind and outpost on 1 and 3 ranks against one process (2 and 4 ran above)"
for n in 1 3; do
    "$mpiexec" -n "$n" python -m pytest tests/mpi/test_conquest_mpi.py tests/mpi/test_mastermind_mpi.py tests/mpi/test_outpost_mpi.py -q -p no:cacheprovider
done

step "soak tests (slow marker, ${STRATAGEM_SOAK_SECONDS} s each)"
python -m pytest -m slow -q -p no:cacheprovider

step "pytest: unit, property (hypothesis profile $HYPOTHESIS_PROFILE), doc examples"
# tests/mpi ran under mpiexec above; in one process each would only be a skip line of its own.
python -m pytest -q -p no:cacheprovider --ignore=tests/mpi
