# PYTHON_ARGCOMPLETE_OK
"""The ``stratagem`` command line.

``stratagem <command> [options]``; every command takes ``--seed``, ``--threads`` and
``--json`` (one JSON object on stdout and nothing else). Under ``mpiexec`` every rank runs
the command and rank 0 alone prints. Bad input exits with status 2 and a message naming it;
Ctrl-C exits with status 130. Shell completion comes from argcomplete:
``eval "$(register-python-argcomplete stratagem)"`` (bash, zsh; fish and tcsh alike).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import platform
import socket
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn

import argcomplete
import numpy as np

from stratagem import _core, _validate, games, mpi, progress, rng
from stratagem.cli_common import (
    Commands,
    Common,
    check_outputs,
    command_group,
    command_summary,
    common_options,
    count_argument,
    seconds_argument,
    warn_deprecated_command,
)
from stratagem.errors import StratagemError

__all__ = [
    "Commands",
    "Common",
    "build_parser",
    "collect_info",
    "command_group",
    "count_argument",
    "main",
    "seconds_argument",
]

_OPTIONAL_PACKAGES = ("mpi4py", "matplotlib", "networkx", "scipy", "hypothesis")
_common_options = common_options


def _package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def collect_info(threads: int | None = None) -> dict[str, Any]:
    """What ``stratagem info`` reports: versions, build, threads and the MPI world.

    Every rank contributes its own entry to ``ranks``; the world-wide fields are the same on
    every rank.
    """
    world = mpi.world()
    here = {
        "rank": world.rank,
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "threads": _core.resolve_threads(threads),
    }
    mpi_state = mpi.mpi_info()
    return {
        "version": _core.__version__,
        "build_profile": _core.BUILD_PROFILE,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "cores": _core.default_threads(),
        "threads": here["threads"],
        "threads_env": os.environ.get("STRATAGEM_NUM_THREADS"),
        "mpi_available": mpi_state["mpi_available"],
        "mpi_library": mpi_state["library_version"],
        "world_size": world.size,
        "ranks": world.allgather_object(here),
        "optional_packages": {name: _package_version(name) for name in _OPTIONAL_PACKAGES},
    }


def _info(args: argparse.Namespace) -> dict[str, Any]:
    return collect_info(args.threads)


def _print_info(report: dict[str, Any]) -> None:
    print(f"stratagem {report['version']} ({report['build_profile']} build)")
    print(f"python {report['python']}, numpy {report['numpy']}, {report['platform']}")
    print(f"threads per call: {report['threads']} (cores: {report['cores']})")
    state = (
        "available" if report["mpi_available"] else "not installed (pip install 'stratagem[mpi]')"
    )
    print(f"MPI: {state}; world size {report['world_size']}")
    for entry in report["ranks"]:
        print(
            f"  rank {entry['rank']}: {entry['host']} pid {entry['pid']}, "
            f"{_plural(entry['threads'], 'thread')}"
        )
    extras = ", ".join(f"{k} {v or '-'}" for k, v in report["optional_packages"].items())
    print(f"optional packages: {extras}")


def _plural(count: int, noun: str) -> str:
    """``"1 thread"``, ``"2 threads"``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _plain(value: float) -> str:
    """A number as a person reads it: digits grouped, four decimals at most, no exponent."""
    return f"{value:,.4f}".rstrip("0").rstrip(".")


def _rng_blocks(args: argparse.Namespace) -> dict[str, Any]:
    blocks = rng.blocks(
        args.seed, args.purpose, args.ids, args.start, args.count, threads=args.threads
    )
    return {
        "seed": args.seed,
        "purpose": args.purpose,
        "purpose_tag": rng.purpose_tag(args.purpose),
        "ids": args.ids,
        "start": args.start,
        "blocks": [[f"{int(w):016x}" for w in row] for row in blocks],
    }


def _print_rng_blocks(report: dict[str, Any]) -> None:
    print(f"stream (seed={report['seed']}, purpose={report['purpose']!r}, ids={report['ids']})")
    print(f"key = [{report['seed']:#018x}, {report['purpose_tag']:#018x}]")
    for offset, row in enumerate(report["blocks"]):
        print(f"block {report['start'] + offset}: {' '.join(row)}")


_BINOMIAL_BLOCK = 1 << 20


def _rng_binomial(args: argparse.Namespace) -> dict[str, Any]:
    n = _validate.u64("--n", args.n)
    count = _validate.integer("--count", args.count, 1, 10**8)
    # Drawn in blocks for the progress bar; draw i is the same whatever the blocks.
    values = np.empty(count, dtype=np.uint64)
    with progress.Progress(count, "binomial draws") as bar:
        for start in range(0, count, _BINOMIAL_BLOCK):
            stop = min(start + _BINOMIAL_BLOCK, count)
            ids = np.arange(start, stop, dtype=np.uint64).reshape(-1, 1)
            trials = np.full(stop - start, n, np.uint64)
            values[start:stop] = rng.binomial_half(
                args.seed, "cli.binomial", ids, trials, threads=args.threads
            )
            bar.advance(stop - start)
    as_float = values.astype(np.float64)
    return {
        "n": n,
        "count": count,
        "mean": float(as_float.mean()),
        "expected_mean": n / 2,
        "std": float(as_float.std()),
        "expected_std": (n / 4) ** 0.5,
        "first": [int(v) for v in values[:10]],
    }


