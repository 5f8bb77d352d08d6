"""The annexation rules in plain Python: the oracle of the Rust engine in ``rust/annexation``.

Written for reading, not speed: plain lists of Python integers and one cell at a time, each
function quoting the rule it plays from ``docs/annexation-rules.md``. The engine works on
bitsets of regions or cells; the tests demand that it reproduce this module bit for bit (same
states, same playout tallies, same AI choices), so every detail of the document is followed
literally: the order of the setup, the order of the end checks, the random stream of every
draw and the order of the draws, and every tie rule.

A board is any object with the attributes ``cells`` (n), ``offsets`` (length n + 1) and
``neighbours`` (CSR rows sorted ascending), ``colours`` (length n), ``colour_count`` (k),
``players`` (p) and ``starts`` (length p). Lists and numpy arrays are both accepted: they are
converted to lists of Python ints once, when a :class:`Game` is made. Only the standard library
and the random number oracle are used.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from stratagem import _validate
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng.oracle import Halves, Stream, det_ln

__all__ = [
    "HEURISTICS",
    "INF",
    "MODES",
    "POLICIES",
    "WIN",
    "BoardLike",
    "Game",
    "Mcts",
    "Node",
    "PlayoutTally",
    "choose_fractal",
    "choose_greedy",
    "choose_minimax",
    "choose_random",
    "decisive_move",
    "minimax",
    "playout_value",
    "playouts",
]

MODES: tuple[str, ...] = ("flood", "adjacent")
POLICIES: tuple[str, ...] = ("random", "light")
HEURISTICS: tuple[str, ...] = ("cells", "reach")
WIN = 1_000_000_000
INF = 2**62
U64_MAX = (1 << 64) - 1
MIN_COLOURS, MAX_COLOURS = 3, 16
MIN_PLAYERS, MAX_PLAYERS = 2, 4


# --- Checked input ----------------------------------------------------------------------------


class BoardLike(Protocol):
    """What a :class:`Game` reads from a board (``stratagem.annexation.board.Board``)."""

    @property
    def cells(self) -> Any: ...
    @property
    def offsets(self) -> Any: ...
    @property
    def neighbours(self) -> Any: ...
    @property
    def colours(self) -> Any: ...
    @property
    def colour_count(self) -> Any: ...
    @property
    def players(self) -> Any: ...
    @property
    def starts(self) -> Any: ...


def _ints(name: str, values: Iterable[Any]) -> list[int]:
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise InvalidBoard(f"board.{name} must hold integers, got {values!r}") from None


@dataclass(frozen=True)
class _Board:
    """A board as lists of Python ints, checked against the "Board" section of the rules."""

    n: int
    offsets: list[int]
    neighbours: list[int]
    colours: list[int]
    k: int
    p: int
    starts: list[int]

    def around(self, i: int) -> list[int]:
        """The neighbours of cell ``i``, ascending."""
        return self.neighbours[self.offsets[i] : self.offsets[i + 1]]

    @classmethod
    def of(cls, board: BoardLike) -> _Board:
        try:
            n, k, p = int(board.cells), int(board.colour_count), int(board.players)
        except (TypeError, ValueError):
            raise InvalidBoard("board.cells, colour_count and players must be integers") from None
        data = cls(
            n,
            _ints("offsets", board.offsets),
            _ints("neighbours", board.neighbours),
            _ints("colours", board.colours),
            k,
            p,
            _ints("starts", board.starts),
        )
        data.check()
        return data

    def check(self) -> None:
        """Raise :class:`InvalidBoard` for anything the "Board" section rules out."""
        n, k, p = self.n, self.k, self.p
        if n < 2:
            raise InvalidBoard(f"a board needs at least 2 cells, got {n}")
        if not MIN_COLOURS <= k <= MAX_COLOURS:
            raise InvalidBoard(f"colour_count must be from 3 to 16, got {k}")
        if not MIN_PLAYERS <= p <= MAX_PLAYERS:
            raise InvalidBoard(f"players must be from 2 to 4, got {p}")
        if k <= p:
            raise InvalidBoard(f"colour_count ({k}) must exceed players ({p})")
        if len(self.offsets) != n + 1 or self.offsets[0] != 0:
            raise InvalidBoard(f"offsets must have n + 1 = {n + 1} entries starting with 0")
        if self.offsets[n] != len(self.neighbours):
            raise InvalidBoard(
                f"offsets ends with {self.offsets[n]} but neighbours has "
                f"{len(self.neighbours)} entries"
            )
        for i in range(n):
            if self.offsets[i + 1] < self.offsets[i]:
                raise InvalidBoard(f"offsets decreases at cell {i}")
        for i in range(n):
            row = self.around(i)
            if not row:
                raise InvalidBoard(f"cell {i} has no neighbours")
            for a, j in enumerate(row):
                if not 0 <= j < n:
                    raise InvalidBoard(f"cell {i} borders {j}, out of range for {n} cells")
                if j == i:
                    raise InvalidBoard(f"cell {i} borders itself (self-loop)")
                if a > 0 and j <= row[a - 1]:
                    raise InvalidBoard(f"the neighbours of cell {i} are not sorted and distinct")
                if i not in self.around(j):
                    raise InvalidBoard(f"cell {i} borders {j} but {j} does not border {i}")
        if len(self.colours) != n:
            raise InvalidBoard(f"colours has {len(self.colours)} entries for {n} cells")
        for i, c in enumerate(self.colours):
            if not 0 <= c < k:
                raise InvalidBoard(f"cell {i} has colour {c}, out of range 0..{k - 1}")
        if len(self._component(0, lambda _j: True)) != n:
            raise InvalidBoard("the board is not connected")
        if len(self.starts) != p:
            raise InvalidBoard(f"starts has {len(self.starts)} entries for {p} players")
        for q, s in enumerate(self.starts):
            if not 0 <= s < n:
                raise InvalidBoard(f"the start cell {s} of player {q} is out of range")
        for q, s in enumerate(self.starts):
            region = self.region(s)
            for r in range(q + 1, p):
                if self.starts[r] in region:
                    raise InvalidBoard(
                        f"the start cells of players {q} and {r} ({s} and {self.starts[r]}) "
                        "lie in the same region"
                    )

    def region(self, cell: int) -> set[int]:
        """The region of ``cell``: "a maximal connected set of cells of one colour"."""
        colour = self.colours[cell]
        return self._component(cell, lambda j: self.colours[j] == colour)

    def _component(self, source: int, inside: Callable[[int], bool]) -> set[int]:
        """The cells connected to ``source`` through cells ``j`` with ``inside(j)``."""
        seen = {source}
        stack = [source]
        while stack:
            i = stack.pop()
            for j in self.around(i):
                if j not in seen and inside(j):
                    seen.add(j)
                    stack.append(j)
        return seen


# --- The game -------------------------------------------------------------------------------


class Game:
    """One annexation game, played by :meth:`play` under the rules of the document.

    State: ``owner[i]`` (-1 or a player), ``player_colours[q]``, ``to_move``, ``moves`` and
    ``history`` (the colours played); the result is read from :attr:`is_over`,
    :attr:`winner` and :attr:`is_draw`.
    """

    board: BoardLike
    seed: int
    mode: str
    allow_opponent_colours: bool
    max_moves: int
    owner: list[int]
    player_colours: list[int]
    to_move: int
    moves: int
    history: list[int]

    def __init__(
        self,
        board: BoardLike,
        seed: int = 0,
        *,
        mode: str = "flood",
        allow_opponent_colours: bool = False,
        max_moves: int | None = None,
    ) -> None:
        data = _Board.of(board)
        if not isinstance(mode, str) or mode not in MODES:
            raise InvalidParameter(f"mode must be one of {MODES}, got {mode!r}")
        if not isinstance(allow_opponent_colours, bool):
            raise InvalidParameter(
                f"allow_opponent_colours must be True or False, got {allow_opponent_colours!r}"
            )
        # "max_moves: the move limit, an integer >= 1; default 4 * n."
        limit = 4 * data.n if max_moves is None else _validate.integer("max_moves", max_moves, 1)
        self.board = board
        self._board = data
        self.seed = _validate.integer("seed", seed, 0, U64_MAX)
        self.mode = mode
        self.allow_opponent_colours = allow_opponent_colours
        self.max_moves = limit
        self.owner = [-1] * data.n
        self.player_colours = [0] * data.p
        self.to_move = 0
        self.moves = 0
        self.history = []
        self._over = False
        self._winner: int | None = None
        # Setup: "For q = 0, 1, ..., p-1 in order: q owns starts[q], player_colours[q] =
        # colours[starts[q]], then annex(q, player_colours[q]). Then the end check."
        for q in range(data.p):
            s = data.starts[q]
            if self.owner[s] != -1:
                raise InvalidBoard(
                    f"the start cell {s} of player {q} is already owned by player {self.owner[s]}"
                )
            self.owner[s] = q
            self.player_colours[q] = data.colours[s]
            self._annex(q, self.player_colours[q])
        self._end_check()

    # -- reading the state

    @property
    def scores(self) -> list[int]:
        """``scores[q]``: the cells player q owns."""
        return [self.owner.count(q) for q in range(self._board.p)]

    @property
    def cell_colours(self) -> list[int]:
        """The colour each cell shows: its owner's colour, or its board colour if unowned."""
        return [
            self.player_colours[o] if o != -1 else self._board.colours[i]
            for i, o in enumerate(self.owner)
        ]

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning player; None while the game runs or when it is drawn."""
        return self._winner

    @property
    def is_draw(self) -> bool:
        return self._over and self._winner is None

    def copy(self) -> Game:
        """An independent copy of the state (the board is shared; it is never modified)."""
        other = object.__new__(Game)
        other.board = self.board
        other._board = self._board
        other.seed = self.seed
        other.mode = self.mode
        other.allow_opponent_colours = self.allow_opponent_colours
        other.max_moves = self.max_moves
        other.owner = list(self.owner)
        other.player_colours = list(self.player_colours)
        other.to_move = self.to_move
        other.moves = self.moves
        other.history = list(self.history)
        other._over = self._over
        other._winner = self._winner
        return other

    # -- annexing

    def _annexed(self, q: int, c: int) -> list[int]:
        """The cells ``annex(q, c)`` would take now, ascending.

        - flood: "every unowned cell of colour c connected to a cell owned by q through
          unowned cells of colour c becomes q's (cells of other players are walls, even when
          they show colour c)";
        - adjacent: "every unowned cell of colour c with a neighbour owned by q before the
          move becomes q's (one step, no chaining)".
        """
        board, owner = self._board, self.owner
        if self.mode == "adjacent":
            return [
                i
                for i in range(board.n)
                if owner[i] == -1
                and board.colours[i] == c
                and any(owner[j] == q for j in board.around(i))
            ]
        taken = [False] * board.n
        stack = [i for i in range(board.n) if owner[i] == q]
        while stack:
            i = stack.pop()
            for j in board.around(i):
                if owner[j] == -1 and board.colours[j] == c and not taken[j]:
                    taken[j] = True
                    stack.append(j)
        return [i for i in range(board.n) if taken[i]]

    def _annex(self, q: int, c: int) -> None:
        """``annex(q, c)``: the cells found before any changes, then all given to q."""
        for i in self._annexed(q, c):
            self.owner[i] = q

    def _check_player(self, player: object) -> int:
        return _validate.integer("player", player, 0, self._board.p - 1)

    def _check_colour(self, colour: object) -> int:
        return _validate.integer("colour", colour, 0, self._board.k - 1)

    def gain(self, player: int, colour: int) -> int:
        """``gain(q, c)``: "the number of cells annex(q, c) would take now (ignoring
        legality)"."""
        return len(self._annexed(self._check_player(player), self._check_colour(colour)))

    def reach(self, player: int) -> int:
        """``reach(q) = sum over all colours c of gain(q, c)``."""
        q = self._check_player(player)
        return sum(len(self._annexed(q, c)) for c in range(self._board.k))

    def margin(self, player: int) -> int:
        """``margin(q) = scores[q] - max over r != q of scores[r]``."""
        q = self._check_player(player)
        scores = self.scores
        return scores[q] - max(scores[r] for r in range(self._board.p) if r != q)

    # -- moves

    def _refusal(self, colour: object) -> str | None:
        """Step 1 of a move: why ``colour`` is refused, or None when it is legal."""
        q = self.to_move
        if self._over:
            return f"colour {colour!r} cannot be played: the game is over"
        if isinstance(colour, bool) or not isinstance(colour, numbers.Integral):
            return f"colour {colour!r} is not an integer colour 0..{self._board.k - 1}"
        c = int(colour)
        if not 0 <= c < self._board.k:
            return f"colour {c} is out of range 0..{self._board.k - 1}"
        if c == self.player_colours[q]:
            return f"colour {c} is player {q}'s own colour"
        if not self.allow_opponent_colours:
            for r in range(self._board.p):
                if r != q and c == self.player_colours[r]:
                    return f"colour {c} is player {r}'s colour (opponent colours are not allowed)"
        return None

    def legal_moves(self) -> list[int]:
        """The rule: "the legal colours are those step 1 accepts, listed in ascending order"
        (none once the game is over)."""
        return [c for c in range(self._board.k) if self._refusal(c) is None]

    def play(self, colour: int) -> None:
        """Play ``colour`` for the player to move; :class:`InvalidMove` leaves the state as it
        was."""
        refusal = self._refusal(colour)
        if refusal is not None:
            raise InvalidMove(f"player {self.to_move} cannot play {refusal}")
        q, c = self.to_move, int(colour)
        # "player_colours[q] = c; annex(q, c); append c to history; moves += 1;
        # to_move = (q + 1) mod p."
        self.player_colours[q] = c
        self._annex(q, c)
        self.history.append(c)
        self.moves += 1
        self.to_move = (q + 1) % self._board.p
        self._end_check()

    def _end_check(self) -> None:
        """The end check, in this order: "a player with 2 * scores[q] > n wins; otherwise,
        when no unowned cell has an owned neighbour, or when moves == max_moves: the unique
        player with the most cells wins; if several share the most, the game is drawn"."""
        board, owner = self._board, self.owner
        scores = self.scores
        for q in range(board.p):
            if 2 * scores[q] > board.n:
                self._over, self._winner = True, q
                return
        annexable = any(
            owner[i] == -1 and any(owner[j] != -1 for j in board.around(i)) for i in range(board.n)
        )
        if not annexable or self.moves == self.max_moves:
            self._over, self._winner = True, _unique_best(scores)

    # -- the batch observation

    def observation(self) -> list[list[bool]]:
        """``(n, k + p)`` bools: "the one-hot colour each cell shows, then ownership planes
        rotated so that plane k is the player to move, k + 1 the next, and so on"."""
        k, p = self._board.k, self._board.p
        shown = self.cell_colours
        rows = []
        for i in range(self._board.n):
            row = [shown[i] == c for c in range(k)]
            row += [self.owner[i] == (self.to_move + j) % p for j in range(p)]
            rows.append(row)
        return rows


