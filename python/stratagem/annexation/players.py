"""Game-playing agents (``docs/annexation-rules.md``, "AIs"): ``random``, ``greedy``,
``fractal``, ``minimax`` and ``mcts``, all played by the Rust engine.

An agent is written on the command line as ``name`` or ``name:key=value,...``, for example
``mcts:iterations=2000,c=0.7,trees=2`` or ``minimax:depth=4,heuristic=reach``.

>>> from stratagem.annexation import AI, Board, Game
>>> game = Game(Board.hexagon(4, seed=2))
>>> AI("greedy").choose(game)
1
>>> AI.parse("mcts:iterations=200", seed=1).choose(game) in game.legal_moves()
True
"""

from __future__ import annotations

from typing import Any

from stratagem import _core, _validate
from stratagem.annexation.game import Game
from stratagem.errors import InvalidParameter

__all__ = ["AI", "AIS"]

#: The agents, as the engine names them.
AIS: tuple[str, ...] = tuple(_core.annexation.AIS)
_DEFAULT_ITERATIONS = 1000
_OPTIONS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "fractal": {},
    "minimax": {"depth": int, "heuristic": str},
    "mcts": {
        "iterations": int,
        "time": float,
        "c": float,
        "playouts": int,
        "trees": int,
        "reuse": bool,
        "margin": float,
        "greedy": int,
        "bias": float,
        "plan": int,
    },
}


class AI:
    """An agent. ``minimax`` takes ``depth`` (1 to 12, default 3: each ply multiplies the
    work by up to 15, so deeper searches would run for hours) and ``heuristic``
    (``"reach"``, the default, or ``"cells"``); ``mcts`` takes ``iterations`` (default 1000)
    or ``time`` (seconds per move, not reproducible), ``c`` (exploration, default 0.5),
    ``playouts`` per leaf, ``trees`` (root parallelism), ``reuse`` (keep the tree between
    moves), ``margin`` (the weight of the final margin in a playout's value, 0 to 1, default
    0.5), ``greedy`` (the playouts' lean towards the greedy colour, default 6), ``bias``
    (progressive bias towards colours that take more, default 3) and ``plan`` (the beam width
    of the search for a line that wins against an opponent that has only played greedy
    colours: an opponent model, default 100; 0 leaves the search alone). ``seed`` feeds
    ``random`` and ``mcts``; ``threads`` spreads the MCTS trees (the choice does not depend
    on it).

    MCTS keeps its trees between calls of :meth:`choose` on the same game; use one agent
    per game, or :meth:`spawn` a fresh one.
    """

    def __init__(
        self, name: str, *, seed: int = 0, threads: int | None = None, **options: Any
    ) -> None:
        if name not in AIS:
            raise InvalidParameter(f"unknown AI {name!r}; choose one of {AIS}")
        allowed = _OPTIONS[name]
        for key in options:
            if key not in allowed:
                accepted = ", ".join(allowed) or "no options"
                raise InvalidParameter(f"{name} takes {accepted}; got {key!r}")
        if name == "mcts" and "iterations" not in options and "time" not in options:
            options["iterations"] = _DEFAULT_ITERATIONS
        self.name = name
        self.options = dict(options)
        self.seed = _validate.seed(seed)
        self.threads = _validate.threads(threads)
        for key in ("depth", "iterations", "playouts", "trees"):
            if key in options:
                _validate.integer(key, options[key], 1, (1 << 32) - 1)
        for key in ("greedy", "plan"):
            if key in options:
                _validate.integer(key, options[key], 0, (1 << 16) - 1)
        try:
            self._agent = _core.annexation.Agent(
                name, self.seed, threads=self.threads, **self.options
            )
        except TypeError as error:
            raise InvalidParameter(f"{name}: {error}") from None

    @classmethod
    def parse(cls, spec: str, *, seed: int = 0, threads: int | None = None) -> AI:
        """An agent from ``name`` or ``name:key=value,...``."""
        name, _, rest = spec.strip().partition(":")
        if name not in AIS:
            raise InvalidParameter(f"unknown AI {name!r} in {spec!r}; choose one of {AIS}")
        options: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, text = item.partition("=")
            kind = _OPTIONS[name].get(key.strip())
            if not equals or kind is None:
                accepted = ", ".join(_OPTIONS[name]) or "no options"
                raise InvalidParameter(f"{spec!r}: {name} takes {accepted} as key=value")
            options[key.strip()] = _convert(spec, key.strip(), text.strip(), kind)
        return cls(name, seed=seed, threads=threads, **options)

    @property
    def spec(self) -> str:
        """The agent's command-line form."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def choose(self, game: Game) -> int:
        """The colour this agent plays in ``game`` (which is left untouched)."""
        if not isinstance(game, Game):
            raise InvalidParameter(f"game must be an annexation Game, got {type(game).__name__}")
        return self._agent.choose(game._game)

    def spawn(self, seed: int) -> AI:
        """A fresh agent with the same settings and another seed."""
        return AI(self.name, seed=seed, threads=self.threads, **self.options)

    @property
    def last_iterations(self) -> int:
        """MCTS iterations (all trees) in the last :meth:`choose`; 0 for other agents."""
        return self._agent.last_iterations

    def root_visits(self) -> list[int]:
        """MCTS visits of every colour at the root after the last :meth:`choose`."""
        return list(self._agent.root_visits())

    def __repr__(self) -> str:
        return f"AI({self.spec!r}, seed={self.seed})"


def _convert(spec: str, key: str, text: str, kind: type) -> Any:
    if kind is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
    else:
        try:
            return kind(text)
        except ValueError:
            pass
    expected = {bool: "true or false", int: "an integer", float: "a number"}.get(
        kind, kind.__name__
    )
    raise InvalidParameter(f"{spec!r}: {key} must be {expected}, got {text!r}")
