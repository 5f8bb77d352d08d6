"""The outpost rules in plain Python: the oracle of the Rust engine in ``rust/outpost``.

Written for reading, not speed. Grids are lists of rows of plain Python values indexed
``[y][x]``, as the arrays are indexed ``[y, x]``; every rule is a loop over cells or over
outposts, and each function quotes the rule it plays from ``docs/outpost-rules.md``, in the
order of that page. The engine computes control with a separable distance transform and
searches with sets of cells held as bit rows; this module scans every outpost for every cell,
which is the definition itself. The tests demand
that the engine reproduce this module exactly: the same outposts with the same ids on the same
cells, the same control map and history after every turn, the same log.

Three shortcuts keep a 30-turn game to a few seconds, each changing nothing by construction
and said where it is made: a row of the control scan skips the outposts more than ``r`` rows
away; the supply step's search stops once every outpost of the empire is reached; the
``lookahead`` player simulates a plan once when two candidate plans coincide.

Numpy is used only at the boundary: arrays passed in are checked and turned into lists, and
results are returned as arrays (``control`` as ``int8`` with ``-1`` neutral and ``-2``
disputed).

Readings of the rules page made here: ``gain`` and ``loss`` count water cells too (they count
"the cells" of the diamonds, while ``spread``'s targets are "land cells"); the ``frontier``
sentence "an outpost left in danger steps back to a safe cell when one is next to it" is what
ranking safe options first already does, not a further step; the ``lookahead`` simulation's
supply lines cut every empire's outposts, as the game's do; the ``random`` player draws
``below(1)`` (one word) for an outpost whose only option is to stay; a ``View``'s ``turn`` is
the number of the turn being played; a water array with water on a home is refused.

Log messages (``LogEntry.message``), exactly, with ``{x}`` and ``{y}`` the outpost's cell
before the event and ``{direction}`` one of ``north``, ``east``, ``south``, ``west``:

- ``build``: ``built outpost {id} at home ({x}, {y})``
- ``disband``: ``disbanded outpost {id} at ({x}, {y})``
- ``illegal``: ``outpost {id} at ({x}, {y}) cannot move {direction} onto water`` or
  ``outpost {id} at ({x}, {y}) cannot move {direction} off the grid``
- ``cut``: ``outpost {id} at ({x}, {y}) cut off from home``
- ``player`` (an external answer that is not a valid answer; ``outpost`` is ``-1``; a
  missing answer is not logged):
  ``empire {e} answered {n} directions for {k} outposts; all its outposts stay``,
  ``empire {e} answered direction {d} for outpost {id}, not one of 0..4; all its outposts
  stay``, ``empire {e} answered {answer!r}, not a list of directions; all its outposts stay``
  and ``empire {e} chose outpost {d} to disband, not one of its outposts; outpost {id} (its
  largest id) goes``, where ``{d}`` is an integer as an integer, anything else by its repr.

Within a turn the log follows the play: the season's ``player`` entries (empires ``0..3``),
then its builds and disbands (empires ``0..3``); the moves' ``player`` and ``illegal`` entries
(empire by empire, outposts in id order; in the default simultaneous mode every ``player``
entry comes before every ``illegal`` entry); the ``cut`` entries in increasing outpost id.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate
from stratagem.errors import InvalidParameter
from stratagem.rng.oracle import Stream

__all__ = [
    "DEFAULT_PLAYERS",
    "DIRECTIONS",
    "DISPUTED",
    "EMPIRES",
    "HOMES",
    "MAX_LW",
    "MAX_R",
    "MAX_T",
    "NEUTRAL",
    "PLAYERS",
    "SEASON",
    "SIZE",
    "WALK_INFINITY",
    "LogEntry",
    "OracleGame",
    "Outpost",
    "View",
    "afford",
    "control",
    "cover",
    "cut_off",
    "danger",
    "diamond",
    "disband_choice",
    "frontier_moves",
    "gain_loss",
    "legal_options",
    "lookahead_moves",
    "lookahead_value",
    "random_moves",
    "reached",
    "season_demand",
    "spread_moves",
    "walk",
]

SIZE = 100
EMPIRES = 4
# "Empires 0..3 have their homes at (0, 0), (99, 0), (99, 99), (0, 99)."
HOMES: tuple[tuple[int, int], ...] = ((0, 0), (99, 0), (99, 99), (0, 99))
NEUTRAL = -1
DISPUTED = -2
# "Directions, by number: 0 stay, 1 north (x, y - 1), 2 east (x + 1, y), 3 south (x, y + 1),
# 4 west (x - 1, y)."
STAY, NORTH, EAST, SOUTH, WEST = range(5)
DIRECTIONS: tuple[str, ...] = ("stay", "north", "east", "south", "west")
STEPS: tuple[tuple[int, int], ...] = ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0))
SEASON = 10
# "r radius (0 to 198), L and W land and water cells per extra outpost (1 to 10,000), T turns
# (0 to 1,000,000)."
MAX_R = 198
MAX_LW = 10_000
MAX_T = 1_000_000
PLAYERS: tuple[str, ...] = ("random", "spread", "frontier", "lookahead")
DEFAULT_PLAYERS: tuple[str, ...] = ("spread", "frontier", "random", "lookahead")
# "walk ... or infinity when no target can be reached": no walk on 10,000 cells is this long.
WALK_INFINITY = SIZE * SIZE

Grid = list[list[int]]
Mask = list[list[bool]]


class Outpost(NamedTuple):
    """An outpost: its id (creation order), its empire and its cell ``(x, y)``."""

    id: int
    empire: int
    x: int
    y: int


class LogEntry(NamedTuple):
    """One event: ``kind`` is ``build``, ``disband``, ``illegal``, ``cut`` or ``player``;
    ``outpost`` is the outpost's id, or ``-1`` for a ``player`` entry."""

    turn: int
    empire: int
    kind: str
    outpost: int
    message: str


@dataclass(frozen=True, eq=False)
class View:
    """What a player sees: "the map, the parameters, the turn, the control map and every
    outpost (id, empire, cell)". ``turn`` is the number of the turn being played (1 for the
    first) and ``outposts`` are sorted by id."""

    water: NDArray[np.bool_]
    control: NDArray[np.int8]
    outposts: tuple[Outpost, ...]
    r: int
    L: int
    W: int
    turn: int