def _print_rng_binomial(report: dict[str, Any]) -> None:
    print(f"{report['count']} draws of Binomial({report['n']}, 1/2)")
    print(f"mean {_plain(report['mean'])} (expected {_plain(report['expected_mean'])})")
    print(f"std  {_plain(report['std'])} (expected {_plain(report['expected_std'])})")
    print(f"first draws: {report['first']}")


def _demo(args: argparse.Namespace) -> dict[str, Any]:
    from stratagem.cli.demo import run_demo

    return run_demo(seed=args.seed, threads=args.threads, echo=not args.json)


class _UsageError(Exception):
    """argparse's complaint about the command line, raised to :func:`main` with what to print
    before it (the usage of the command that complains, or its whole help)."""

    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.usage = usage


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    """The subcommands of a parser that groups commands (None: a command's own parser)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _visible_commands(group: argparse._SubParsersAction[Any]) -> list[str]:
    """The subcommands a person is shown: deprecated old names are left out."""
    return [action.dest for action in group._choices_actions]


def _visible_options(parser: argparse.ArgumentParser) -> list[str]:
    """The option spellings a command's help shows (deprecated spellings are left out)."""
    return [
        spelling
        for action in parser._actions
        if action.help != argparse.SUPPRESS
        for spelling in action.option_strings
    ]


