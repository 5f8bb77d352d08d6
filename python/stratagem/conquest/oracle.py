"""The conquest rules in plain Python: the oracle of the Rust engine in ``rust/conquest``.

Written for reading, not speed: plain lists of Python integers, one function per phase, each
quoting the rule it plays from ``docs/conquest-rules.md``. The tests demand that the Rust
engine reproduce this module bit for bit (same teams, same troops, after every turn), so every
detail of the document is followed literally: the CSR order of edges, the order of random
draws, the tie rule and integer arithmetic throughout (no floats in the rules).

Boards are given in CSR form: ``indptr`` (length n + 1) and ``indices`` (length 2m, each row
sorted by neighbour id). The directed edge ``e`` is the position in ``indices``: ``e`` in
``indptr[x]..indptr[x+1]`` is ``x -> indices[e]``. Inputs may be lists or numpy arrays; they
are converted to lists of Python ints at the boundary.
"""

from __future__ import annotations

import math
import numbers
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from stratagem import _validate
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng.oracle import Stream

__all__ = [
    "FULL",
    "MAX_TEAMS",
    "POLICIES",
    "TROOP_LIMIT",
    "OracleGame",
    "barabasi_albert_ends",
    "battle",
    "battle_odds_exact",
    "border_ids",
    "end_status",
    "frontier_distance",
    "play_turn",
    "policy_placement",
    "regions_of",
    "reverse_edges",
    "search_budget",
    "simulate_battle_counts",
    "troop_limit",
    "validate_placement",
]

TROOP_LIMIT: int = 2**40
#: The rule: "a stack of at least FULL troops is *full*" (20% recruitment takes it to 2**40).
FULL: int = TROOP_LIMIT - TROOP_LIMIT // 6