@dataclass(frozen=True, eq=False)
class _Map:
    """The water map as rows of bools, with the land neighbours of every cell (in the order N,
    E, S, W) listed once: the searches below walk over land many times a turn."""

    water: Mask
    land_neighbours: list[list[list[tuple[int, int]]]]

    @classmethod
    def of(cls, water: Mask) -> _Map:
        table = [
            [[(nx, ny) for nx, ny in _neighbours(x, y) if not water[ny][nx]] for x in range(SIZE)]
            for y in range(SIZE)
        ]
        return cls(water, table)


@dataclass(frozen=True)
class _Seen:
    """A checked view as plain lists: what the players below read."""

    world: _Map
    control: Grid
    outposts: tuple[Outpost, ...]
    r: int
    L: int
    W: int
    turn: int


# --- Checked input ----------------------------------------------------------------------------


def _water_grid(water: object) -> Mask:
    """The water map as rows of bools: a (100, 100) bool array indexed ``[y, x]`` whose four
    homes are land."""
    array = np.asarray(water)
    if array.dtype != np.bool_:
        raise InvalidParameter(f"water must be a bool array, got dtype {array.dtype}")
    if array.shape != (SIZE, SIZE):
        raise InvalidParameter(f"water must have shape ({SIZE}, {SIZE}), got {array.shape}")
    grid: Mask = array.tolist()
    for empire, (x, y) in enumerate(HOMES):
        if grid[y][x]:
            raise InvalidParameter(f"the home ({x}, {y}) of empire {empire} is water")
    return grid


def _control_grid(control: object) -> Grid:
    """A control map as rows of ints: a (100, 100) integer array of values ``-2..3``."""
    array = np.asarray(control)
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"control must be an integer array, got dtype {array.dtype}")
    if array.shape != (SIZE, SIZE):
        raise InvalidParameter(f"control must have shape ({SIZE}, {SIZE}), got {array.shape}")
    grid: Grid = array.tolist()
    for y in range(SIZE):
        for x in range(SIZE):
            if not DISPUTED <= grid[y][x] < EMPIRES:
                raise InvalidParameter(
                    f"control at (x, y) = ({x}, {y}) is {grid[y][x]}; "
                    "control values are -2 (disputed), -1 (neutral) and the empires 0..3"
                )
    return grid


def _outposts_of(outposts: object) -> tuple[Outpost, ...]:
    """Outposts as ``Outpost`` tuples sorted by id: distinct ids, empires ``0..3``, cells in
    the grid (water is not checked: control does not look at it)."""
    if isinstance(outposts, (str, bytes)) or not isinstance(outposts, Iterable):
        raise InvalidParameter(f"outposts must be a sequence of Outpost, got {outposts!r}")
    checked = []
    for i, item in enumerate(outposts):
        if isinstance(item, (str, bytes)) or not isinstance(item, Iterable):
            raise InvalidParameter(f"outposts[{i}] must be an (id, empire, x, y) tuple")
        fields = list(item)
        if len(fields) != 4:
            raise InvalidParameter(f"outposts[{i}] must be an (id, empire, x, y) tuple")
        checked.append(
            Outpost(
                _validate.integer(f"outposts[{i}].id", fields[0], 0),
                _validate.integer(f"outposts[{i}].empire", fields[1], 0, EMPIRES - 1),
                _validate.integer(f"outposts[{i}].x", fields[2], 0, SIZE - 1),
                _validate.integer(f"outposts[{i}].y", fields[3], 0, SIZE - 1),
            )
        )
    checked.sort(key=lambda outpost: outpost.id)
    for before, after in itertools.pairwise(checked):
        if before.id == after.id:
            raise InvalidParameter(f"two outposts have the id {after.id}")
    return tuple(checked)


def _empire(empire: object) -> int:
    return _validate.integer("empire", empire, 0, EMPIRES - 1)


def _radius(r: object) -> int:
    return _validate.integer("r", r, 0, MAX_R)


def _costs(land_per: object, water_per: object) -> tuple[int, int]:
    """``L`` and ``W``, the land and water cells each outpost costs."""
    return _validate.integer("L", land_per, 1, MAX_LW), _validate.integer("W", water_per, 1, MAX_LW)


def _seen(view: object) -> _Seen:
    """A :class:`View` checked and turned into lists."""
    if not isinstance(view, View):
        raise InvalidParameter(f"a player's view must be a View, got {type(view).__name__}")
    return _Seen(
        _Map.of(_water_grid(view.water)),
        _control_grid(view.control),
        _outposts_of(view.outposts),
        _radius(view.r),
        *_costs(view.L, view.W),
        _validate.integer("turn", view.turn, 0),
    )


def _int8(grid: Grid) -> NDArray[np.int8]:
    return np.array(grid, dtype=np.int8)


def _int64(grid: Grid) -> NDArray[np.int64]:
    return np.array(grid, dtype=np.int64)


def _bools(grid: Mask) -> NDArray[np.bool_]:
    return np.array(grid, dtype=np.bool_)


# --- Grid, cells and directions ---------------------------------------------------------------


def _distance(ax: int, ay: int, bx: int, by: int) -> int:
    """The rule: "Distance is Manhattan: |x1 - x2| + |y1 - y2|"."""
    return abs(ax - bx) + abs(ay - by)