def _did_you_mean(word: str, candidates: Sequence[str]) -> str:
    """``"; did you mean X?"`` for the nearest of ``candidates`` (difflib), or nothing."""
    nearest = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f"; did you mean {nearest[0]}?" if nearest else ""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, written for a person: a usage error names the command once
    (``stratagem: error: conquest play: ...``), shows that command's usage, suggests the
    nearest spelling of a misspelt option or command, and goes through :func:`main`'s one way
    out (one JSON error object under ``--json``, every MPI rank ended)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("stratagem").strip()
        usage = self.format_usage()
        group = _subcommands(self)
        if group is not None and message.endswith(f"arguments are required: {group.metavar}"):
            # A group named alone: its whole help is the answer.
            message = f"missing {group.metavar}: one of {', '.join(_visible_commands(group))}"
            usage = self.format_help()
        raise _UsageError(f"{command}: {message}" if command else message, usage)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse's, but words left over are refused by the command they were given to
        (its usage, and the nearest option to a misspelt one)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command: argparse.ArgumentParser = self
            while (group := _subcommands(command)) is not None:
                chosen = getattr(parsed, str(group.dest), None)
                if chosen not in group.choices:
                    break
                command = group.choices[chosen]
            misspelt = next((word for word in extras if word.startswith("-")), "")
            hint = _did_you_mean(misspelt.partition("=")[0], _visible_options(command))
            command.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside the choices: the choices a person may use, and the nearest one."""
        if action.choices is None or value in action.choices:
            return
        if isinstance(action, argparse._SubParsersAction):
            shown = _visible_commands(action)
        else:
            shown = [str(choice) for choice in action.choices]
        hint = _did_you_mean(str(value), shown)
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r}{hint} (choose from {', '.join(shown)})"
        )


# How long a failing rank waits for the others to fail too (the same bad input fails every
# rank within moments) before it ends the job alone.
_FAILURE_AGREEMENT = 2.0


# The extra that brings each optional package (pyproject.toml, [project.optional-dependencies]).
_EXTRA_OF = {
    "mpi4py": "mpi",
    "matplotlib": "plot",
    "networkx": "graph",
    "scipy": "graph",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "pettingzoo": "envs",
    "gymnasium": "envs",
    "diplomacy": "diplomacy",
}


def _missing_extra(error: ModuleNotFoundError) -> str | None:
    """The message for an optional package that is not installed (None: not one of ours)."""
    package = (error.name or "").split(".")[0]
    extra = _EXTRA_OF.get(package)
    if extra is None:
        return None
    return f"this command needs {package}, which is not installed: pip install 'stratagem[{extra}]'"


def build_parser(words: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given a command's ``words``, only the game they name (if
    any) has its command group built, for each group imports its game's room; the other
    games stand in the list of commands by their summaries. Without words, every group is
    built."""
    parser: argparse.ArgumentParser = _Parser(
        prog="stratagem",
        description="Fast, reproducible simulation and search for five turn-based territory games.",
    )
    parser.add_argument("--version", action="version", version=f"stratagem {_core.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="<command>", required=True)

    info = commands.add_parser(
        "info", parents=[_common_options()], help="build, threads, MPI world and versions"
    )
    info.set_defaults(run=_info, show=_print_info)

    demo = commands.add_parser(
        "demo", parents=[_common_options()], help="a short tour of what stratagem does"
    )
    demo.set_defaults(run=_demo, show=None)

    rng_commands = command_group(commands, "rng", "inspect the reproducible random streams")
    blocks = rng_commands.add_parser(
        "blocks", parents=[_common_options()], help="print blocks of a stream"
    )
    blocks.add_argument("--purpose", default="cli", help="purpose string of the stream")
    blocks.add_argument(
        "--ids",
        type=lambda s: [int(x, 0) for x in s.split(",") if x],
        default=[],
        help="comma-separated stream ids (at most 3)",
    )
    blocks.add_argument("--start", type=int, default=0, help="first block index")
    blocks.add_argument("--count", type=int, default=4, help="number of blocks")
    blocks.set_defaults(run=_rng_blocks, show=_print_rng_blocks)
    binomial = rng_commands.add_parser(
        "binomial", parents=[_common_options()], help="draw Binomial(n, 1/2) samples"
    )
    binomial.add_argument(
        "--n", type=int, required=True, help="number of trials (any size up to 2**64-1)"
    )
    binomial.add_argument("--count", type=int, default=1_000_000, help="number of draws")
    binomial.set_defaults(run=_rng_binomial, show=_print_rng_binomial)

    # Each registered game adds its own command group from its own module.
    named = next((word for word in words or () if not word.startswith("-")), None)
    for spec in games.available():
        if spec.cli is None:
            continue
        if words is None or spec.name == named:
            spec.register_cli(commands, common_options)
        else:
            commands.add_parser(spec.name, help=command_summary(spec.name, spec.summary))
    return parser


def _emit(args: argparse.Namespace, report: dict[str, Any]) -> None:
    if mpi.world().rank != 0:
        return
    if args.json:
        print(json.dumps(report, sort_keys=True))
    elif args.show is not None:
        args.show(report)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command. Every way out under ``--json`` prints one JSON object on stdout (the
    report, or ``{"error": {"type": ..., "message": ...}}``) and no traceback: usage errors
    and unknown commands (exit 2), bad input (2), a missing optional package (2, naming the
    extra to install), Ctrl-C (130), ranks of one MPI job given different commands or a bad
    ``STRATAGEM_NUM_THREADS`` on any rank (2, before any work); a reader that closed stdout
    early ends it quietly (141)."""
    words = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in words
    try:
        mpi.same_command(words)  # under mpiexec: every rank runs this very command
        mpi.threads_variable_checked()  # and can read its thread count
    except StratagemError as error:
        return _fail(as_json, type(error).__name__, str(error), 2)
    try:
        # The completion hook passes the words typed so far in the environment, not argv.
        completing = "_ARGCOMPLETE" in os.environ
        parser = build_parser(None if completing else words)
        # Only when the shell's completion hook runs the command: it prints the completions
        # of the words typed so far and exits.
        argcomplete.autocomplete(parser)
        args = parser.parse_args(words)
    except _UsageError as error:
        # As argparse does: the usage, the complaint, and SystemExit(2).
        sys.stderr.write(error.usage)
        raise SystemExit(_fail(as_json, "UsageError", str(error), 2)) from None
    warn_deprecated_command(args)
    try:
        check_outputs(args)
        with progress.forced(getattr(args, "progress", None)):
            report = args.run(args)
        _emit(args, report)
        sys.stdout.flush()
    except StratagemError as error:
        return _fail(as_json, type(error).__name__, str(error), 2)
    except ModuleNotFoundError as error:
        message = _missing_extra(error)
        if message is None:
            raise
        return _fail(as_json, "MissingDependency", message, 2)
    except KeyboardInterrupt:
        return _fail(as_json, "Interrupted", "interrupted", 130)
    except BrokenPipeError:
        return _stdout_closed()
    return 0


def _stdout_closed() -> int:
    """A reader that closed stdout early (``| head``) ends the command quietly, as a pipe's
    writer does: no traceback, status 141 (128 + SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's last flush is quiet
    return 141


def _fail(as_json: bool, kind: str, message: str, status: int) -> int:
    """The one way out of a failed command: the message once (one JSON object on stdout under
    ``--json``, the text on stderr) and ``status``. Under ``mpiexec``, when every rank failed
    alike rank 0 speaks for all; when only some did, each failing rank says which it is and
    ends the whole job, so that no rank waits for it in a collective."""
    world = mpi.world()
    together = not world.is_distributed or world.all_failed(_FAILURE_AGREEMENT)
    if together and world.rank != 0:
        return status
    if not together:
        message = f"on MPI rank {world.rank} of {world.size}: {message}"
    if as_json:
        print(json.dumps({"error": {"type": kind, "message": message}}), flush=True)
    print(f"stratagem: {'error: ' if status == 2 else ''}{message}", file=sys.stderr, flush=True)
    if not together:
        world.abort(status)
    return status