def _unique_best(scores: list[int]) -> int | None:
    """The unique player with the most cells, or None when several share the most."""
    best = max(scores)
    leaders = [q for q, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


# --- Playouts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayoutTally:
    """``wins[q]`` (playouts won by q), ``draws``, ``margin_sum`` (the sum of ``margin(q0)``
    at the end, q0 the player to move in the given state) and ``n`` playouts."""

    wins: tuple[int, ...]
    draws: int
    margin_sum: int
    n: int

    @property
    def mean_margin(self) -> float:
        """``margin_sum / n`` (a float division; NaN for no playouts)."""
        return self.margin_sum / self.n if self.n else math.nan


def _random_playout(state: Game, draws: Halves) -> None:
    """Play ``state`` to the end in place: "each move draws j = below(len(legal)) and
    plays legal[j], until the game is over (the move limit included)"."""
    while not state.is_over:
        legal = state.legal_moves()
        state.play(legal[draws.below(len(legal))])


def _biased_playout(state: Game, draws: Halves, bias: int) -> None:
    """MCTS's playout, in place: each move draws ``j = below(len(legal) + bias)`` and plays
    ``legal[j]``, or the greedy colour when ``j >= len(legal)`` (bias 0: the random playout)."""
    while not state.is_over:
        legal = state.legal_moves()
        j = draws.below(len(legal) + bias)
        state.play(legal[j] if j < len(legal) else choose_greedy(state))


def _light_playout(state: Game, draws: Halves, steps: int) -> int | None:
    """The light playout in place; returns the winner (None for a draw).

    "Each step draws c = below(k) for the player q to move, legal or not, sets
    player_colours[q] = c, does annex(q, c), and passes the move on, with no end check; it
    takes steps steps, stopping early once every cell is owned. Then the unique player with
    the most cells wins, otherwise it is a draw. A state already over yields its own result."
    """
    if state.is_over:
        return state.winner
    p, k = state._board.p, state._board.k
    for _ in range(steps):
        if -1 not in state.owner:
            break
        q = state.to_move
        c = draws.below(k)
        state.player_colours[q] = c
        state._annex(q, c)
        state.to_move = (q + 1) % p
    return _unique_best(state.scores)


def playouts(
    game: Game,
    n: int,
    *,
    policy: str = "random",
    seed: int | None = None,
    steps: int | None = None,
) -> PlayoutTally:
    """``n`` playouts from a copy of ``game``: ``"random"`` (playout i reads
    ``Stream(seed, "annexation.playout", m0, i)``) or ``"light"`` (``Stream(seed,
    "annexation.light", m0, i)``, ``steps`` steps, default ``max(max_moves - m0, 0)``).
    ``seed`` defaults to the game's seed; ``m0`` is the game's move count. ``steps`` only
    applies to the light policy."""
    n = _validate.integer("n", n, 0)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InvalidParameter(f"policy must be one of {POLICIES}, got {policy!r}")
    seed = game.seed if seed is None else _validate.integer("seed", seed, 0, U64_MAX)
    if policy == "random" and steps is not None:
        raise InvalidParameter("steps only applies to the 'light' policy")
    m0, q0 = game.moves, game.to_move
    light_steps = (
        max(game.max_moves - m0, 0) if steps is None else _validate.integer("steps", steps, 0)
    )
    wins = [0] * game._board.p
    draws = 0
    margin_sum = 0
    for i in range(n):
        state = game.copy()
        if policy == "random":
            _random_playout(state, Stream(seed, "annexation.playout", m0, i).cursor().halves())
            winner = state.winner
        else:
            stream = Stream(seed, "annexation.light", m0, i)
            winner = _light_playout(state, stream.cursor().halves(), light_steps)
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        margin_sum += state.margin(q0)
    return PlayoutTally(tuple(wins), draws, margin_sum, n)


# --- AIs ------------------------------------------------------------------------------------


def _legal_or_refuse(game: Game, who: str) -> list[int]:
    """The legal colours: "each AI picks a colour for the player to move in a state that is
    not over"."""
    if game.is_over:
        raise InvalidMove(f"the {who} AI cannot choose a colour: the game is over")
    return game.legal_moves()


def choose_random(game: Game, seed: int) -> int:
    """``legal[below(len(legal))]``, one draw from ``Stream(seed,
    "annexation.ai.random", moves)``."""
    seed = _validate.integer("seed", seed, 0, U64_MAX)
    legal = _legal_or_refuse(game, "random")
    draws = Stream(seed, "annexation.ai.random", game.moves).cursor().halves()
    return legal[draws.below(len(legal))]


def choose_greedy(game: Game) -> int:
    """Greedy: "the legal colour with the largest gain; ties go to the lowest colour"."""
    legal = _legal_or_refuse(game, "greedy")
    q = game.to_move
    best, best_gain = legal[0], game.gain(q, legal[0])
    for c in legal[1:]:
        g = game.gain(q, c)
        if g > best_gain:
            best, best_gain = c, g
    return best


def choose_fractal(game: Game) -> int:
    """Fractal: "among the legal colours that gain at least one cell, the one after which the
    player's reach is largest; ties go to the larger gain, then to the lowest colour; greedy
    when no colour gains"."""
    legal = _legal_or_refuse(game, "fractal")
    q = game.to_move
    best: int | None = None
    best_key = (0, 0)
    for c in legal:
        gain = game.gain(q, c)
        if gain == 0:
            continue
        child = game.copy()
        child.play(c)
        key = (child.reach(q), gain)
        if best is None or key > best_key:
            best, best_key = c, key
    return choose_greedy(game) if best is None else best


def _value(state: Game, r: int, heuristic: str) -> int:
    """The minimax value of a leaf for the root player r.

    Finished: ``WIN + margin(r) - moves`` if r won, ``-WIN + margin(r) + moves`` if another
    player won, ``margin(r)`` if drawn. At depth 0: ``margin(r)`` for "cells"; for "reach",
    ``h(r) - max over s != r of h(s)`` with ``h(s) = scores[s] + reach(s)``."""
    if state.is_over:
        if state.winner is None:
            return state.margin(r)
        if state.winner == r:
            return WIN + state.margin(r) - state.moves
        return -WIN + state.margin(r) + state.moves
    if heuristic == "cells":
        return state.margin(r)
    scores = state.scores
    h = [scores[s] + state.reach(s) for s in range(len(scores))]
    return h[r] - max(h[s] for s in range(len(h)) if s != r)


def _child(state: Game, c: int) -> Game:
    child = state.copy()
    child.play(c)
    return child


def _search(state: Game, depth: int, alpha: int, beta: int, *, r: int, heuristic: str) -> int:
    """Alpha-beta exactly as the document's pseudo-code (paranoid: every other player
    minimises r's value)."""
    if state.is_over or depth == 0:
        return _value(state, r, heuristic)
    if state.to_move == r:
        best = -INF
        for c in state.legal_moves():
            value = _search(_child(state, c), depth - 1, alpha, beta, r=r, heuristic=heuristic)
            best = max(best, value)
            alpha = max(alpha, best)
            if alpha >= beta:
                break
    else:
        best = INF
        for c in state.legal_moves():
            value = _search(_child(state, c), depth - 1, alpha, beta, r=r, heuristic=heuristic)
            best = min(best, value)
            beta = min(beta, best)
            if alpha >= beta:
                break
    return best


def minimax(game: Game, depth: int, heuristic: str = "cells") -> tuple[int, int]:
    """The minimax AI's ``(colour, value)``: the colour it picks and its search value."""
    depth = _validate.integer("depth", depth, 1)
    if not isinstance(heuristic, str) or heuristic not in HEURISTICS:
        raise InvalidParameter(f"heuristic must be one of {HEURISTICS}, got {heuristic!r}")
    legal = _legal_or_refuse(game, "minimax")
    r = game.to_move
    alpha = -INF
    chosen: int | None = None
    best = -INF
    for c in legal:
        v = _search(_child(game, c), depth - 1, alpha, INF, r=r, heuristic=heuristic)
        if chosen is None or v > best:
            chosen, best = c, v
        alpha = max(alpha, best)
    assert chosen is not None  # a state that is not over has a legal colour (k > p)
    return chosen, best


def choose_minimax(game: Game, depth: int, heuristic: str = "cells") -> int:
    """Minimax with alpha-beta to ``depth`` (>= 1), heuristic ``"cells"`` or ``"reach"``."""
    return minimax(game, depth, heuristic)[0]


# --- MCTS -----------------------------------------------------------------------------------


class Node:
    """A node of an MCTS tree: the colour that led to it, the player who played it
    (``mover``; None at a fresh root), visits ``N``, reward ``W`` (the summed playout values
    for ``mover``), and its children (None until expanded; then every legal colour,
    ascending)."""

    __slots__ = ("N", "W", "children", "colour", "gain", "mover")

    def __init__(self, colour: int | None, mover: int | None, gain: int = 0) -> None:
        self.colour = colour
        self.mover = mover
        self.gain = gain
        self.N = 0
        self.W = 0.0
        self.children: list[Node] | None = None

    def child(self, colour: int) -> Node | None:
        """The child reached by ``colour``, if the node is expanded and has it."""
        for child in self.children or []:
            if child.colour == colour:
                return child
        return None


def _play_node(state: Game, node: Node) -> None:
    """Play the colour that led to ``node`` (every node but a fresh root has one)."""
    assert node.colour is not None
    state.play(node.colour)


def playout_value(state: Game, player: int, margin_weight: float) -> float:
    """What a finished playout is worth to ``player``: ``(1 - w) * result + w * (cells +
    margin(player)) / (2 * cells)``, result 1 if the player won, 0.5 if drawn, 0 if lost."""
    winner = state.winner
    result = 0.5 if winner is None else (1.0 if winner == player else 0.0)
    cells = state._board.n
    share = (cells + state.margin(player)) / (2.0 * cells)
    return (1.0 - margin_weight) * result + margin_weight * share


def decisive_move(game: Game) -> int | None:
    """The legal colour that wins at once for the player to move, taking the most cells (the
    lowest colour on ties), or None."""
    q = game.to_move
    best: int | None = None
    best_gain = -1
    for c in game.legal_moves():
        child = _child(game, c)
        gain = child.scores[q] - game.scores[q]
        if child.winner == q and child.is_over and gain > best_gain:
            best, best_gain = c, gain
    return best


#: "The most own moves a plan looks ahead."
PLAN_DEPTH = 40


def opponents_played_greedy(game: Game) -> bool:
    """Whether every move the other players made in ``game.history`` was the greedy colour,
    and they made at least one (replayed from the start of the game)."""
    me = game.to_move
    state = Game(
        game.board,
        game.seed,
        mode=game.mode,
        allow_opponent_colours=game.allow_opponent_colours,
        max_moves=game.max_moves,
    )
    seen = False
    for colour in game.history:
        if state.to_move != me:
            if choose_greedy(state) != colour:
                return False
            seen = True
        state.play(colour)
    return seen


def winning_line(game: Game, width: int) -> list[int] | None:
    """A beam search for a line that wins for the player to move against greedy replies:
    every colour of the line (the replies included), or None: "level after level (one own
    move and the replies each, at most PLAN_DEPTH), every position of the beam, in beam order,
    is followed by each legal colour in ascending order; the first line that wins is
    returned. The lines still going are ordered by the mover's margin, largest first (a
    stable sort), a position met again is dropped, and the first width make the next beam"."""
    me = game.to_move
    beam: list[tuple[Game, list[int]]] = [(game, [])] if width > 0 else []
    for _ in range(PLAN_DEPTH):
        if not beam:
            return None
        lines: list[tuple[Game, list[int]]] = []
        for position, line in beam:
            for colour in position.legal_moves():
                state, played = _child(position, colour), [*line, colour]
                while not state.is_over and state.to_move != me:
                    reply = choose_greedy(state)
                    state.play(reply)
                    played.append(reply)
                if state.is_over:
                    if state.winner == me:
                        return played
                else:
                    lines.append((state, played))
        lines.sort(key=lambda item: -item[0].margin(me))
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        beam = []
        for state, played in lines:
            key = (tuple(state.owner), tuple(state.player_colours))
            if key not in seen:
                seen.add(key)
                beam.append((state, played))
                if len(beam) == width:
                    break
    return None


class Mcts:
    """UCT with root parallelism (``trees``), several playouts per leaf, tree reuse and a
    plan against greedy replies (``plan``, the beam width; 0 for none)."""

    iterations: int
    c: float
    playouts: int
    trees: int
    reuse: bool
    margin: float
    greedy: int
    bias: float
    plan: int
    seed: int
    roots: list[Node]
    histories: list[list[int]]
    line: list[int]

    def __init__(
        self,
        iterations: int,
        *,
        c: float = 0.5,
        playouts: int = 1,
        trees: int = 1,
        reuse: bool = True,
        margin: float = 0.5,
        greedy: int = 6,
        bias: float = 3.0,
        plan: int = 100,
        seed: int = 0,
    ) -> None:
        self.iterations = _validate.integer("iterations", iterations, 1)
        exploration: object = c
        if isinstance(exploration, bool) or not isinstance(exploration, numbers.Real):
            raise InvalidParameter(f"c must be a number, got {exploration!r}")
        if not math.isfinite(float(exploration)) or float(exploration) < 0.0:
            raise InvalidParameter(f"c must be finite and at least 0, got {exploration!r}")
        self.c = float(exploration)
        self.playouts = _validate.integer("playouts", playouts, 1)
        self.trees = _validate.integer("trees", trees, 1)
        if not isinstance(reuse, bool):
            raise InvalidParameter(f"reuse must be True or False, got {reuse!r}")
        self.reuse = reuse
        weight: object = margin
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise InvalidParameter(f"margin must be a number, got {weight!r}")
        if not 0.0 <= float(weight) <= 1.0:
            raise InvalidParameter(f"margin must be from 0 to 1, got {weight!r}")
        self.margin = float(weight)
        self.greedy = _validate.integer("greedy", greedy, 0, 2**16 - 1)
        gain_bias: object = bias
        if isinstance(gain_bias, bool) or not isinstance(gain_bias, numbers.Real):
            raise InvalidParameter(f"bias must be a number, got {gain_bias!r}")
        if not math.isfinite(float(gain_bias)) or float(gain_bias) < 0.0:
            raise InvalidParameter(f"bias must be finite and at least 0, got {gain_bias!r}")
        self.bias = float(gain_bias)
        self.plan = _validate.integer("plan", plan, 0, 2**16 - 1)
        self.seed = _validate.integer("seed", seed, 0, U64_MAX)
        # Tree t: its root node and the history of the root state.
        self.roots = []
        self.histories = []
        self._colour_count = 0
        self._cells = 0
        # The winning line being followed, as a whole game's history (empty: none), and the
        # board colours it was found on.
        self.line = []
        self._line_colours: list[int] = []

    def _reused_root(self, t: int, game: Game) -> Node | None:
        """Reuse: "when the next choose is given a state whose history extends [the tree's root
        history], and every move since is a child in the tree, that descendant becomes the
        root with its statistics"; otherwise None (a new tree)."""
        if not self.reuse or t >= len(self.roots):
            return None
        stored = self.histories[t]
        if game.history[: len(stored)] != stored:
            return None
        node: Node | None = self.roots[t]
        for colour in game.history[len(stored) :]:
            assert node is not None
            node = node.child(colour)
            if node is None:
                return None
        return node

    def _select(self, node: Node) -> Node:
        """The child with the largest score, the first in colour order on ties: ``inf`` if
        ``child.N == 0``, else ``child.W / child.N + c * sqrt(det_ln(node.N) / child.N) +
        bias * child.gain / (cells * child.N)`` (UCT plus progressive bias)."""
        assert node.children
        cells = float(self._cells)
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            if child.N == 0:
                score = math.inf
            else:
                score = (
                    child.W / child.N
                    + self.c * math.sqrt(det_ln(float(node.N)) / child.N)
                    + self.bias * child.gain / (cells * child.N)
                )
            if score > best_score:
                best, best_score = child, score
        return best

    def _iterate(self, root: Node, root_state: Game, t: int, i: int) -> None:
        """Iteration ``i`` of tree ``t``: one cursor of ``Stream(seed, "annexation.mcts",
        moves, t, i)``, read in turn by the iteration's playouts."""
        draws = Stream(self.seed, "annexation.mcts", root_state.moves, t, i).cursor().halves()
        node = root
        state = root_state.copy()
        path = [root]
        while True:
            if state.is_over:
                break
            if node.children is None:
                mover = state.to_move
                node.children = [Node(c, mover, state.gain(mover, c)) for c in state.legal_moves()]
                node = node.children[0]
                _play_node(state, node)
                path.append(node)
                break
            node = self._select(node)
            _play_node(state, node)
            path.append(node)
            if node.N == 0:
                break
        players = len(state.scores)
        values = [0.0] * players
        for _ in range(self.playouts):
            playout = state.copy()
            _biased_playout(playout, draws, self.greedy)  # a finished state: its own result
            for q in range(players):
                values[q] += playout_value(playout, q, self.margin)
        for visited in path:
            visited.N += self.playouts
            if visited.mover is not None:
                visited.W += values[visited.mover]

    def choose(self, game: Game) -> int:
        """Run ``iterations`` iterations in each tree (reusing trees where the rules allow)
        and return the root colour with the most visits summed over the trees, the lowest
        colour on ties."""
        legal = _legal_or_refuse(game, "mcts")
        self._colour_count = game._board.k
        self._cells = game._board.n
        decisive = decisive_move(game)
        if decisive is not None:  # the game ends now, and the trees with it
            self.roots, self.histories = [], []
            return decisive
        planned = self._planned(game)
        if planned is not None:  # the opponents are taken to go on playing greedily
            self.roots, self.histories = [], []
            return planned
        roots = []
        for t in range(self.trees):
            root = self._reused_root(t, game)
            roots.append(Node(None, None) if root is None else root)
        self.roots = roots
        self.histories = [list(game.history) for _ in range(self.trees)]
        self._colour_count = game._board.k
        for t, root in enumerate(roots):
            for i in range(self.iterations):
                self._iterate(root, game, t, i)
        visits = self.root_visits()
        best = legal[0]
        for c in legal[1:]:
            if visits[c] > visits[best]:
                best = c
        return best

    def _planned(self, game: Game) -> int | None:
        """The next colour of a line that wins against greedy replies, when the other
        players have played only greedy colours: the line being followed if the game (on the
        same board colours) has kept to it, otherwise a new one from :func:`winning_line`
        (kept for the next moves), if any."""
        history = list(game.history)
        colours = list(game._board.colours)
        following = (
            colours == self._line_colours
            and len(self.line) > len(history)
            and self.line[: len(history)] == history
        )
        if not following:
            self.line = []
            if self.plan == 0 or not opponents_played_greedy(game):
                return None
            line = winning_line(game, self.plan)
            if line is None:
                return None
            self.line, self._line_colours = history + line, colours
        return self.line[len(history)]

    def root_visits(self) -> list[int]:
        """For every colour 0..k-1: the visits of the root child of that colour summed over
        the trees of the last :meth:`choose` (0 for a colour that is not a child)."""
        visits = [0] * self._colour_count
        for root in self.roots:
            for child in root.children or []:
                assert child.colour is not None
                visits[child.colour] += child.N
        return visits
