"""Annexation as an OpenSpiel game, ``"python_annexation"``, so that OpenSpiel's algorithms
(MCTS, alpha-beta, the API conformance tests...) run on the Rust engine.

Importing this module needs ``open_spiel`` (``pip install 'stratagem[openspiel]'``); it
registers the game, and :func:`load_game` loads it with its parameters:

- ``board``: a board spec for :func:`~stratagem.annexation.parse_board` (default ``"hex:8"``),
- ``colours`` (8), ``players`` (2) and ``seed`` (the colour seed, 0, at most ``2**31 - 1``
  as OpenSpiel's integer parameters are C++ ints) for generated boards (a saved board file
  keeps its own),
- ``mode`` (``"flood"``), ``allow_opponent_colours`` (False) and ``max_moves`` (0: the
  default limit of four moves per cell), the rules of ``docs/annexation-rules.md``.

An action is a colour (``num_distinct_actions`` is the colour count) and every
``apply_action`` is one call into the Rust engine: the state wraps a
:class:`~stratagem.annexation.Game`. At the end the winner gets +1 and every other player
-1; a draw gives 0 to all. The game is zero-sum with two players and general-sum with three
or four (a win sums to ``2 - players``, a draw to 0).

The observation tensor (the observer of :meth:`AnnexationGame.make_py_observer`) is the
batch API's: ``(n, k + p)`` with the one-hot colour every cell shows, then the ownership
planes relative to the observing player (plane ``k`` its own cells, ``k + 1`` those of the
next player, and so on).

>>> from stratagem.annexation.openspiel import load_game
>>> game = load_game("hex:3", seed=2)
>>> state = game.new_initial_state()
>>> state.legal_actions() == state.game.legal_moves()
True
>>> state.apply_action(state.legal_actions()[0])
>>> state.current_player()
1
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.annexation.board import Board, parse_board
from stratagem.annexation.game import MODES, Game
from stratagem.errors import InvalidParameter


class OpenSpielMissing(InvalidParameter, ImportError):
    """Raised on import when open_spiel is not installed (an ImportError too, so that
    ``pytest.importorskip`` and ``except ImportError`` see it)."""


try:
    import pyspiel
except ImportError:
    raise OpenSpielMissing(
        "the OpenSpiel adapter needs open_spiel: pip install 'stratagem[openspiel]'"
    ) from None

__all__ = [
    "DEFAULT_PARAMETERS",
    "SHORT_NAME",
    "AnnexationGame",
    "AnnexationObserver",
    "AnnexationState",
    "OpenSpielMissing",
    "load_game",
    "register",
]

SHORT_NAME = "python_annexation"
#: The game's parameters and their defaults (``max_moves=0``: four moves per cell).
DEFAULT_PARAMETERS: dict[str, Any] = {
    "board": "hex:8",
    "colours": 8,
    "players": 2,
    "seed": 0,
    "mode": "flood",
    "allow_opponent_colours": False,
    "max_moves": 0,
}
_MAX_PLAYERS = 4
_INT_MAX = (1 << 31) - 1  # OpenSpiel's integer parameters are C++ ints
_PLAYER_MARKS = "ABCD"
_COLOUR_MARKS = "0123456789abcdef"
_LATTICES = ("hex", "hexrect", "grid")


def _game_type(players: int) -> Any:
    utility = (
        pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM
    )
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Annexation (stratagem)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMETERS),
    )


class _Engine:
    """The Rust game of a state. OpenSpiel clones a Python state by deep-copying its
    attributes, and serializes it by pickling them: this holder makes the deep copy an
    engine copy (the board is shared) and the pickle the OpenSpiel game's name and
    parameters with the moves played."""

    __slots__ = ("game", "name")

    def __init__(self, game: Game, name: str) -> None:
        self.game = game
        self.name = name

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.copy(), self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.name, self.game.history))


def _replay(name: str, history: list[int]) -> _Engine:
    state = pyspiel.load_game(name).new_initial_state()
    game: Game = state.game
    for colour in history:
        game.play(colour)
    return _Engine(game, name)


class AnnexationGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: its parameters, the board built from them, and the initial
    position (every new state is a copy of it)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = dict(DEFAULT_PARAMETERS)
        values.update(params or {})
        board, template = _build(values)
        players = board.players
        limit = template.rules.max_moves
        info = pyspiel.GameInfo(
            num_distinct_actions=board.colour_count,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players == 2 else None,
            max_game_length=4 * board.cells if limit is None else limit,
        )
        super().__init__(_game_type(players), info, values)
        self.board = board
        self._template = template
        self._name = str(self)

    def new_initial_state(self) -> AnnexationState:
        return AnnexationState(self, _Engine(self._template.copy(), self._name))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return AnnexationObserver(self.board, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AnnexationState(pyspiel.State):  # type: ignore[misc]
    """A position: ``game`` is the wrapped :class:`~stratagem.annexation.Game` (do not play
    on it directly: OpenSpiel keeps its own move history)."""

    def __init__(self, game: AnnexationGame, engine: _Engine) -> None:
        super().__init__(game)
        self._engine = engine

    @property
    def game(self) -> Game:
        return self._engine.game

    def current_player(self) -> int:
        game = self._engine.game
        return int(pyspiel.PlayerId.TERMINAL) if game.is_over else game.to_move

    def _legal_actions(self, player: int) -> list[int]:
        game = self._engine.game
        return game.legal_moves() if player == game.to_move else []

    def _apply_action(self, action: int) -> None:
        self._engine.game.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{_PLAYER_MARKS[player]}:colour {action}"

    def is_terminal(self) -> bool:
        return self._engine.game.is_over

    def returns(self) -> list[float]:
        game = self._engine.game
        players = game.board.players
        winner = game.winner
        if winner is None:  # ongoing or drawn
            return [0.0] * players
        return [1.0 if q == winner else -1.0 for q in range(players)]

    def __str__(self) -> str:
        return _render(self._engine.game)


class AnnexationObserver:
    """OpenSpiel's PyObserver for annexation: ``tensor`` (float32, flat) and ``dict``
    (``"observation"``: the same memory as ``(n, k + p)``)."""

    def __init__(self, board: Board, params: dict[str, Any] | None = None) -> None:
        if params:
            raise InvalidParameter(f"the annexation observer takes no parameters, got {params}")
        self._colours = board.colour_count
        self._players = board.players
        shape = (board.cells, board.colour_count + board.players)
        self.tensor: NDArray[np.float32] = np.zeros(shape[0] * shape[1], np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: AnnexationState, player: int) -> None:
        game = state.game
        planes = self.dict["observation"]
        planes.fill(0.0)
        cells = np.arange(planes.shape[0])
        planes[cells, game.cell_colours.astype(np.int64)] = 1.0
        owner = game.owner.astype(np.int64)
        owned = owner >= 0
        relative = (owner[owned] - player) % self._players
        planes[cells[owned], self._colours + relative] = 1.0

    def string_from(self, state: AnnexationState, player: int) -> str:
        return f"player {_PLAYER_MARKS[player]} observing\n{_render(state.game)}"


def register() -> None:
    """Registers ``"python_annexation"`` with OpenSpiel (done on import; calling it again
    does nothing)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(2), AnnexationGame)


