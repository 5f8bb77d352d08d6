"""The pieces every game's command line is built from, so that every game answers to the same
words (``docs/games.md``, "One vocabulary"):

- the command that plays a game is ``play``;
- who plays is ``--players a,b,...`` (names of built-in players, policies or AIs);
- game length is ``--turns``; a picture of the end is ``--png FILE``;
- ``--save FILE`` writes the game at the end, ``--load FILE`` continues a saved one;
- the JSON of a played game holds ``outcome`` (``won``/``drawn``/``unfinished``),
  ``winners`` (a list of seats), ``turns_played`` and ``seconds``, besides the game's own
  fields; ``ranks`` always means MPI processes.

Old spellings stay as aliases that print a deprecation note on stderr
(:class:`DeprecatedOption`, :func:`add_command`). A command's help texts are the docstring
of the function that runs it (:func:`add_command`), as click has it.

This module imports no game, so a game's ``cli.py`` can import it without a circle.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeAlias, TypeVar

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter, StratagemError
from stratagem.mpi import world

__all__ = [
    "COMMAND_SUMMARIES",
    "Command",
    "Commands",
    "Common",
    "DeprecatedOption",
    "Output",
    "Show",
    "add_checkpoint",
    "add_command",
    "add_count",
    "add_file",
    "add_load",
    "add_png",
    "add_save",
    "add_seconds",
    "add_turns",
    "check_readable",
    "command_group",
    "command_summary",
    "common_options",
    "count_argument",
    "names_argument",
    "played_report",
    "print_files",
    "refuse_new_game_options",
    "save_on_interrupt",
    "seconds_argument",
    "timed",
    "warn_deprecated_command",
    "write_outputs",
]

Command = Callable[[argparse.Namespace], dict[str, Any]]
#: Prints a command's report as text (None: the command prints as it goes).
Show: TypeAlias = Callable[[dict[str, Any]], None] | None
#: A file a command may write: its kind (the key in the report's ``files``), the path given
#: (None: not asked for) and the function that writes it there.
Output: TypeAlias = tuple[str, Path | None, Callable[[Path], object]]
#: The subcommands of a parser, where each game's ``register(commands, common)`` adds its group.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
#: Makes the parent parser that gives a command ``--seed``, ``--threads`` and ``--json``.
Common: TypeAlias = Callable[[], argparse.ArgumentParser]


#: What each built-in game's command group does, as ``stratagem --help`` lists it (a game's
#: registry summary, ``GameSpec.summary``, describes the game itself).
COMMAND_SUMMARIES = {
    "annexation": "Filler-style colour annexation: play games, matches and tournaments of AIs, "
    "time playouts, draw boards",
    "conquest": "RISK-like war of teams on a graph: play a game, exact battle odds, "
    "tournaments of policies",
    "outpost": "four empires grow outposts on a 100x100 grid: play a game, tournaments, maps",
    "mastermind": "break a secret code: watch a strategy or play it yourself, evaluate "
    "strategies, count the codes left",
    "diplomacy": "Diplomacy's winter adjustments: count and search every power's builds and "
    "removals, Loeb's tables and open problem",
}


def command_summary(game: str, fallback: str) -> str:
    """The help line of a game's command group: :data:`COMMAND_SUMMARIES`, else ``fallback``
    (the registry summary of a game added from outside)."""
    return COMMAND_SUMMARIES.get(game, fallback)


def _seed(text: str) -> int:
    try:
        return _validate.seed(int(text, 0))
    except (ValueError, StratagemError) as error:
        raise argparse.ArgumentTypeError(
            f"seed must be an integer in [0, 2**64): {text!r}"
        ) from error


def _threads(text: str) -> int:
    try:
        value = _validate.threads(int(text))
    except (ValueError, StratagemError) as error:
        raise argparse.ArgumentTypeError(
            f"threads must be an integer from 1 to {_core.MAX_THREADS}: {text!r}"
        ) from error
    assert value is not None
    return value


def count_argument(text: str) -> int:
    """An argparse type for counts (games, turns, playouts): a whole number."""
    try:
        return int(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from error


def seconds_argument(text: str) -> float:
    """An argparse type for durations: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from error
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def names_argument(text: str) -> list[str]:
    """An argparse type for ``a,b,c``: the non-empty names, in order."""
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise argparse.ArgumentTypeError(f"expected names separated by commas, got {text!r}")
    return names