def _inside(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def diamond(x: int, y: int, r: int) -> list[tuple[int, int]]:
    """The rule: "The diamond of a cell p is the set of grid cells at distance <= r from p
    (cut by the grid's edges)", as ``(x, y)`` cells row by row."""
    cells = []
    for cy in range(max(0, y - r), min(SIZE - 1, y + r) + 1):
        reach = r - abs(cy - y)
        for cx in range(max(0, x - reach), min(SIZE - 1, x + reach) + 1):
            cells.append((cx, cy))
    return cells


def _neighbours(x: int, y: int) -> list[tuple[int, int]]:
    """The grid neighbours of ``(x, y)``: "neighbours are always visited in the order N, E, S,
    W"."""
    cells = []
    for dx, dy in STEPS[1:]:
        if _inside(x + dx, y + dy):
            cells.append((x + dx, y + dy))
    return cells


def _destination(x: int, y: int, direction: int) -> tuple[int, int]:
    dx, dy = STEPS[direction]
    return x + dx, y + dy


def _move_problem(water: Mask, x: int, y: int, direction: int) -> str | None:
    """``None`` for a legal move: "A move is legal when it is 0 (stay) or leads to a land
    cell inside the grid"; otherwise why not."""
    if direction == STAY:
        return None
    nx, ny = _destination(x, y, direction)
    if not _inside(nx, ny):
        return "off the grid"
    if water[ny][nx]:
        return "onto water"
    return None


def _options(water: Mask, x: int, y: int) -> list[int]:
    """The legal options of an outpost at ``(x, y)``: "stay first, then the legal directions
    in order N, E, S, W"."""
    return [d for d in range(5) if _move_problem(water, x, y, d) is None]


def legal_options(water: NDArray[np.bool_], x: int, y: int) -> list[int]:
    """The legal directions of an outpost at ``(x, y)``, stay first, then N, E, S, W."""
    grid = _water_grid(water)
    x = _validate.integer("x", x, 0, SIZE - 1)
    y = _validate.integer("y", y, 0, SIZE - 1)
    return _options(grid, x, y)


# --- Control ----------------------------------------------------------------------------------


def _control(outposts: Sequence[Outpost], r: int) -> Grid:
    """The rule, cell by cell: "d(c) is the smallest distance from c to any outpost. d(c) > r
    (or no outposts at all): c is neutral. d(c) <= r and every outpost at distance d(c)
    belongs to empire e: c is controlled by e. Outposts of two or more empires at distance
    d(c): c is disputed."

    Every outpost is scanned for every cell, except that a row skips the outposts more than
    ``r`` rows away: they are farther than ``r`` from every cell of the row, so they can
    neither be the nearest within ``r`` nor tie with it.
    """
    grid = []
    for y in range(SIZE):
        near = [outpost for outpost in outposts if abs(outpost.y - y) <= r]
        row = []
        for x in range(SIZE):
            nearest: int | None = None
            empires: set[int] = set()
            for outpost in near:
                d = abs(x - outpost.x) + abs(y - outpost.y)
                if nearest is None or d < nearest:
                    nearest, empires = d, {outpost.empire}
                elif d == nearest:
                    empires.add(outpost.empire)
            if nearest is None or nearest > r:
                row.append(NEUTRAL)
            elif len(empires) == 1:
                row.append(min(empires))
            else:
                row.append(DISPUTED)
        grid.append(row)
    return grid


def control(water: NDArray[np.bool_], outposts: Sequence[Outpost], r: int) -> NDArray[np.int8]:
    """The control map (100, 100) ``[y, x]``: ``-1`` neutral, ``-2`` disputed, else the
    empire. "Water cells are controlled like land cells", so ``water`` is only checked."""
    _water_grid(water)
    return _int8(_control(_outposts_of(outposts), _radius(r)))


def _cells_of(water: Mask, grid: Grid, empire: int) -> tuple[int, int]:
    """``(land, water)``: the land and water cells whose control is exactly ``empire``."""
    land = wet = 0
    for y in range(SIZE):
        for x in range(SIZE):
            if grid[y][x] == empire:
                if water[y][x]:
                    wet += 1
                else:
                    land += 1
    return land, wet


# --- Supply lines -----------------------------------------------------------------------------


def _reached(
    world: _Map, grid: Grid, empire: int, fringe: bool, *, stop_at: Iterable[tuple[int, int]] = ()
) -> Mask:
    """The cells reached from ``empire``'s home, where "a cell is passable when it is land
    and neutral or controlled by e":

    - default: "the passable cells connected to the home cell through passable cells, the home
      cell included (so nothing is reached when the home cell is not passable)";
    - ``fringe``: "the home cell is reached; the land neighbours of every reached passable cell
      are reached (a search that tests the cell it expands from, not the neighbour)".

    A shortcut for the supply step, which only asks about the outposts' cells: with
    ``stop_at``, the search stops as soon as all those cells are reached (later cells stay
    ``False``).
    """
    passable = [
        [not wet and owner in (NEUTRAL, empire) for wet, owner in zip(water_row, row, strict=True)]
        for water_row, row in zip(world.water, grid, strict=True)
    ]
    hx, hy = HOMES[empire]
    reached = [[False] * SIZE for _ in range(SIZE)]
    queue: list[tuple[int, int]] = []
    left = set(stop_at)  # the cells of stop_at not reached yet
    stop_early = bool(left)
    if fringe or passable[hy][hx]:
        reached[hy][hx] = True
        queue.append((hx, hy))
        left.discard((hx, hy))
    head = 0
    while head < len(queue) and not (stop_early and not left):
        x, y = queue[head]
        head += 1
        if fringe and not passable[y][x]:
            continue  # reached, but the search does not go on from it
        for nx, ny in world.land_neighbours[y][x]:
            if reached[ny][nx]:
                continue
            if fringe or passable[ny][nx]:
                reached[ny][nx] = True
                queue.append((nx, ny))
                left.discard((nx, ny))
    return reached


def reached(
    water: NDArray[np.bool_], control: NDArray[np.integer], empire: int, *, fringe: bool
) -> NDArray[np.bool_]:
    """The cells reached from ``empire``'s home on the control map ``control`` (the default
    supply rule, or ``supply_fringe`` with ``fringe=True``)."""
    grid = _reached(
        _Map.of(_water_grid(water)), _control_grid(control), _empire(empire), bool(fringe)
    )
    return _bools(grid)


def _cut_off(world: _Map, grid: Grid, outposts: Sequence[Outpost], fringe: bool) -> list[int]:
    """The rule: "An outpost of e survives when its cell is reached from e's home": the ids of the
    others, every empire, in increasing id."""
    reached_by = {}
    for empire in sorted({outpost.empire for outpost in outposts}):
        cells = [(o.x, o.y) for o in outposts if o.empire == empire]
        reached_by[empire] = _reached(world, grid, empire, fringe, stop_at=cells)
    cut = []
    for outpost in sorted(outposts, key=lambda o: o.id):
        if not reached_by[outpost.empire][outpost.y][outpost.x]:
            cut.append(outpost.id)
    return cut


def cut_off(
    water: NDArray[np.bool_],
    control: NDArray[np.integer],
    outposts: Sequence[Outpost],
    *,
    fringe: bool,
) -> list[int]:
    """The ids of the outposts (of every empire) that are not reached, in increasing id."""
    return _cut_off(
        _Map.of(_water_grid(water)),
        _control_grid(control),
        _outposts_of(outposts),
        bool(fringe),
    )


# --- Season -----------------------------------------------------------------------------------


def _afford(water: Mask, grid: Grid, empire: int, land_per: int, water_per: int) -> int:
    """The rule: "n_e = 1 + min(land_e // L, water_e // W)"."""
    land, wet = _cells_of(water, grid, empire)
    return 1 + min(land // land_per, wet // water_per)


def afford(
    control: NDArray[np.integer],
    water: NDArray[np.bool_],
    empire: int,
    L: int,  # noqa: N803 (the rules' name)
    W: int,  # noqa: N803
) -> int:
    """The number of outposts ``empire`` can afford on the control map ``control``."""
    return _afford(
        _water_grid(water),
        _control_grid(control),
        _empire(empire),
        *_costs(L, W),
    )


def _season_demand(
    water: Mask, grid: Grid, outposts: Sequence[Outpost], land_per: int, water_per: int
) -> list[int]:
    """For each empire: ``+1`` builds ("k_e < n_e"), ``-1`` disbands ("k_e > n_e"), ``0``
    otherwise."""
    demand = []
    for empire in range(EMPIRES):
        k = sum(1 for outpost in outposts if outpost.empire == empire)
        n = _afford(water, grid, empire, land_per, water_per)
        demand.append(1 if k < n else -1 if k > n else 0)
    return demand


def season_demand(
    control: NDArray[np.integer],
    water: NDArray[np.bool_],
    outposts: Sequence[Outpost],
    L: int,  # noqa: N803 (the rules' name)
    W: int,  # noqa: N803
) -> list[int]:
    """What a season does to each empire 0..3: ``1`` build, ``-1`` disband, ``0`` nothing."""
    return _season_demand(
        _water_grid(water),
        _control_grid(control),
        _outposts_of(outposts),
        *_costs(L, W),
    )


# --- Quantities the built-in players share ----------------------------------------------------


def _own(outposts: Sequence[Outpost], empire: int) -> list[Outpost]:
    """The rule: "An empire's outposts are always listed in increasing id"."""
    return sorted((o for o in outposts if o.empire == empire), key=lambda o: o.id)


def _cover(outposts: Sequence[Outpost], empire: int, r: int) -> Grid:
    """The rule: "cover[c]: the number of e's outposts whose diamond contains c"."""
    grid = [[0] * SIZE for _ in range(SIZE)]
    for outpost in _own(outposts, empire):
        for x, y in diamond(outpost.x, outpost.y, r):
            grid[y][x] += 1
    return grid


def cover(outposts: Sequence[Outpost], empire: int, r: int) -> NDArray[np.int64]:
    """``cover[y, x]``: how many of ``empire``'s outposts have ``(x, y)`` in their diamond."""
    return _int64(_cover(_outposts_of(outposts), _empire(empire), _radius(r)))


def _walk(world: _Map, targets: Mask) -> Grid:
    """The rule: "walk[c]: the number of steps over land (4-neighbour, land cells only) from
    c to the nearest target cell, or infinity when no target can be reached; targets have
    walk = 0" (infinity is ``WALK_INFINITY``): a breadth-first search from every target at
    once."""
    water = world.water
    grid = [[WALK_INFINITY] * SIZE for _ in range(SIZE)]
    queue = []
    for y in range(SIZE):
        for x in range(SIZE):
            if targets[y][x] and not water[y][x]:
                grid[y][x] = 0
                queue.append((x, y))
    head = 0
    while head < len(queue):
        x, y = queue[head]
        head += 1
        for nx, ny in world.land_neighbours[y][x]:
            if grid[ny][nx] == WALK_INFINITY:
                grid[ny][nx] = grid[y][x] + 1
                queue.append((nx, ny))
    return grid


def walk(water: NDArray[np.bool_], targets: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Steps over land to the nearest target (land cells of ``targets``); ``WALK_INFINITY``
    where none can be reached, water included."""
    grid = _water_grid(water)
    array = np.asarray(targets)
    if array.dtype != np.bool_ or array.shape != (SIZE, SIZE):
        raise InvalidParameter(f"targets must be a ({SIZE}, {SIZE}) bool array")
    return _int64(_walk(_Map.of(grid), array.tolist()))


def _gain_loss(grid: Grid, p: tuple[int, int], q: tuple[int, int], r: int) -> tuple[int, int]:
    """The rule: "For a move of one outpost from p to a neighbour q: gain = the cells of
    diamond(q) \\ diamond(p) with cover == 0, loss = the cells of diamond(p) \\ diamond(q)
    with cover == 1; staying has gain = loss = 0" (water cells count: they are cells)."""
    if p == q:
        return 0, 0
    gain = 0
    for x, y in diamond(q[0], q[1], r):
        if _distance(x, y, p[0], p[1]) > r and grid[y][x] == 0:
            gain += 1
    loss = 0
    for x, y in diamond(p[0], p[1], r):
        if _distance(x, y, q[0], q[1]) > r and grid[y][x] == 1:
            loss += 1
    return gain, loss


def gain_loss(
    cover: NDArray[np.integer], p: tuple[int, int], q: tuple[int, int], r: int
) -> tuple[int, int]:
    """``(gain, loss)`` of moving an outpost from cell ``p`` to cell ``q`` under ``cover``."""
    array = np.asarray(cover)
    if not np.issubdtype(array.dtype, np.integer) or array.shape != (SIZE, SIZE):
        raise InvalidParameter(f"cover must be a ({SIZE}, {SIZE}) integer array")
    return _gain_loss(array.tolist(), (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), _radius(r))


def _move_cover(grid: Grid, p: tuple[int, int], q: tuple[int, int], r: int) -> None:
    """The rule: "When the choice is a move, cover is updated at once": one outpost leaves p
    for q."""
    for x, y in diamond(p[0], p[1], r):
        grid[y][x] -= 1
    for x, y in diamond(q[0], q[1], r):
        grid[y][x] += 1


def _danger(outposts: Sequence[Outpost], empire: int, x: int, y: int) -> bool:
    """The rule: "danger[c]: an outpost of another empire is within distance 2 of c"."""
    return any(o.empire != empire and _distance(x, y, o.x, o.y) <= 2 for o in outposts)


def danger(outposts: Sequence[Outpost], empire: int, x: int, y: int) -> bool:
    """Whether an outpost of another empire than ``empire`` is within distance 2 of
    ``(x, y)``."""
    return _danger(_outposts_of(outposts), _empire(empire), int(x), int(y))


# --- The built-in players ---------------------------------------------------------------------


def _random_moves(seen: _Seen, empire: int, seed: int, turn: int) -> list[int]:
    """``random``: "For each outpost in id order, its legal options (stay first, then the
    legal directions in order N, E, S, W) and one draw below(number of options) from one
    cursor of stream (seed, "outpost.random", [e, t])"."""
    cursor = Stream(seed, "outpost.random", empire, turn).cursor()
    moves = []
    for outpost in _own(seen.outposts, empire):
        options = _options(seen.world.water, outpost.x, outpost.y)
        moves.append(options[cursor.below(len(options))])
    return moves


def random_moves(view: View, empire: int, seed: int, turn: int) -> list[int]:
    """The ``random`` player's directions for ``empire``'s outposts, in id order."""
    return _random_moves(
        _seen(view), _empire(empire), _validate.seed(seed), _validate.u64("turn", turn)
    )


def _stranded(seen: _Seen, empire: int) -> bool:
    """The rule: "e is stranded when it has one outpost and n_e = 1"."""
    own = _own(seen.outposts, empire)
    return len(own) == 1 and _afford(seen.world.water, seen.control, empire, seen.L, seen.W) == 1


def _sites(seen: _Seen) -> Mask:
    """The rule: "sites: land cells whose diamond holds at least L land and W water cells"."""
    water = seen.world.water
    sites = [[False] * SIZE for _ in range(SIZE)]
    for y in range(SIZE):
        for x in range(SIZE):
            if not water[y][x]:
                cells = diamond(x, y, seen.r)
                wet = sum(1 for cx, cy in cells if water[cy][cx])
                sites[y][x] = len(cells) - wet >= seen.L and wet >= seen.W
    return sites


def _greedy_moves(seen: _Seen, empire: int, frontier: bool) -> list[int]:
    """``spread`` and ``frontier``, one outpost at a time.

    ``spread``: "Targets: land cells with cover == 0. For each outpost in id order, among its
    legal options choose the one with the largest gain - loss, then the smallest walk of the
    destination (staying: of the current cell), then the first in option order (stay, N, E,
    S, W). When the choice is a move, cover is updated at once (the later outposts of the turn
    see it); walk is not recomputed within a turn."

    ``frontier``: "Targets: land cells not controlled by e (neutral, disputed or another
    empire's). A destination q is safe when supplied[q] and not danger[q]. ... choose the
    largest (safe, gain - loss), then the smallest walk, then the first in option order;
    cover is updated as for spread." (Its last sentence, "an outpost left in danger steps back
    to a safe cell when one is next to it", follows from ranking safe options first.)
    """
    water, r = seen.world.water, seen.r
    grid = _cover(seen.outposts, empire, r)
    if frontier:
        targets = [[seen.control[y][x] != empire for x in range(SIZE)] for y in range(SIZE)]
        supplied = _reached(seen.world, seen.control, empire, fringe=False)
    else:
        targets = [[grid[y][x] == 0 for x in range(SIZE)] for y in range(SIZE)]
    walks = _walk(seen.world, targets)  # land cells only: _walk ignores water targets
    # "A stranded empire's options are ranked by their site walk first (after safe)."
    stranded = _stranded(seen, empire)
    site_walks = _walk(seen.world, _sites(seen)) if stranded else None
    moves = []
    for outpost in _own(seen.outposts, empire):
        p = (outpost.x, outpost.y)
        best_direction = STAY
        best_key: tuple[int, ...] | None = None
        for direction in _options(water, outpost.x, outpost.y):
            q = _destination(outpost.x, outpost.y, direction)
            gain, loss = _gain_loss(grid, p, q, r)
            # The key is smallest-first: larger (safe), smaller site walk, larger gain - loss,
            # then smaller walk.
            site_walk = site_walks[q[1]][q[0]] if site_walks is not None else 0
            key: tuple[int, ...] = (site_walk, -(gain - loss), walks[q[1]][q[0]])
            if frontier:
                safe = supplied[q[1]][q[0]] and not _danger(seen.outposts, empire, *q)
                key = (0 if safe else 1, *key)
            if best_key is None or key < best_key:  # ties: the first in option order
                best_direction, best_key = direction, key
        if best_direction != STAY:
            _move_cover(grid, p, _destination(outpost.x, outpost.y, best_direction), r)
        moves.append(best_direction)
    return moves


def spread_moves(view: View, empire: int) -> list[int]:
    """The ``spread`` (greedy area) player's directions for ``empire``'s outposts."""
    return _greedy_moves(_seen(view), _empire(empire), frontier=False)


def frontier_moves(view: View, empire: int) -> list[int]:
    """The ``frontier`` player's directions for ``empire``'s outposts."""
    return _greedy_moves(_seen(view), _empire(empire), frontier=True)


def _apply_plan(
    water: Mask, outposts: Sequence[Outpost], empire: int, plan: Sequence[int]
) -> tuple[Outpost, ...]:
    """``outposts`` after the legal moves of ``plan`` (one direction per outpost of
    ``empire`` in id order); illegal moves stay."""
    directions = dict(zip((o.id for o in _own(outposts, empire)), plan, strict=True))
    moved = []
    for outpost in outposts:
        direction = directions.get(outpost.id, STAY)
        if _move_problem(water, outpost.x, outpost.y, direction) is None:
            x, y = _destination(outpost.x, outpost.y, direction)
            moved.append(outpost._replace(x=x, y=y))
        else:
            moved.append(outpost)
    return tuple(moved)


def _simulate(seen: _Seen, empire: int, plan: Sequence[int], fringe: bool) -> tuple[int, list[int]]:
    """The rule: "Each plan is simulated for the rest of the turn with every other empire's outposts
    staying where they are: the plan's legal moves applied, control recomputed, supply lines
    (with the game's supply_fringe flag) and control again. Its value is 3 * own - (sum of
    the other empires' cells), with own the cells e controls afterwards."

    Returns the value and the ids of ``empire``'s outposts the supply lines cut off."""
    moved = _apply_plan(seen.world.water, seen.outposts, empire, plan)
    grid = _control(moved, seen.r)
    cut = _cut_off(seen.world, grid, moved, fringe)
    if cut:  # with nothing cut, control again would give the same map
        grid = _control([o for o in moved if o.id not in cut], seen.r)
    own = others = 0
    for row in grid:
        for owner in row:
            if owner == empire:
                own += 1
            elif owner >= 0:
                others += 1
    cut_own = [o.id for o in moved if o.id in cut and o.empire == empire]
    return 3 * own - others, cut_own


def _lookahead_moves(seen: _Seen, empire: int, fringe: bool) -> list[int]:
    """``lookahead``: "1. The frontier moves are simulated ... 2. If the simulation cuts off
    none of e's outposts, they are played. 3. Otherwise three plans compete, in this order: the
    frontier moves, the frontier moves with the cut-off outposts staying, every outpost
    staying; the plan of the largest value is played (the first in the order on ties)"."""
    own = _own(seen.outposts, empire)
    frontier = _greedy_moves(seen, empire, frontier=True)
    frontier_value, cut = _simulate(seen, empire, frontier, fringe)
    if not cut:
        return frontier
    repaired = [
        STAY if outpost.id in cut else direction
        for outpost, direction in zip(own, frontier, strict=True)
    ]
    best_plan, best_value = frontier, frontier_value
    for plan in (repaired, [STAY] * len(own)):
        value, _ = _simulate(seen, empire, plan, fringe)
        if value > best_value:
            best_plan, best_value = plan, value
    return best_plan


def lookahead_moves(view: View, empire: int, *, fringe: bool) -> list[int]:
    """The ``lookahead`` player's directions for ``empire``'s outposts; ``fringe`` is the
    game's ``supply_fringe`` flag."""
    return _lookahead_moves(_seen(view), _empire(empire), bool(fringe))


def lookahead_value(view: View, empire: int, plan: Sequence[int], *, fringe: bool) -> int:
    """The value ``3 * own - others`` the ``lookahead`` player gives to ``plan``."""
    seen = _seen(view)
    e = _empire(empire)
    directions = [_validate.integer(f"plan[{i}]", d, 0, 4) for i, d in enumerate(plan)]
    if len(directions) != len(_own(seen.outposts, e)):
        raise InvalidParameter(
            f"plan has {len(directions)} directions for {len(_own(seen.outposts, e))} outposts"
        )
    return _simulate(seen, e, directions, bool(fringe))[0]


def _disband_choice(kind: str, seen: _Seen, empire: int, seed: int, turn: int) -> int:
    """The id of the outpost ``empire`` disbands.

    ``random``: "below(k_e) from stream (seed, "outpost.disband", [e, t]), the index into the
    empire's outposts in id order". The others: "the outpost whose diamond has the fewest
    cells with cover == 1; ties go to the largest id"."""
    own = _own(seen.outposts, empire)
    if not own:
        raise InvalidParameter(f"empire {empire} has no outpost to disband")
    if kind == "random":
        cursor = Stream(seed, "outpost.disband", empire, turn).cursor()
        return own[cursor.below(len(own))].id
    grid = _cover(seen.outposts, empire, seen.r)
    chosen, fewest = own[0].id, None
    for outpost in own:
        alone = sum(1 for x, y in diamond(outpost.x, outpost.y, seen.r) if grid[y][x] == 1)
        if fewest is None or alone <= fewest:  # `<=`: later (larger) ids win ties
            chosen, fewest = outpost.id, alone
    return chosen


def disband_choice(kind: str, view: View, empire: int, seed: int, turn: int) -> int:
    """The id of the outpost the built-in player ``kind`` disbands for ``empire``."""
    if not isinstance(kind, str) or kind not in PLAYERS:
        raise InvalidParameter(f"unknown player {kind!r}; the built-in players are {PLAYERS}")
    return _disband_choice(
        kind, _seen(view), _empire(empire), _validate.seed(seed), _validate.u64("turn", turn)
    )


def _moves_of(kind: str, seen: _Seen, empire: int, *, seed: int, fringe: bool) -> list[int]:
    """The directions of the built-in player ``kind`` on turn ``seen.turn``."""
    if kind == "random":
        return _random_moves(seen, empire, seed, seen.turn)
    if kind == "spread":
        return _greedy_moves(seen, empire, frontier=False)
    if kind == "frontier":
        return _greedy_moves(seen, empire, frontier=True)
    return _lookahead_moves(seen, empire, fringe)


# --- A whole game -----------------------------------------------------------------------------


def _players(players: object) -> tuple[str | None, ...]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidParameter(f"players must be a sequence of 4 names, got {players!r}")
    if len(players) != EMPIRES:
        raise InvalidParameter(f"players must name one player per empire (4), got {len(players)}")
    for empire, name in enumerate(players):
        if name is not None and (not isinstance(name, str) or name not in PLAYERS):
            raise InvalidParameter(
                f"unknown player {name!r} for empire {empire}; the built-in players are "
                f"{', '.join(PLAYERS)} (None for an external player)"
            )
    return tuple(players)


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameter(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _shown(value: object) -> str:
    """An answer in a log message: integers as integers, anything else by its repr."""
    if not isinstance(value, bool) and isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(value)


class OracleGame:
    """An outpost game played by the rules above, one turn per :meth:`step`.

    ``players[e]`` is a built-in player's name or ``None`` for an external player, whose
    answers are passed to :meth:`step`. Every argument is checked before any state is set.
    """

    def __init__(
        self,
        water: NDArray[np.bool_],
        *,
        r: int = 7,
        L: int = 12,  # noqa: N803 (the rules' name)
        W: int = 3,  # noqa: N803
        T: int = 4444,  # noqa: N803
        players: Sequence[str | None] = DEFAULT_PLAYERS,
        seed: int = 0,
        supply_fringe: bool = False,
        sequential_moves: bool = False,
        extra_turn: bool = False,
    ) -> None:
        grid = _water_grid(water)
        self.r = _radius(r)
        self.L, self.W = _costs(L, W)
        self.T = _validate.integer("T", T, 0, MAX_T)
        self.players = _players(players)
        self.seed = _validate.seed(seed)
        self.supply_fringe = _flag("supply_fringe", supply_fringe)
        self.sequential_moves = _flag("sequential_moves", sequential_moves)
        self.extra_turn = _flag("extra_turn", extra_turn)

        self._water = grid
        self._map = _Map.of(grid)
        self.water: NDArray[np.bool_] = _bools(grid)
        self.water.flags.writeable = False
        # "the game ends after turn T (after T + 1 with extra_turn)".
        self.last_turn = self.T + 1 if self.extra_turn else self.T
        self.log: list[LogEntry] = []
        # "The game starts at turn 0 with each empire's outpost on its home and control
        # computed"; "the four starting outposts (one per empire, on its home) are ids 0..3".
        self._start(tuple(Outpost(e, e, *HOMES[e]) for e in range(EMPIRES)))

    @classmethod
    def from_position(
        cls, water: NDArray[np.bool_], outposts: Sequence[Outpost], **kwargs: Any
    ) -> OracleGame:
        """A game (parameters as for the constructor) whose turn-0 position has ``outposts``
        instead of one outpost per home; the next id is one more than the largest. For tests:
        it lets a hand-made position be played by the rules."""
        game = cls(water, **kwargs)
        checked = _outposts_of(outposts)
        for outpost in checked:
            if game._water[outpost.y][outpost.x]:
                raise InvalidParameter(
                    f"outpost {outpost.id} is on water at ({outpost.x}, {outpost.y})"
                )
        game._start(checked)
        return game

    def _start(self, outposts: tuple[Outpost, ...]) -> None:
        self.turn = 0
        self.outposts = outposts
        self.next_id = max((o.id for o in outposts), default=-1) + 1
        self._control = _control(self.outposts, self.r)
        self._history: dict[str, list[list[int]]] = {"land": [], "water": [], "outposts": []}
        self._record()

    # --- State ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.turn >= self.last_turn

    @property
    def control(self) -> NDArray[np.int8]:
        """The control map ``[y, x]``: ``-1`` neutral, ``-2`` disputed, else the empire."""
        return _int8(self._control)

    @property
    def history(self) -> dict[str, NDArray[np.int64]]:
        """``land``, ``water`` and ``outposts`` of each empire, one row per turn played after
        row 0, the start: shape ``(turn + 1, 4)``."""
        return {key: np.array(rows, dtype=np.int64) for key, rows in self._history.items()}

    def view(self) -> View:
        """What a player sees now, for the next turn (``turn + 1``)."""
        return self._view(self.turn + 1)

    def _view(self, turn: int) -> View:
        water = self.water
        grid = _int8(self._control)
        grid.flags.writeable = False
        return View(water, grid, self.outposts, self.r, self.L, self.W, turn)

    def _seen(self, turn: int) -> _Seen:
        return _Seen(self._map, self._control, self.outposts, self.r, self.L, self.W, turn)

    def scores(self) -> list[int]:
        """The score: "the number of cells (land + water) each empire controls"."""
        return [sum(_cells_of(self._water, self._control, e)) for e in range(EMPIRES)]

    def placings(self) -> list[int]:
        """The placing (the spec's "rank"): "1 + the number of empires with a strictly higher
        score (ties share a rank)"."""
        scores = self.scores()
        return [1 + sum(1 for other in scores if other > score) for score in scores]

    def _record(self) -> None:
        """Step 4: "The history records, for each empire after the turn, the land and water cells it
        controls and its number of outposts"."""
        counts = [_cells_of(self._water, self._control, e) for e in range(EMPIRES)]
        self._history["land"].append([land for land, _ in counts])
        self._history["water"].append([wet for _, wet in counts])
        self._history["outposts"].append(
            [sum(1 for o in self.outposts if o.empire == e) for e in range(EMPIRES)]
        )

    def _say(self, turn: int, empire: int, kind: str, outpost: int, message: str) -> None:
        self.log.append(LogEntry(turn, empire, kind, outpost, message))

    # --- A turn ----------------------------------------------------------------------------

    def _check_answers(self, name: str, answers: object) -> Mapping[int, object]:
        """External answers by empire: only empires played by ``None`` take answers."""
        if answers is None:
            return {}
        if not isinstance(answers, Mapping):
            raise InvalidParameter(f"{name} must map empires to answers, got {answers!r}")
        for empire in answers:
            if isinstance(empire, bool) or not isinstance(empire, numbers.Integral):
                raise InvalidParameter(f"{name}: {empire!r} is not an empire (0 to 3)")
            if not 0 <= int(empire) < EMPIRES:
                raise InvalidParameter(f"{name}: {empire} is not an empire (0 to 3)")
            if self.players[int(empire)] is not None:
                raise InvalidParameter(
                    f"{name}: empire {empire} is played by the built-in player "
                    f"{self.players[int(empire)]!r}, not an external one"
                )
        return {int(empire): answer for empire, answer in answers.items()}

    def step(
        self,
        external_moves: Mapping[int, Sequence[int]] | None = None,
        external_disbands: Mapping[int, int] | None = None,
    ) -> bool:
        """Play one turn unless the game is finished; return whether a turn was played.

        ``external_moves[e]`` is the answer of the external empire ``e`` to ``move``: one
        direction per outpost it has after the season, in id order (in a season turn, one more
        than now when it builds, one fewer when it disbands). ``external_disbands[e]`` is the id
        it disbands, read only when the season asks it. An external empire with no answer has
        all its outposts stay, or its largest id disbanded. An answer that is not valid is
        logged (``player``) and replaced the same way. With ``sequential_moves`` the external
        moves are applied in their empire's place in the order."""
        moves = self._check_answers("external_moves", external_moves)
        disbands = self._check_answers("external_disbands", external_disbands)
        if self.finished:
            return False
        t = self.turn + 1
        if t % SEASON == 0:
            self._season(t, disbands)
        self._moves(t, moves)
        self._supply_lines(t)
        self.turn = t
        self._record()
        return True

    def run(self) -> None:
        """Play to the end; every player must be built in."""
        for empire, name in enumerate(self.players):
            if name is None:
                raise InvalidParameter(
                    f"run() needs built-in players only; empire {empire} is external "
                    "(play it with step())"
                )
        while self.step():
            pass

    def _season(self, t: int, disbands: Mapping[int, object]) -> None:
        """Step 1: "From the state at the start of the turn, each empire e counts land_e and
        water_e ... With k_e outposts: k_e < n_e: one outpost is built on its home cell;
        k_e > n_e: its player chooses one of its outposts, which is disbanded; otherwise
        nothing. All disband choices are made from the state at the start of the turn; then
        the changes are applied in empire order 0..3 (builds take the next ids in that order)
        and control is recomputed"."""
        seen = self._seen(t)
        demand = _season_demand(self._water, self._control, self.outposts, self.L, self.W)
        chosen: dict[int, int] = {}
        for empire in range(EMPIRES):
            if demand[empire] < 0:
                kind = self.players[empire]
                if kind is None:
                    chosen[empire] = self._disband_answer(t, empire, disbands.get(empire))
                else:
                    chosen[empire] = _disband_choice(kind, seen, empire, self.seed, t)
        outposts = list(self.outposts)
        for empire in range(EMPIRES):
            if demand[empire] > 0:
                x, y = HOMES[empire]
                built = Outpost(self.next_id, empire, x, y)
                self.next_id += 1
                outposts.append(built)
                self._say(
                    t, empire, "build", built.id, f"built outpost {built.id} at home ({x}, {y})"
                )
            elif demand[empire] < 0:
                gone = next(o for o in outposts if o.id == chosen[empire])
                outposts.remove(gone)
                self._say(
                    t,
                    empire,
                    "disband",
                    gone.id,
                    f"disbanded outpost {gone.id} at ({gone.x}, {gone.y})",
                )
        self.outposts = tuple(outposts)
        self._control = _control(self.outposts, self.r)

    def _disband_answer(self, t: int, empire: int, answer: object) -> int:
        """An external disband answer: an id the empire owns, else its largest id."""
        own = _own(self.outposts, empire)
        largest = own[-1].id
        if answer is None:
            return largest
        if (
            not isinstance(answer, bool)
            and isinstance(answer, numbers.Integral)
            and int(answer) in {o.id for o in own}
        ):
            return int(answer)
        self._say(
            t,
            empire,
            "player",
            -1,
            f"empire {empire} chose outpost {_shown(answer)} to disband, not one of its "
            f"outposts; outpost {largest} (its largest id) goes",
        )
        return largest

    def _move_answer(self, t: int, empire: int, answer: object) -> list[int]:
        """An external move answer: one direction in ``0..4`` per outpost in id order, else
        every outpost stays."""
        own = _own(self.outposts, empire)
        stay = [STAY] * len(own)
        if answer is None:
            return stay
        problem = None
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
            problem = f"answered {answer!r}, not a list of directions"
        else:
            items = list(answer)
            if len(items) != len(own):
                problem = f"answered {len(items)} directions for {len(own)} outposts"
            else:
                for outpost, item in zip(own, items, strict=True):
                    if (
                        isinstance(item, bool)
                        or not isinstance(item, numbers.Integral)
                        or not STAY <= int(item) <= WEST
                    ):
                        problem = (
                            f"answered direction {_shown(item)} for outpost {outpost.id}, "
                            "not one of 0..4"
                        )
                        break
        if problem is not None:
            self._say(t, empire, "player", -1, f"empire {empire} {problem}; all its outposts stay")
            return stay
        return [int(item) for item in items]

    def _choose_moves(self, t: int, empire: int, answers: Mapping[int, object]) -> list[int]:
        kind = self.players[empire]
        if kind is None:
            return self._move_answer(t, empire, answers.get(empire))
        if not _own(self.outposts, empire):
            return []
        return _moves_of(kind, self._seen(t), empire, seed=self.seed, fringe=self.supply_fringe)

    def _apply_moves(self, t: int, empire: int, directions: Sequence[int]) -> None:
        """The rule: "A move is legal when it is 0 (stay) or leads to a land cell inside the
        grid; an illegal move is logged and the outpost stays"."""
        by_id = dict(zip((o.id for o in _own(self.outposts, empire)), directions, strict=True))
        moved = []
        for outpost in self.outposts:
            direction = by_id.get(outpost.id, STAY)
            problem = _move_problem(self._water, outpost.x, outpost.y, direction)
            if problem is not None:
                self._say(
                    t,
                    empire,
                    "illegal",
                    outpost.id,
                    f"outpost {outpost.id} at ({outpost.x}, {outpost.y}) cannot move "
                    f"{DIRECTIONS[direction]} {problem}",
                )
            elif direction != STAY:
                x, y = _destination(outpost.x, outpost.y, direction)
                moved.append(outpost._replace(x=x, y=y))
                continue
            moved.append(outpost)
        self.outposts = tuple(moved)

    def _moves(self, t: int, answers: Mapping[int, object]) -> None:
        """Step 2. "Default (simultaneous): every player chooses from the same state (after the
        season); then every empire's moves are applied and control is recomputed.
        sequential_moves: for empire e = 0, 1, 2, 3 in turn: its player chooses from the
        current state, its moves are applied, control is recomputed"."""
        if self.sequential_moves:
            for empire in range(EMPIRES):
                self._apply_moves(t, empire, self._choose_moves(t, empire, answers))
                self._control = _control(self.outposts, self.r)
        else:
            chosen = [self._choose_moves(t, empire, answers) for empire in range(EMPIRES)]
            for empire in range(EMPIRES):
                self._apply_moves(t, empire, chosen[empire])
            self._control = _control(self.outposts, self.r)

    def _supply_lines(self, t: int) -> None:
        """Step 3: "Every outpost of every empire that is not reached is removed at once
        (logged as cut), and control is recomputed"."""
        cut = _cut_off(self._map, self._control, self.outposts, self.supply_fringe)
        for outpost in self.outposts:
            if outpost.id in cut:
                self._say(
                    t,
                    outpost.empire,
                    "cut",
                    outpost.id,
                    f"outpost {outpost.id} at ({outpost.x}, {outpost.y}) cut off from home",
                )
        self.outposts = tuple(o for o in self.outposts if o.id not in cut)
        self._control = _control(self.outposts, self.r)