def load_game(board: str = "hex:8", **params: Any) -> Any:
    """The OpenSpiel game on ``board`` (a board spec) with the given parameters (see the
    module's docstring); unknown or bad parameters raise
    :class:`~stratagem.errors.InvalidParameter`."""
    unknown = sorted(set(params) - set(DEFAULT_PARAMETERS))
    if unknown:
        raise InvalidParameter(
            f"unknown annexation parameter(s) {unknown}; expected {sorted(DEFAULT_PARAMETERS)}"
        )
    values = {"board": board, **params}
    for key, value in values.items():
        expected = type(DEFAULT_PARAMETERS[key])
        if type(value) is not expected:
            raise InvalidParameter(
                f"{key} must be a {expected.__name__}, got {value!r} ({type(value).__name__})"
            )
        if expected is int and not 0 <= value <= _INT_MAX:
            raise InvalidParameter(
                f"{key} must be in 0..{_INT_MAX} (an OpenSpiel int parameter), got {value}"
            )
    register()
    return pyspiel.load_game(SHORT_NAME, values)


def _build(values: dict[str, Any]) -> tuple[Board, Game]:
    mode = values["mode"]
    if mode not in MODES:
        raise InvalidParameter(f"mode must be one of {MODES}, got {mode!r}")
    limit = values["max_moves"]
    if not isinstance(limit, int) or limit < 0:
        raise InvalidParameter(f"max_moves must be 0 (the default limit) or more, got {limit!r}")
    board = parse_board(
        values["board"],
        colour_count=values["colours"],
        players=values["players"],
        seed=values["seed"],
    )
    game = Game(
        board,
        values["seed"],
        mode=mode,
        allow_opponent_colours=values["allow_opponent_colours"],
        max_moves=limit or None,
    )
    return board, game


def _render(game: Game) -> str:
    """The position as text: a header line, then one character per cell (a colour as a hex
    digit, an owned cell as its owner's letter), in rows for lattice boards."""
    board = game.board
    if game.is_over:
        status = "drawn" if game.winner is None else f"won by {_PLAYER_MARKS[game.winner]}"
    else:
        status = f"{_PLAYER_MARKS[game.to_move]} to move"
    colours = ",".join(str(int(c)) for c in game.player_colours)
    scores = ",".join(str(int(s)) for s in game.scores)
    header = f"{board.kind} moves={game.moves} scores={scores} colours={colours} {status}"
    owner = game.owner.tolist()
    shown = game.cell_colours.tolist()
    marks = [
        _PLAYER_MARKS[who] if who >= 0 else _COLOUR_MARKS[colour]
        for who, colour in zip(owner, shown, strict=True)
    ]
    lattice = board.kind.split(":")[0]
    if lattice not in _LATTICES or board.centres is None:
        return "\n".join([header] + ["".join(marks[i : i + 40]) for i in range(0, len(marks), 40)])
    ys = board.centres[:, 1]
    breaks = [0, *(np.flatnonzero(ys[1:] != ys[:-1]) + 1).tolist(), board.cells]
    rows = [marks[a:b] for a, b in itertools.pairwise(breaks)]
    widest = max(len(row) for row in rows)
    lines = [header]
    for index, row in enumerate(rows):
        if lattice == "hex":
            indent = widest - len(row)
        elif lattice == "hexrect":
            indent = index % 2
        else:
            indent = 0
        lines.append(" " * indent + " ".join(row))
    return "\n".join(lines)


register()