def common_options() -> argparse.ArgumentParser:
    """A fresh parent parser per command with ``--seed``, ``--threads`` and ``--json``:
    parents share their option objects, so one shared parent would let one command's
    defaults leak into every other."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--seed", type=_seed, default=0, help="seed of every random draw (default 0)"
    )
    common.add_argument(
        "--threads",
        type=_threads,
        default=None,
        help="worker threads (default: STRATAGEM_NUM_THREADS, else every core, shared among "
        "the MPI ranks on one host)",
    )
    common.add_argument(
        "--json", action="store_true", help="print one JSON object on stdout, nothing else"
    )
    bars = common.add_mutually_exclusive_group()
    bars.add_argument(
        "--progress",
        dest="progress",
        action="store_const",
        const=True,
        default=None,
        help="always draw progress bars on stderr (default: when stderr is a terminal)",
    )
    bars.add_argument(
        "--no-progress",
        dest="progress",
        action="store_const",
        const=False,
        help="never draw progress bars",
    )
    return common


def command_group(commands: Commands, name: str, help: str) -> Commands:
    """The subcommands of a new command ``name`` that only groups others (``NAME <NAME
    command>``): a game's commands, or a group inside them."""
    group = commands.add_parser(name, help=help)
    return group.add_subparsers(dest=f"{name}_command", metavar=f"<{name} command>", required=True)


def _note(old: str, new: str) -> None:
    print(f"stratagem: note: {old} is deprecated; use {new}", file=sys.stderr)


class DeprecatedOption(argparse.Action):
    """An old option spelling: stores into the new option's ``dest`` (through the new
    option's ``type``) and prints a deprecation note naming the new spelling."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        *,
        new: str,
        convert: Callable[[str], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.new = new
        self.convert = convert
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        _note(str(option_string), self.new)
        if self.convert is not None and isinstance(values, str):
            try:
                values = self.convert(values)
            except argparse.ArgumentTypeError as error:
                parser.error(f"argument {option_string}: {error}")
        setattr(namespace, self.dest, values)


def _help_texts(run: Command) -> tuple[str, str | None]:
    """The ``help`` and ``description`` of the command ``run`` runs: the first paragraph of
    its docstring and the rest (None when there is none), white space folded as argparse
    prints it."""
    doc = inspect.getdoc(run)
    if not doc:
        raise TypeError(f"{run.__qualname__} needs a docstring: it is the command's help")
    summary, _, details = doc.partition("\n\n")
    return " ".join(summary.split()), " ".join(details.split()) or None


def add_command(
    commands: Commands,
    name: str,
    common: Common,
    run: Command,
    show: Show,
    *,
    old_names: Sequence[str] = (),
    prefix: str = "",
) -> list[argparse.ArgumentParser]:
    """The parser of command ``name``, which ``run`` runs and ``show`` prints (help texts:
    :func:`_help_texts`), and one per deprecated old name (same options: the caller adds them
    to every parser returned; running an old name prints a note)."""
    help, description = _help_texts(run)
    parsers = [commands.add_parser(name, help=help, parents=[common()])]
    for old in old_names:
        # No help: argparse lists a subcommand given any help, even SUPPRESS, in its group.
        alias = commands.add_parser(old, parents=[common()])
        alias.set_defaults(deprecated_command=(f"'{prefix}{old}'", f"'{prefix}{name}'"))
        parsers.append(alias)
    for parser in parsers:
        parser.description = description
        parser.set_defaults(run=run, show=show)
    return parsers


def warn_deprecated_command(args: argparse.Namespace) -> None:
    """Prints the note of a deprecated command name (the main entry point calls it)."""
    deprecated = getattr(args, "deprecated_command", None)
    if deprecated is not None:
        _note(*deprecated)


def add_count(
    parser: argparse.ArgumentParser,
    option: str,
    *,
    help: str,
    default: int | None = None,
    metavar: str | None = None,
) -> None:
    """``option N``, a whole number (:func:`count_argument`)."""
    parser.add_argument(option, type=count_argument, default=default, metavar=metavar, help=help)


def add_seconds(parser: argparse.ArgumentParser, option: str, *, help: str) -> None:
    """``option SECONDS``, a positive number of seconds (:func:`seconds_argument`)."""
    parser.add_argument(option, type=seconds_argument, metavar="SECONDS", help=help)


def add_turns(
    parser: argparse.ArgumentParser,
    *,
    default: int | None,
    help: str,
    metavar: str | None = "N",
    old: Sequence[str] = (),
) -> None:
    """``--turns N`` (and deprecated spellings ``old``) into ``args.turns``."""
    add_count(parser, "--turns", default=default, metavar=metavar, help=help)
    for spelling in old:
        parser.add_argument(
            spelling,
            dest="turns",
            action=DeprecatedOption,
            new="--turns",
            convert=count_argument,
        )


def add_file(
    parser: argparse.ArgumentParser,
    option: str,
    *,
    help: str,
    metavar: str | None = "FILE",
    old: Sequence[str] = (),
) -> None:
    """``option FILE``, a path (and deprecated spellings ``old``)."""
    action = parser.add_argument(option, type=Path, metavar=metavar, help=help)
    for spelling in old:
        parser.add_argument(
            spelling, dest=action.dest, action=DeprecatedOption, new=option, convert=Path
        )


def add_png(parser: argparse.ArgumentParser, *, help: str, old: Sequence[str] = ()) -> None:
    """``--png FILE`` (and deprecated spellings ``old``) into ``args.png``."""
    add_file(parser, "--png", help=help, old=old)


def add_save(parser: argparse.ArgumentParser, *, help: str = "save the game at the end") -> None:
    add_file(parser, "--save", help=help)


def add_load(
    parser: argparse.ArgumentParser, *, help: str = "continue a game saved with --save"
) -> None:
    """``--load FILE``; the command refuses a missing file with :func:`check_readable`."""
    add_file(parser, "--load", help=help)


def add_checkpoint(
    parser: argparse.ArgumentParser, *, what: str, metavar: str | None = "FILE"
) -> None:
    """``--checkpoint FILE`` of a resumable run, saving ``what`` (``each finished match``)."""
    add_file(
        parser,
        "--checkpoint",
        metavar=metavar,
        help=f"save {what} to this JSON file; run again with it to resume",
    )


def refuse_new_game_options(args: argparse.Namespace, options: Sequence[str], keeps: str) -> None:
    """Refuses, beside ``--load``, the ``options`` (by their argparse names) of a new game
    that were given: the saved game keeps its own ``keeps``."""
    given = ["--" + key.replace("_", "-") for key in options if getattr(args, key) is not None]
    if given:
        raise InvalidParameter(
            f"--load continues the saved game with its own {keeps}; drop {', '.join(given)}"
        )


#: The options that name a file a command writes, by their argparse names; every command's are
#: checked before its work starts (:func:`check_outputs`).
OUTPUT_OPTIONS = ("save", "png", "plot", "history_png", "gif", "csv", "checkpoint", "out")


def check_output(path: str | os.PathLike[str], option: str) -> None:
    """Refuses ``option``'s file when it cannot be written: its folder missing or not
    writable, or the path a folder (so that no work is done for a result that would be lost)."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise InvalidParameter(f"{option} {target}: the folder {folder} does not exist")
    if target.is_dir():
        raise InvalidParameter(f"{option} {target}: a folder, not a file")
    if target.exists() and not target.is_file():
        raise InvalidParameter(f"{option} {target}: not a regular file (a device or a pipe)")
    if not os.access(folder, os.W_OK | os.X_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        raise InvalidParameter(f"{option} {target}: not writable")


def check_outputs(args: argparse.Namespace) -> None:
    """:func:`check_output` for every output option a command was given."""
    for name in OUTPUT_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, (str, os.PathLike)):
            check_output(value, "--" + name.replace("_", "-"))