def troop_limit(n: int) -> int:
    """The rule: "a territory holds at most min(TROOP_LIMIT, (2**63 - 1) // n) troops on a
    board of n territories" (TROOP_LIMIT below 2**23 territories), so that all troops of the
    board together fit in an int64."""
    return min(TROOP_LIMIT, (2**63 - 1) // max(n, 1))


POLICIES: tuple[str, ...] = ("random", "aggressive", "balanced", "opportunist", "search")
# The policies that are a rule of one turn (search plays them out).
_RULES = POLICIES[:4]
MAX_TEAMS = 64
MIN_TEAMS = 2
MAX_RATE = 10
PPM = 1_000_000
CUSTOM = "custom"
COINS = {"attack": 1, "defend": 2}


# --- Boards and input checks -------------------------------------------------------------


def _int_list(name: str, values: Iterable[int], low: int, high: int | None = None) -> list[int]:
    """``values`` as a list of Python ints in ``[low, high]``; ``name[i]`` names a bad entry."""
    if isinstance(values, (str, bytes)):
        raise InvalidParameter(f"{name} must be a sequence of integers, got {values!r}")
    try:
        items = list(values)
    except TypeError:
        raise InvalidParameter(f"{name} must be a sequence of integers, got {values!r}") from None
    return [_validate.integer(f"{name}[{i}]", v, low, high) for i, v in enumerate(items)]


@dataclass(frozen=True)
class _Board:
    """A checked CSR board with the reverse of every directed edge."""

    indptr: list[int]
    indices: list[int]
    reverse: list[int]

    @property
    def n(self) -> int:
        return len(self.indptr) - 1

    def edges(self, x: int) -> range:
        """The directed edges ``x -> indices[e]``, in CSR order (smallest neighbour first)."""
        return range(self.indptr[x], self.indptr[x + 1])

    @classmethod
    def of(cls, indptr: Iterable[int], indices: Iterable[int]) -> _Board:
        """Check a CSR board: rows sorted, no self-loop, no duplicate, every edge both ways."""
        ptr = _int_list("indptr", indptr, 0)
        idx = _int_list("indices", indices, 0)
        if not ptr or ptr[0] != 0:
            raise InvalidBoard("indptr must start with 0 (it has n + 1 entries)")
        if ptr[-1] != len(idx):
            raise InvalidBoard(f"indptr ends with {ptr[-1]} but indices has {len(idx)} entries")
        n = len(ptr) - 1
        for x in range(n):
            if ptr[x + 1] < ptr[x]:
                raise InvalidBoard(f"indptr decreases at territory {x}")
        for x in range(n):
            previous = -1
            for e in range(ptr[x], ptr[x + 1]):
                y = idx[e]
                if y >= n:
                    raise InvalidBoard(
                        f"territory {x} borders {y}, out of range for {n} territories"
                    )
                if y == x:
                    raise InvalidBoard(f"territory {x} borders itself (self-loop)")
                if y == previous:
                    raise InvalidBoard(f"territory {x} borders {y} twice (duplicate edge)")
                if y < previous:
                    raise InvalidBoard(f"the neighbours of territory {x} are not sorted")
                previous = y
        reverse = []
        for x in range(n):
            for e in range(ptr[x], ptr[x + 1]):
                y = idx[e]
                back = bisect_left(idx, x, ptr[y], ptr[y + 1])
                if back == ptr[y + 1] or idx[back] != x:
                    raise InvalidBoard(f"territory {x} borders {y} but {y} does not border {x}")
                reverse.append(back)
        return cls(ptr, idx, reverse)


def _teams_of(board: _Board, team: Iterable[int]) -> list[int]:
    values = _int_list("team", team, 0)
    if len(values) != board.n:
        raise InvalidParameter(f"team has {len(values)} entries for {board.n} territories")
    return values


def _troops_of(board: _Board, troops: Iterable[int]) -> list[int]:
    values = _int_list("troops", troops, 0, TROOP_LIMIT)
    if len(values) != board.n:
        raise InvalidParameter(f"troops has {len(values)} entries for {board.n} territories")
    return values


def _team_set(teams: Iterable[int]) -> set[int]:
    return set(_int_list("teams", teams, 0))


def _cap_of(cap: int | None) -> int:
    """No cap means TROOP_LIMIT."""
    return TROOP_LIMIT if cap is None else _validate.integer("cap", cap, 1, TROOP_LIMIT)


def reverse_edges(indptr: Iterable[int], indices: Iterable[int]) -> list[int]:
    """``reverse[e]`` is the position of ``y -> x`` for the directed edge ``e = x -> y``."""
    return _Board.of(indptr, indices).reverse


def _border_ids(board: _Board) -> list[int]:
    """The rule: "the border id of {x, y} is the position e of x -> y with x < y"."""
    ids = []
    for x in range(board.n):
        for e in board.edges(x):
            ids.append(e if x < board.indices[e] else board.reverse[e])
    return ids


def border_ids(indptr: Iterable[int], indices: Iterable[int]) -> list[int]:
    """For each directed edge: the border id of its undirected border."""
    return _border_ids(_Board.of(indptr, indices))


# --- The state at the start of a turn ------------------------------------------------------


@dataclass(frozen=True)
class _Turn:
    """What every phase reads: the board and the state at the start of turn ``turn`` of the
    game ``seed`` ("all phases read the state at the start of the phase")."""

    board: _Board
    team: list[int]
    troops: list[int]
    seed: int
    turn: int


def _turn_of(
    indptr: Iterable[int],
    indices: Iterable[int],
    team: Iterable[int],
    troops: Iterable[int],
    *,
    seed: int = 0,
    turn: int = 0,
) -> _Turn:
    """Check a board and a state; ``seed`` and ``turn`` only matter to the draws."""
    board = _Board.of(indptr, indices)
    return _Turn(
        board,
        _teams_of(board, team),
        _troops_of(board, troops),
        _validate.seed(seed),
        _validate.u64("turn", turn),
    )


# --- Shared definitions of the built-in policies -----------------------------------------


def barabasi_albert_ends(n: int, m: int, seed: int) -> list[int]:
    """The rule of the board ``ba:n:m``: territories ``0..m`` start as the star of ``0``; then
    each territory ``v = m + 1 .. n - 1`` picks ``m`` distinct targets, each ``ends[i]`` with
    ``i`` uniform below ``len(ends)`` drawn from stream ``(seed, "conquest.board.ba")`` (a
    degree-weighted pick, since every border lists both its ends; a target picked already is
    drawn again), and then borders them. The ends of every border, two a border, in order."""
    ends: list[int] = []
    for leaf in range(1, m + 1):
        ends += [0, leaf]
    cursor = Stream(seed, "conquest.board.ba").cursor()
    for v in range(m + 1, n):
        targets: list[int] = []
        while len(targets) < m:
            target = ends[cursor.uniform_below(len(ends))]
            if target not in targets:
                targets.append(target)
        for target in targets:
            ends += [target, v]
    return ends


def _enemy_neighbours(board: _Board, team: list[int], x: int) -> list[tuple[int, int]]:
    """The ``(edge, neighbour)`` pairs of ``x`` with another team, in CSR order."""
    return [(e, board.indices[e]) for e in board.edges(x) if team[board.indices[e]] != team[x]]


def _frontier_distance(board: _Board, team: list[int]) -> list[int | None]:
    """The rule: "0 for a frontier territory, otherwise the length of the shortest path to a
    frontier territory of its own team moving only through territories of its own team
    (multi-source BFS); unreachable: no distance"."""
    dist: list[int | None] = [None] * board.n
    queue = []
    for x in range(board.n):
        if _enemy_neighbours(board, team, x):
            dist[x] = 0
            queue.append(x)
    head = 0
    while head < len(queue):
        x = queue[head]
        head += 1
        d = dist[x]
        assert d is not None  # every queued territory has its distance
        for e in board.edges(x):
            y = board.indices[e]
            if team[y] == team[x] and dist[y] is None:
                dist[y] = d + 1
                queue.append(y)
    return dist


def frontier_distance(
    indptr: Iterable[int], indices: Iterable[int], team: Iterable[int]
) -> list[int | None]:
    """Frontier distance of every territory (``None`` where no frontier can be reached)."""
    board = _Board.of(indptr, indices)
    return _frontier_distance(board, _teams_of(board, team))


def _distances_from(board: _Board, source: int) -> list[int | None]:
    """Borders crossed on a shortest path from ``source`` to every territory (``None`` where
    no path is)."""
    distance: list[int | None] = [None] * board.n
    distance[source] = 0
    level = [source]
    d = 0
    while level:
        d += 1
        reached = []
        for x in level:
            for e in board.edges(x):
                y = board.indices[e]
                if distance[y] is None:
                    distance[y] = d
                    reached.append(y)
        level = reached
    return distance


def regions_of(indptr: Iterable[int], indices: Iterable[int], first: int, teams: int) -> list[int]:
    """The regions of ``assign_regions`` (``docs/conquest.md``) dealt from ``first``: "the
    territory farthest from ``first`` (the lowest id among the farthest) is the far end; the
    territories ordered by their distance from the far end, ties by id, those it does not
    reach last, by id; the territory at place ``p`` of ``n`` goes to team ``p * teams // n``"."""
    board = _Board.of(indptr, indices)
    first = _validate.integer("first", first, 0, board.n - 1)
    teams = _validate.integer("teams", teams, 1, MAX_TEAMS)
    from_first = _distances_from(board, first)
    farthest = max(d for d in from_first if d is not None)
    far_end = min(x for x in range(board.n) if from_first[x] == farthest)
    from_end = _distances_from(board, far_end)
    unreached = board.n  # beyond every distance
    order = sorted(
        range(board.n), key=lambda x: (from_end[x] if from_end[x] is not None else unreached, x)
    )
    team = [0] * board.n
    for place, x in enumerate(order):
        team[x] = place * teams // board.n
    return team


def _defend_in_proportion(
    p: list[int], troops: list[int], r: int, defended: list[tuple[int, int]]
) -> None:
    """The rule: "with T the sum of troops[y] over the borders defended, border y gets
    r * troops[y] // T (if T == 0, nothing)"; defending is a negative placement."""
    total = sum(troops[y] for _, y in defended)
    if total == 0:
        return
    for e, y in defended:
        p[e] = -(r * troops[y] // total)


def _move_to_front(state: _Turn, dist: list[int | None], x: int, p: list[int]) -> None:
    """The rule: "a territory x with a frontier distance d > 0 and troops >= 2 transfers
    min(troops[x] - 1, max(2**40 - troops[y], 0)) to its first neighbour y (CSR order) with
    distance d - 1. Without a distance it does nothing"."""
    d = dist[x]
    if d is None or d == 0 or state.troops[x] < 2:
        return
    for e in state.board.edges(x):
        y = state.board.indices[e]
        if dist[y] == d - 1:
            p[e] = min(state.troops[x] - 1, max(TROOP_LIMIT - state.troops[y], 0))
            return


# --- The built-in policies, one territory at a time ---------------------------------------


def _random_row(state: _Turn, x: int, p: list[int]) -> None:
    """``random``: stream ``(seed, "conquest.random", t, x)``, one cursor for the territory;
    for each enemy neighbour in CSR order ``choice = uniform_below(3)``; 0: nothing;
    1: attack with ``a = uniform_below(remaining + 1)``; 2: defend with
    ``a = uniform_below(remaining + 1)``; then ``remaining -= a``. Friendly borders get 0 and
    a territory without enemy neighbours draws nothing."""
    enemies = _enemy_neighbours(state.board, state.team, x)
    if not enemies:
        return
    cursor = Stream(state.seed, "conquest.random", state.turn, x).cursor()
    remaining = state.troops[x]
    for e, _ in enemies:
        choice = cursor.uniform_below(3)
        if choice == 1:
            a = cursor.uniform_below(remaining + 1)
            p[e] = a
            remaining -= a
        elif choice == 2:
            a = cursor.uniform_below(remaining + 1)
            p[e] = -a
            remaining -= a


def _pressure(state: _Turn, memo: dict[tuple[int, int], int], team: int, y: int) -> int:
    """The rule: "the sum of troops[z] over the territories z of x's team that border y (x
    included)". ``memo`` keeps each (team, y) sum for the turn, so a territory with many
    neighbours (the centre of a star) is summed once, not once per neighbour."""
    if (team, y) not in memo:
        board = state.board
        around = (board.indices[e] for e in board.edges(y))
        memo[team, y] = sum(state.troops[z] for z in around if state.team[z] == team)
    return memo[team, y]


# Each policy's strike: (num, den) of its force, the attackers it sends per defender that
# the target can spare for the border, and whether the cheapest attacks come first (else
# those on the weakest targets).
_STRIKES = {
    "aggressive": ((7, 4), False),
    "balanced": ((2, 1), False),
    "opportunist": ((2, 1), True),
}


def _strike_row(
    name: str,
    state: _Turn,
    *,
    dist: list[int | None],
    memo: dict[tuple[int, int], int],
    x: int,
    p: list[int],
) -> None:
    """``aggressive``, ``balanced`` and ``opportunist``: "the attack on y is
    ceil(share * num / den) + 1 with share = ceil(troops[y] * t / P(y)). x takes its enemy
    neighbours in order (key: troops[y], or the attack for opportunist; CSR order on ties)
    and attacks each only if the troops left afford the whole attack. If it affords none and
    is full (t >= FULL), it attacks the first of them with all t (the siege). If it attacks every
    enemy border, half the troops left join the attacks (h // k each, the rest to the
    first); otherwise it defends the other enemy borders with every troop left in proportion
    to threat. Interior territories move to the front"."""
    enemies = _enemy_neighbours(state.board, state.team, x)
    if not enemies:
        _move_to_front(state, dist, x, p)
        return
    (num, den), cheapest_first = _STRIKES[name]
    troops, t = state.troops, state.troops[x]
    targets = []
    for e, y in enemies:
        pressure = _pressure(state, memo, state.team[x], y)
        share = -(-troops[y] * t // max(pressure, 1))  # ceiling division
        attack = -(-share * num // den) + 1
        targets.append((attack if cheapest_first else troops[y], e, attack))
    targets.sort()
    left = t
    made = []
    for _, e, attack in targets:
        if attack <= left:
            p[e] = attack
            left -= attack
            made.append(e)
    if not made and t >= FULL:
        # The siege: a full stack that affords no strike attacks the first target with all.
        p[targets[0][1]] = t
    elif made and len(made) == len(targets):
        share = left // 2 // len(made)
        for e in made:
            p[e] += share
        p[made[0]] += left // 2 - share * len(made)
    else:
        open_borders = [(e, y) for e, y in enemies if p[e] == 0]
        _defend_in_proportion(p, troops, left, open_borders)


def _policy_placement(name: str, state: _Turn, teams: set[int]) -> list[int]:
    """Phase 1 for the territories of ``teams`` under the built-in policy ``name``; the
    rows of other teams stay 0."""
    p = [0] * len(state.board.indices)
    dist = _frontier_distance(state.board, state.team)
    memo: dict[tuple[int, int], int] = {}
    for x in range(state.board.n):
        if state.team[x] not in teams:
            continue
        if name == "random":
            _random_row(state, x, p)
        else:
            _strike_row(name, state, dist=dist, memo=memo, x=x, p=p)
    return p


def policy_placement(  # noqa: PLR0917 (the published signature)
    name: str,
    indptr: Iterable[int],
    indices: Iterable[int],
    team: Iterable[int],
    troops: Iterable[int],
    seed: int,
    turn: int,
    teams: Iterable[int],
) -> list[int]:
    """The placement (length 2m) the built-in policy ``name`` makes for the territories whose
    team is in ``teams`` (0 on every other row)."""
    if not isinstance(name, str) or name not in _RULES:
        raise InvalidParameter(
            f"unknown policy {name!r}; the rules of one turn are {_RULES} (a search plays in "
            "an OracleGame)"
        )
    state = _turn_of(indptr, indices, team, troops, seed=seed, turn=turn)
    return _policy_placement(name, state, _team_set(teams))


# --- Phase 1 check: a placement that breaks the rules ----------------------------------------


def _check_placement(state: _Turn, placement: Iterable[int], teams: set[int]) -> list[int]:
    """The placement as a list of ints, or :class:`InvalidMove` naming the territory that
    breaks "sum over e of |p[e]| <= troops[x]" or places troops on a row of another team."""
    board, team, troops = state.board, state.team, state.troops
    if isinstance(placement, (str, bytes)):
        raise InvalidParameter(f"placement must be a sequence of integers, got {placement!r}")
    try:
        entries = list(placement)
    except TypeError:
        raise InvalidParameter(
            f"placement must be a sequence of integers, got {placement!r}"
        ) from None
    if len(entries) != len(board.indices):
        raise InvalidParameter(
            f"placement has {len(entries)} entries but the board has {len(board.indices)} "
            "directed edges"
        )
    p = [_validate.integer(f"placement[{e}]", v) for e, v in enumerate(entries)]
    for x in range(board.n):
        if team[x] not in teams:
            for e in board.edges(x):
                if p[e] != 0:
                    raise InvalidMove(
                        f"territory {x} belongs to team {team[x]}, not a team of this "
                        f"placement, but places {p[e]} on its border with {board.indices[e]}"
                    )
            continue
        placed = sum(abs(p[e]) for e in board.edges(x))
        if placed > troops[x]:
            raise InvalidMove(f"territory {x} places {placed} troops but holds {troops[x]}")
    return p


def validate_placement(  # noqa: PLR0917 (the published signature)
    indptr: Iterable[int],
    indices: Iterable[int],
    team: Iterable[int],
    troops: Iterable[int],
    placement: Iterable[int],
    teams: Iterable[int],
) -> None:
    """Raise if ``placement`` breaks the placement rules for the territories of ``teams``
    (:class:`InvalidMove` naming the territory; :class:`InvalidParameter` for a wrong length)."""
    state = _turn_of(indptr, indices, team, troops)
    _check_placement(state, placement, _team_set(teams))


# --- Phase 2: battles --------------------------------------------------------------------


def battle(  # noqa: PLR0917 (the published signature)
    seed: int, turn: int, border: int, sx: int, coins_x: int, sy: int, coins_y: int
) -> tuple[int, int]:
    """Survivors ``(sx, sy)`` of one border battle on stream ``(seed, "conquest.battle", t,
    b)``, one cursor for the whole battle; ``coins_x`` is 1 for an attacking side, 2 otherwise.

    "X's draw first, then Y's, every round. If a side starts with 0 soldiers there are no
    rounds and no draws."
    """
    cursor = Stream(
        _validate.seed(seed),
        "conquest.battle",
        _validate.u64("turn", turn),
        _validate.u64("border", border),
    ).cursor()
    sx = _validate.integer("sx", sx, 0, TROOP_LIMIT)
    sy = _validate.integer("sy", sy, 0, TROOP_LIMIT)
    coins_x = _validate.integer("coins_x", coins_x, 1, 2)
    coins_y = _validate.integer("coins_y", coins_y, 1, 2)
    while sx > 0 and sy > 0:
        hx = cursor.binomial_half(sx * coins_x)  # X's heads: each kills one Y soldier
        hy = cursor.binomial_half(sy * coins_y)  # Y's heads
        sx, sy = max(sx - hy, 0), max(sy - hx, 0)
    return sx, sy


def _battles(state: _Turn, p: list[int]) -> list[int]:
    """Phase 2: ``survivors[e]`` of the ``|p[e]|`` soldiers placed on the directed edge ``e``.

    "On every enemy border {x, y} (x < y, border id b) where at least one side attacks there
    is a battle. A side that attacks flips 1 coin per soldier per round; a side that defends
    (or placed nothing there) flips 2. Where there is no battle every soldier survives."
    Friendly borders have no battle either: their soldiers all survive."""
    board, team = state.board, state.team
    survivors = [abs(v) for v in p]
    for x in range(board.n):
        for e in board.edges(x):
            y = board.indices[e]
            back = board.reverse[e]
            if x > y or team[x] == team[y] or (p[e] <= 0 and p[back] <= 0):
                continue
            coins_x = 1 if p[e] > 0 else 2
            coins_y = 1 if p[back] > 0 else 2
            survivors[e], survivors[back] = battle(
                state.seed, state.turn, e, abs(p[e]), coins_x, abs(p[back]), coins_y
            )
    return survivors


# --- Phase 3: occupation -----------------------------------------------------------------


def _occupation(state: _Turn, p: list[int], survivors: list[int]) -> tuple[list[int], list[int]]:
    """Phase 3: count the troops present at each territory per team; the largest count owns it.

    Present at ``x``: its garrison for ``team[x]``; the soldiers ``x`` placed with ``p <= 0``
    (kept home on a friendly border, surviving defenders, or none) for ``team[x]``; and the
    survivors of every neighbour ``y`` with ``p[y->x] > 0`` (a transfer or advancing attackers)
    for ``team[y]``. "If best == 0 x keeps its owner with 0 troops. Otherwise if team[x] is
    among the tied teams it keeps x; otherwise with the tied teams sorted by id, the new owner
    is tied[u] with u = cursor.uniform_below(len(tied)) from stream (seed, "conquest.tie", t,
    x) (no draw when only one team is tied). The owner keeps exactly its own count
    (min(best, troop_limit(n)))."
    """
    board, team, troops = state.board, state.team, state.troops
    present: list[dict[int, int]] = []
    for x in range(board.n):
        garrison = troops[x] - sum(abs(p[e]) for e in board.edges(x))
        present.append({team[x]: garrison})
    for x in range(board.n):
        for e in board.edges(x):
            # Survivors of a side that placed p > 0 go to the other territory, others go home.
            where = board.indices[e] if p[e] > 0 else x
            present[where][team[x]] = present[where].get(team[x], 0) + survivors[e]

    new_team = list(team)
    new_troops = [0] * board.n
    for x in range(board.n):
        best = max(present[x].values())
        if best == 0:
            continue
        tied = sorted(k for k, count in present[x].items() if count == best)
        if team[x] not in tied:
            if len(tied) == 1:
                new_team[x] = tied[0]
            else:
                cursor = Stream(state.seed, "conquest.tie", state.turn, x).cursor()
                new_team[x] = tied[cursor.uniform_below(len(tied))]
        new_troops[x] = min(best, troop_limit(board.n))
    return new_team, new_troops


# --- Phase 4: recruitment ------------------------------------------------------------------


def _recruitment(troops: list[int], rate_ppm: int, cap: int) -> list[int]:
    """Phase 4: "troops[x] = min(troops[x] + troops[x] * rate_ppm // 1_000_000, cap)"."""
    return [min(n + n * rate_ppm // PPM, cap) for n in troops]


def _play_turn(state: _Turn, p: list[int], rate_ppm: int, cap: int) -> tuple[list[int], list[int]]:
    """Phases 2-4 for a checked placement; the inputs are not modified."""
    survivors = _battles(state, p)
    new_team, new_troops = _occupation(state, p, survivors)
    return new_team, _recruitment(new_troops, rate_ppm, min(cap, troop_limit(state.board.n)))


def play_turn(  # noqa: PLR0917 (the published signature)
    indptr: Iterable[int],
    indices: Iterable[int],
    team: Iterable[int],
    troops: Iterable[int],
    placement: Iterable[int],
    seed: int,
    turn: int,
    rate_ppm: int,
    cap: int | None,
) -> tuple[list[int], list[int]]:
    """Phases 2-4 of turn ``turn`` for a full placement (every territory's row); returns the
    new ``(team, troops)``. ``cap=None`` means TROOP_LIMIT."""
    state = _turn_of(indptr, indices, team, troops, seed=seed, turn=turn)
    p = _check_placement(state, placement, set(state.team))
    ppm = _validate.integer("rate_ppm", rate_ppm, 0, MAX_RATE * PPM)
    return _play_turn(state, p, ppm, _cap_of(cap))


# --- Phase 5: end ------------------------------------------------------------------------


def _end_status(
    team: list[int], troops: list[int], turn: int, max_turns: int | None
) -> tuple[str, int | None]:
    """The rule: "after the turn, in this order: (a) every territory has the same team: that
    team wins; (b) exactly one team has troops left: that team wins; (c) no troops remain
    anywhere: a draw; (d) turn == max_turns: unfinished"."""
    if all(k == team[0] for k in team):
        return "won", team[0]
    armed = {k for k, n in zip(team, troops, strict=True) if n > 0}
    if len(armed) == 1:
        return "won", armed.pop()
    if not armed:
        return "draw", None
    if turn == max_turns:
        return "unfinished", None
    return "running", None


def end_status(
    team: Iterable[int], troops: Iterable[int], turn: int, max_turns: int | None
) -> tuple[str, int | None]:
    """``("running" | "won" | "draw" | "unfinished", winner)`` after turn ``turn``."""
    teams = _int_list("team", team, 0)
    counts = _int_list("troops", troops, 0, TROOP_LIMIT)
    if not teams:
        raise InvalidParameter("team must name at least one territory")
    if len(counts) != len(teams):
        raise InvalidParameter(f"troops has {len(counts)} entries, team has {len(teams)}")
    limit = None if max_turns is None else _validate.integer("max_turns", max_turns, 0)
    return _end_status(teams, counts, _validate.u64("turn", turn), limit)


# --- A whole game ------------------------------------------------------------------------


def _rate_ppm(rate: object) -> int:
    """The rule: "rate (a float in [0, 10], stored as rate_ppm = round(rate * 1_000_000))".

    Python's ``round`` rounds halves to even (``5e-7`` gives 0)."""
    if isinstance(rate, bool) or not isinstance(rate, numbers.Real):
        raise InvalidParameter(f"rate must be a number, got {rate!r}")
    value = float(rate)
    if not math.isfinite(value) or not 0 <= value <= MAX_RATE:
        raise InvalidParameter(f"rate must be in [0, {MAX_RATE}], got {rate!r}")
    return round(value * PPM)


class OracleGame:
    """A conquest game played by the rules above, one turn per :meth:`step`.

    ``policies[k]`` is the policy of team ``k``: a built-in name or ``"custom"`` (its rows
    then come from the ``custom`` placement passed to :meth:`step`). All arguments are checked
    before any state is set.
    """

    team: list[int]
    troops: list[int]
    turn: int
    status: str
    winner: int | None

    def __init__(  # noqa: PLR0917 (the published signature)
        self,
        indptr: Iterable[int],
        indices: Iterable[int],
        team: Iterable[int],
        troops: Iterable[int],
        policies: Sequence[str],
        seed: int,
        *,
        rate: float = 0.2,
        cap: int | None = None,
        max_turns: int | None = None,
        n_teams: int | None = None,
    ) -> None:
        board = _Board.of(indptr, indices)
        if board.n == 0:
            raise InvalidBoard("a board needs at least one territory")
        if isinstance(policies, str) or not isinstance(policies, Sequence):
            raise InvalidParameter(f"policies must be a sequence of names, got {policies!r}")
        for k, name in enumerate(policies):
            if name != CUSTOM and name not in _RULES and search_budget(name) is None:
                raise InvalidParameter(
                    f"team {k} has unknown policy {name!r}; choose one of {POLICIES} or {CUSTOM!r}"
                )
        teams_count = len(policies) if n_teams is None else n_teams
        teams_count = _validate.integer("n_teams", teams_count, MIN_TEAMS, MAX_TEAMS)
        if len(policies) != teams_count:
            raise InvalidParameter(
                f"policies names {len(policies)} teams but n_teams is {teams_count}"
            )
        start_team = _teams_of(board, team)
        for x, k in enumerate(start_team):
            if k >= teams_count:
                raise InvalidParameter(
                    f"territory {x} has team {k}, out of range for {teams_count} teams"
                )
        start_troops = _troops_of(board, troops)
        checked_seed = _validate.seed(seed)
        rate_ppm = _rate_ppm(rate)
        checked_cap = _cap_of(cap)
        limit = None if max_turns is None else _validate.integer("max_turns", max_turns, 1)

        self._board = board
        self.policies: tuple[str, ...] = tuple(policies)
        self.n_teams = teams_count
        self.seed = checked_seed
        self.rate_ppm = rate_ppm
        self.cap = checked_cap
        self.max_turns = limit
        self.team = start_team
        self.troops = start_troops
        self.turn = 0
        # End conditions are checked "after the turn", so a new game is running.
        self.status = "running"
        self.winner = None

    def _state(self) -> _Turn:
        return _Turn(self._board, self.team, self.troops, self.seed, self.turn)

    def placement(self, custom: Iterable[int] | None = None) -> list[int]:
        """This turn's placement: built-in teams from their policies, rows of ``"custom"``
        teams from ``custom`` (checked; it must be 0 on every other row)."""
        state = self._state()
        board = self._board
        custom_teams = {k for k, name in enumerate(self.policies) if name == CUSTOM}
        if custom is not None:
            p = _check_placement(state, custom, custom_teams)
        elif custom_teams:
            first = min(custom_teams)
            raise InvalidParameter(f"team {first} plays 'custom' and needs a custom placement")
        else:
            p = [0] * len(board.indices)
        # The rule each territory of a built-in team plays this turn; a searching team's rows.
        rule_of: dict[int, str] = {}
        for k, name in enumerate(self.policies):
            if search_budget(name) is not None:
                searched = _search_rows(self, k, name)
                for x in range(board.n):
                    if self.team[x] == k:
                        for e in board.edges(x):
                            p[e] = searched[e]
            elif name != CUSTOM:
                rule_of.update((x, name) for x in range(board.n) if self.team[x] == k)
        for name in _RULES:
            playing = [x for x in range(board.n) if rule_of.get(x) == name]
            if not playing:
                continue
            own = _policy_placement(name, state, {self.team[x] for x in playing})
            for x in playing:
                for e in board.edges(x):
                    p[e] = own[e]
        return p

    def step(self, custom: Iterable[int] | None = None) -> bool:
        """Play one turn unless the game is finished; return whether a turn was played."""
        if self.status != "running":
            return False
        p = self.placement(custom)
        self.team, self.troops = _play_turn(self._state(), p, self.rate_ppm, self.cap)
        self.turn += 1
        self.status, self.winner = _end_status(self.team, self.troops, self.turn, self.max_turns)
        return True

    def future(self, policies: Sequence[str], seed: int) -> OracleGame:
        """This game from its present state with other policies and seed, and no turn limit:
        one of the futures a search plays out."""
        copy = OracleGame.__new__(OracleGame)
        copy.__dict__.update(self.__dict__)
        copy.policies, copy.seed, copy.max_turns = tuple(policies), seed, None
        copy.team, copy.troops = list(self.team), list(self.troops)
        return copy

    def history_counts(self) -> tuple[list[int], list[int]]:
        """Territories per team and troops per team (each of length ``n_teams``)."""
        territories = [0] * self.n_teams
        troops = [0] * self.n_teams
        for k, n in zip(self.team, self.troops, strict=True):
            territories[k] += 1
            troops[k] += n
        return territories, troops


# --- Exact battle odds -------------------------------------------------------------------


def _coins(name: str, mode: object) -> int:
    if not isinstance(mode, str) or mode not in COINS:
        raise InvalidParameter(f"{name} must be 'attack' or 'defend', got {mode!r}")
    return COINS[mode]


def battle_odds_exact(
    a: int, d: int, attacker_mode: str = "attack", defender_mode: str = "defend"
) -> tuple[Fraction, Fraction, Fraction]:
    """P(attacker side wins), P(defender side wins), P(both annihilated) for ``a`` against
    ``d`` soldiers, exactly.

    Dynamic programming over the states ``(i, j)``: from ``i, j > 0``, heads
    ``h ~ Bin(i * ca, 1/2)`` and ``g ~ Bin(j * cd, 1/2)`` lead to
    ``(max(i - g, 0), max(j - h, 0))``; the round where nothing changes (``h = g = 0``) is
    conditioned away. O(a^2 d^2) fraction operations.
    """
    a = _validate.integer("a", a, 0)
    d = _validate.integer("d", d, 0)
    ca = _coins("attacker_mode", attacker_mode)
    cd = _coins("defender_mode", defender_mode)
    zero, one = Fraction(0), Fraction(1)
    # odds[i][j] for every state reachable from (a, d); terminal states first.
    odds: list[list[tuple[Fraction, Fraction, Fraction]]] = [
        [(zero, zero, zero)] * (d + 1) for _ in range(a + 1)
    ]
    odds[0][0] = (zero, zero, one)
    for i in range(1, a + 1):
        odds[i][0] = (one, zero, zero)
    for j in range(1, d + 1):
        odds[0][j] = (zero, one, zero)
    for i in range(1, a + 1):
        for j in range(1, d + 1):
            # ways_x[i2]: outcomes of Y's j*cd coins leaving X with i2 soldiers; likewise for Y.
            ways_x = [0] * (i + 1)
            for g in range(j * cd + 1):
                ways_x[max(i - g, 0)] += math.comb(j * cd, g)
            ways_y = [0] * (j + 1)
            for h in range(i * ca + 1):
                ways_y[max(j - h, 0)] += math.comb(i * ca, h)
            moving = 2 ** (i * ca + j * cd) - 1  # every outcome but h = g = 0
            total = [zero, zero, zero]
            for i2 in range(i + 1):
                for j2 in range(j + 1):
                    if (i2, j2) == (i, j):
                        continue
                    weight = Fraction(ways_x[i2] * ways_y[j2], moving)
                    for k in range(3):
                        total[k] += weight * odds[i2][j2][k]
            odds[i][j] = (total[0], total[1], total[2])
    return odds[a][d]


def simulate_battle_counts(  # noqa: PLR0917 (the published signature)
    a: int,
    d: int,
    n: int,
    seed: int,
    attacker_mode: str = "attack",
    defender_mode: str = "defend",
) -> tuple[int, int, int]:
    """Play ``n`` battles, battle ``i`` as ``battle(seed, 0, i, a, ca, d, cd)``; count
    attacker wins, defender wins and mutual annihilations."""
    a = _validate.integer("a", a, 0, TROOP_LIMIT)
    d = _validate.integer("d", d, 0, TROOP_LIMIT)
    n = _validate.integer("n", n, 0)
    seed = _validate.seed(seed)
    ca = _coins("attacker_mode", attacker_mode)
    cd = _coins("defender_mode", defender_mode)
    wins = [0, 0, 0]
    for i in range(n):
        sx, sy = battle(seed, 0, i, a, ca, d, cd)
        if sx > 0:
            wins[0] += 1
        elif sy > 0:
            wins[1] += 1
        else:
            wins[2] += 1
    return wins[0], wins[1], wins[2]


# --- The search player ------------------------------------------------------------------------

#: The rules among the search's candidates, first in the order ties are broken (the first
#: wins); the full defence and the counter follow.
SEARCH_CANDIDATES = ("aggressive", "balanced", "opportunist")
_SEARCH_OPTIONS = {"rollouts": 256, "depth": 32}  # each option's largest value
_SEARCH_DEFAULT = {"rollouts": 2, "depth": 1}


def search_budget(name: str) -> tuple[int, int] | None:
    """``(rollouts, depth)`` of ``search:rollouts=R:depth=D`` (defaults 2 and 1), ``None``
    for a name that is not a search, :class:`InvalidParameter` for a bad option."""
    head, _, options = name.partition(":")
    if head != "search":
        return None
    budget = dict(_SEARCH_DEFAULT)
    for option in filter(None, options.split(":")):
        key, equals, value = option.partition("=")
        if not equals:
            raise InvalidParameter(f"policy {name!r}: option {option!r} is not KEY=VALUE")
        if key not in _SEARCH_OPTIONS:
            raise InvalidParameter(f"policy {name!r}: unknown option {key!r}")
        most = _SEARCH_OPTIONS[key]
        if not value.isdigit() or not 1 <= int(value) <= most:
            raise InvalidParameter(f"policy {name!r}: {key} must be from 1 to {most}")
        budget[key] = int(value)
    return budget["rollouts"], budget["depth"]


def _around(board: _Board, values: list[int], x: int) -> int:
    """The sum of ``values`` over ``x`` and its neighbours."""
    return values[x] + sum(values[board.indices[e]] for e in board.edges(x))


def _defence(
    game: OracleGame, front: list[int], base: list[int], weight: Callable[[int], int]
) -> list[int]:
    """``base`` with each front territory x defending its enemy borders with all its troops,
    border e getting ``troops[x] * weight(e) // W`` (W the sum of the weights over them; if
    W == 0, x keeps its row of ``base``)."""
    board = game._board
    rows = list(base)
    for x in front:
        enemy = [e for e in board.edges(x) if game.team[board.indices[e]] != game.team[x]]
        total = sum(weight(e) for e in enemy)
        if total == 0:
            continue
        for e in board.edges(x):
            rows[e] = -(game.troops[x] * weight(e) // total) if e in enemy else 0
    return rows


def _search_rows(game: OracleGame, team: int, name: str) -> list[int]:
    """The rows a searching team places this turn (0 on the other rows).

    "The candidates: the rows of each rule (the other teams playing their own policies, those
    that search or are custom balanced), then the defence (every front territory defends its
    enemy borders with all its troops in proportion to their troops), then the counter (each
    front territory that the other teams' policies attack this turn defends its borders with
    all its troops in proportion to the attacks on them; one not attacked plays balanced's
    row). Future r plays depth turns (fewer if the game ends) from the seed next_u64() of
    stream (seed, "conquest.search", turn, team, r): this turn the team places the
    candidate's rows and the other teams the rows their policies place now, after it the team
    plays balanced and the others their policies. A front territory (one with an enemy
    neighbour) takes the row of the candidate whose futures sum the most over it and its
    neighbours (the first on ties); the mix is played unless the candidate whose futures sum
    the most over the whole board (the first on ties) sums more than the mix's futures. A full
    front territory whose row so chosen attacks nothing plays balanced's row." A territory
    counts its troops for the team if the team holds it, against it otherwise."""
    budget = search_budget(name)
    assert budget is not None
    rollouts, depth = budget
    board = game._board
    model = ["balanced" if search_budget(p) or p == CUSTOM else p for p in game.policies]

    def playing(policy: str) -> list[str]:
        return [*model[:team], policy, *model[team + 1 :]]

    own = [x for x in range(board.n) if game.team[x] == team]
    front = [x for x in own if any(game.team[board.indices[e]] != team for e in board.edges(x))]
    placements = [game.future(playing(rule), game.seed).placement() for rule in SEARCH_CANDIDATES]
    ours = {e for x in own for e in board.edges(x)}
    rows = [[p[e] if e in ours else 0 for e in range(len(p))] for p in placements]
    theirs = placements[1]
    others = [0 if e in ours else theirs[e] for e in range(len(theirs))]
    rows.append(_defence(game, front, rows[0], lambda e: game.troops[board.indices[e]]))
    rows.append(_defence(game, front, rows[1], lambda e: max(theirs[board.reverse[e]], 0)))

    def futures(candidate: list[int]) -> list[list[int]]:
        """Each future's worth of every territory for the team."""
        worths = []
        for r in range(rollouts):
            seed = Stream(game.seed, "conquest.search", game.turn, team, r).cursor().next_u64()
            future = game.future([CUSTOM] * game.n_teams, seed)
            if future.step([a + b for a, b in zip(candidate, others, strict=True)]):
                future.policies = tuple(playing("balanced"))
                for _ in range(depth - 1):
                    if not future.step():
                        break
            worths.append(
                [n if k == team else -n for k, n in zip(future.team, future.troops, strict=True)]
            )
        return worths

    worths = [futures(candidate) for candidate in rows]
    local = {x: [sum(_around(board, w, x) for w in ws) for ws in worths] for x in front}
    totals = [sum(sum(w) for w in ws) for ws in worths]

    def best(sums: list[int]) -> int:
        return max(range(len(sums)), key=lambda c: (sums[c], -c))

    mix = list(rows[0])
    for x in front:
        chosen = rows[best(local[x])]
        for e in board.edges(x):
            mix[e] = chosen[e]
    strongest = best(totals)
    mixed = sum(sum(w) for w in futures(mix))
    chosen = list(mix if mixed >= totals[strongest] else rows[strongest])
    for x in front:
        if game.troops[x] >= FULL and all(chosen[e] <= 0 for e in board.edges(x)):
            for e in board.edges(x):
                chosen[e] = rows[1][e]
    return chosen