def check_readable(path: Path | None, option: str) -> None:
    """Refuses ``option``'s file when it does not exist: one error class for a missing file
    in every game (a file that exists but is not a valid save is ``InvalidBoard``)."""
    if path is not None and not path.is_file():
        what = "not a regular file" if path.exists() else "no such file"
        raise InvalidParameter(f"{option} {path}: {what}")


_Result = TypeVar("_Result")
_Arguments = ParamSpec("_Arguments")


def timed(
    run: Callable[_Arguments, _Result], *args: _Arguments.args, **kwargs: _Arguments.kwargs
) -> tuple[_Result, float]:
    """``run(*args, **kwargs)`` and the seconds it took."""
    started = time.perf_counter()
    result = run(*args, **kwargs)
    return result, time.perf_counter() - started


@contextlib.contextmanager
def save_on_interrupt(
    path: str | os.PathLike[str] | None,
    save: Callable[[Any], object],
    *,
    reached: Callable[[], str],
    what: str,
    go_on: str,
) -> Iterator[None]:
    """Saves the work to ``path`` (when given; on MPI rank 0 alone) when Ctrl-C stops the
    block, says on stderr how far it got (``reached()``) and how to ``go_on`` with it, and
    lets the interrupt go on."""
    try:
        yield
    except KeyboardInterrupt:
        if path and world().rank == 0:
            save(path)
            print(
                f"stratagem: interrupted after {reached()}; the {what} is saved in {path}: "
                f"{go_on} with --load {path}",
                file=sys.stderr,
            )
        raise


def write_outputs(*outputs: Output) -> dict[str, str]:
    """Writes each output asked for, on MPI rank 0 alone (under mpiexec every rank holds the
    same result): the files written, ``{kind: path}``."""
    if world().rank != 0:
        return {}
    files: dict[str, str] = {}
    for kind, path, write in outputs:
        if path:
            write(path)
            files[kind] = str(path)
    return files


def print_files(files: dict[str, str]) -> None:
    """The files a command wrote, one ``kind: path`` line each."""
    for kind, path in files.items():
        print(f"{kind}: {path}")


def played_report(
    *,
    outcome: str,
    winners: Sequence[int],
    turns_played: int,
    seconds: float,
    **fields: Any,
) -> dict[str, Any]:
    """The JSON of a played game: the four common keys, then the game's own ``fields``."""
    if outcome not in ("won", "drawn", "unfinished"):
        raise ValueError(f"outcome must be won, drawn or unfinished, got {outcome!r}")
    return {
        "outcome": outcome,
        "winners": [int(seat) for seat in winners],
        "turns_played": int(turns_played),
        "seconds": float(seconds),
        **fields,
    }
