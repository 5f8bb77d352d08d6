"""Ring skirmish: the tiny game the conformance harness (:mod:`stratagem.testing`) is proven on.

Rules
-----
``n >= 2`` territories sit on a ring; the clockwise neighbour of territory ``i`` is
``(i + 1) % n``. Each territory has a team in ``[0, n_teams)`` and ``troops >= 0``. Turns are
numbered from 0 and one turn is played from the state at its start:

1. **Muster.** Territory ``i`` attacks its clockwise neighbour ``j`` when ``j`` belongs to another
   team and ``i`` has at least 2 troops: its *party* is ``troops[i] - 1`` and the one troop left
   is its *garrison*. A territory that does not attack keeps all its troops as garrison.
2. **Battle.** A party meets only the garrison of its target (the target's own party is away).
   Defenders killed: ``min(B0, garrison[j])`` with ``B0 ~ Binomial(party, 1/2)`` drawn from
   stream ``(seed, "example.battle", turn, i, 0)``; attackers killed: ``min(B1, party)`` with
   ``B1 ~ Binomial(garrison[j], 1/2)`` from stream ``(seed, "example.battle", turn, i, 1)``.
   All battles happen at once.
3. **Occupation.** When a target's garrison is wiped out and its attackers have survivors, they
   take it: it joins the attacker's team and holds exactly the survivors. Other survivors go home
   to their garrison, unless their home was taken this turn: then they are lost.
4. **Recruitment.** Every territory gains one troop.

:class:`RingSkirmish` plays these rules twice: :func:`fast_turn` with numpy and
`stratagem.rng.binomial_half` (Rust, parallel over battles), and :func:`oracle_turn` in
plain Python with :class:`stratagem.rng.oracle.Stream`. Input is validated before any state
changes. :class:`RingSkirmishAdapter` plugs the game into the harness.
"""

from __future__ import annotations

import random
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng import binomial_half
from stratagem.rng.oracle import Stream
from stratagem.testing import BadInput, Snapshot

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

BATTLE = "example.battle"
# Far below int64 overflow even after a lifetime of recruitment and reinforcement.
MAX_TROOPS = 1 << 40
Engine = Literal["fast", "oracle"]
IntArray = NDArray[np.int64]
_SAVED_FIELDS = ("team", "troops", "n_teams", "seed", "turn")


def fast_turn(
    team: IntArray, troops: IntArray, seed: int, turn: int, threads: int | None
) -> tuple[IntArray, IntArray]:
    """One turn with numpy and one parallel Rust call drawing every battle's two binomials."""
    n = team.shape[0]
    target = (np.arange(n) + 1) % n
    attacks = (team[target] != team) & (troops >= 2)
    party = np.where(attacks, troops - 1, 0)
    garrison = troops - party

    attackers = np.flatnonzero(attacks)
    targets = target[attackers]
    battles = attackers.shape[0]
    ids = np.zeros((2 * battles, 3), dtype=np.uint64)
    ids[:, 0] = turn
    ids[:, 1] = np.tile(attackers, 2)
    ids[battles:, 2] = 1
    trials = np.concatenate((party[attackers], garrison[targets]))
    heads = binomial_half(seed, BATTLE, ids, trials, threads=threads).astype(np.int64)

    defenders_killed = np.minimum(heads[:battles], garrison[targets])
    survivors = party[attackers] - np.minimum(heads[battles:], party[attackers])
    # Only its counter-clockwise neighbour attacks a territory, so no target repeats here.
    garrison[targets] -= defenders_killed

    takes = (garrison[targets] == 0) & (survivors > 0)
    taken = np.zeros(n, dtype=bool)
    taken[targets[takes]] = True
    new_team = team.copy()
    new_team[targets[takes]] = team[attackers[takes]]
    new_troops = garrison
    home = ~takes & ~taken[attackers]
    new_troops[attackers[home]] += survivors[home]
    new_troops[targets[takes]] = survivors[takes]
    return new_team, new_troops + 1


def oracle_turn(
    team: list[int], troops: list[int], seed: int, turn: int
) -> tuple[list[int], list[int]]:
    """One turn in plain Python, territory by territory, in the order of the rules."""
    n = len(team)
    party = [0] * n
    garrison = list(troops)
    for i in range(n):
        if team[(i + 1) % n] != team[i] and troops[i] >= 2:
            party[i] = troops[i] - 1
            garrison[i] = 1

    survivors = [0] * n
    garrison_left = list(garrison)
    for i in range(n):
        if party[i] > 0:
            j = (i + 1) % n
            heads_attacking = Stream(seed, BATTLE, turn, i, 0).cursor().binomial_half(party[i])
            heads_defending = Stream(seed, BATTLE, turn, i, 1).cursor().binomial_half(garrison[j])
            garrison_left[j] -= min(heads_attacking, garrison[j])
            survivors[i] = party[i] - min(heads_defending, party[i])

    taken = [False] * n
    for i in range(n):
        if survivors[i] > 0 and garrison_left[(i + 1) % n] == 0:
            taken[(i + 1) % n] = True

    new_team = list(team)
    new_troops = list(garrison_left)
    for i in range(n):
        j = (i + 1) % n
        if taken[j]:
            new_team[j] = team[i]
            new_troops[j] = survivors[i]
        elif not taken[i]:
            new_troops[i] += survivors[i]
    return new_team, [count + 1 for count in new_troops]


def _territory_array(name: str, value: ArrayLike) -> NDArray[np.integer]:
    array = np.asarray(value)
    if array.size == 0:
        array = array.astype(np.int64)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    if array.ndim != 1:
        raise InvalidParameter(
            f"{name} must be a 1-D array with one entry per territory, got shape {array.shape}"
        )
    return array


def _first(mask: NDArray[np.bool_]) -> int | None:
    """The first territory where ``mask`` holds, if any."""
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else None


def _board(team: ArrayLike, troops: ArrayLike, n_teams: int) -> tuple[IntArray, IntArray]:
    """Validated copies of ``team`` and ``troops`` as int64 arrays."""
    team_array = _territory_array("team", team)
    troops_array = _territory_array("troops", troops)
    if team_array.shape != troops_array.shape:
        raise InvalidBoard(
            f"team has {team_array.shape[0]} territories but troops has {troops_array.shape[0]}"
        )
    if team_array.shape[0] < 2:
        raise InvalidBoard(f"a ring needs at least 2 territories, got {team_array.shape[0]}")
    # Range checks run on the caller's dtype, before a cast to int64 could wrap a value.
    territory = _first((team_array < 0) | (team_array >= n_teams))
    if territory is not None:
        raise InvalidBoard(
            f"territory {territory} has team {team_array[territory]}, outside [0, {n_teams})"
        )
    territory = _first((troops_array < 0) | (troops_array > MAX_TROOPS))
    if territory is not None:
        raise InvalidBoard(
            f"territory {territory} has {troops_array[territory]} troops, outside [0, {MAX_TROOPS}]"
        )
    return team_array.astype(np.int64), troops_array.astype(np.int64)


class RingSkirmish:
    """A game of ring skirmish, played by the fast path or the oracle (``engine``)."""

    def __init__(
        self,
        team: ArrayLike,
        troops: ArrayLike,
        *,
        n_teams: int,
        seed: int,
        threads: int | None = None,
        engine: Engine = "fast",
        turn: int = 0,
    ) -> None:
        n_teams = _validate.integer("n_teams", n_teams, 1)
        team_array, troops_array = _board(team, troops, n_teams)
        if engine not in ("fast", "oracle"):
            raise InvalidParameter(f"engine must be 'fast' or 'oracle', got {engine!r}")
        self._seed = _validate.seed(seed)
        self._threads = _validate.threads(threads)
        self._turn = _validate.u64("turn", turn)
        self._n_teams = n_teams
        self._engine: Engine = engine
        self._team = team_array
        self._troops = troops_array

    @property
    def team(self) -> IntArray:
        """Each territory's team (read-only)."""
        return _read_only(self._team)

    @property
    def troops(self) -> IntArray:
        """Each territory's troops (read-only)."""
        return _read_only(self._troops)

    @property
    def turn(self) -> int:
        """Turns played so far; the next turn draws from streams ``(seed, BATTLE, turn, ...)``."""
        return self._turn

    def advance(self, turns: int = 1) -> None:
        """Play ``turns`` turns."""
        turns = _validate.integer("turns", turns, 0)
        for _ in range(turns):
            if self._engine == "fast":
                team, troops = fast_turn(
                    self._team, self._troops, self._seed, self._turn, self._threads
                )
            else:
                team_list, troops_list = oracle_turn(
                    self._team.tolist(), self._troops.tolist(), self._seed, self._turn
                )
                team = np.array(team_list, dtype=np.int64)
                troops = np.array(troops_list, dtype=np.int64)
            self._team, self._troops, self._turn = team, troops, self._turn + 1

    def reinforce(self, amounts: ArrayLike) -> None:
        """Add ``amounts[i]`` troops to territory ``i`` (a move between turns)."""
        added = _territory_array("amounts", amounts)
        if added.shape != self._troops.shape:
            raise InvalidParameter(
                f"amounts must have one entry per territory ({self._troops.shape[0]}), "
                f"got shape {added.shape}"
            )
        territory = _first(added < 0)
        if territory is not None:
            raise InvalidMove(
                f"territory {territory}: cannot reinforce with {added[territory]} troops"
            )
        # Compared on the caller's dtype first, so a huge unsigned amount cannot wrap.
        territory = _first((added > MAX_TROOPS) | (self._troops > MAX_TROOPS - added))
        if territory is not None:
            raise InvalidMove(
                f"territory {territory}: reinforcing {self._troops[territory]} troops with "
                f"{added[territory]} exceeds {MAX_TROOPS}"
            )
        self._troops = self._troops + added.astype(np.int64)

    def save(self, path: Path) -> None:
        """Write the game to exactly ``path`` as ``.npz`` data (threads are not saved)."""
        with open(path, "wb") as file:
            np.savez(
                file,
                team=self._team,
                troops=self._troops,
                n_teams=np.int64(self._n_teams),
                seed=np.uint64(self._seed),
                turn=np.uint64(self._turn),
            )

    @classmethod
    def load(cls, path: Path, *, threads: int | None = None) -> RingSkirmish:
        """The game saved at ``path``, on the fast path with ``threads`` threads."""
        try:
            with np.load(path) as data:
                fields = {key: data[key] for key in data.files}
        except (ValueError, zipfile.BadZipFile) as error:
            raise InvalidBoard(f"{path}: not a saved ring skirmish ({error})") from error
        for field in _SAVED_FIELDS:
            if field not in fields:
                raise InvalidBoard(f"{path}: saved game has no field {field!r}")
        for field in ("n_teams", "seed", "turn"):
            if fields[field].shape != ():
                raise InvalidBoard(
                    f"{path}: field {field!r} must be one number, got shape {fields[field].shape}"
                )
        return cls(
            fields["team"],
            fields["troops"],
            n_teams=fields["n_teams"].item(),
            seed=fields["seed"].item(),
            threads=threads,
            turn=fields["turn"].item(),
        )


def _read_only(array: IntArray) -> IntArray:
    view = array.view()
    view.flags.writeable = False
    return view


@dataclass(frozen=True)
class RingCase:
    """A starting position: one team and one troop count per territory."""

    team: tuple[int, ...]
    troops: tuple[int, ...]
    n_teams: int


class RingSkirmishAdapter:
    """Ring skirmish as a :class:`stratagem.testing.GameAdapter`."""

    name = "ring-skirmish"

    def random_case(self, rng: random.Random) -> RingCase:
        n = rng.randint(2, 12)
        n_teams = rng.randint(1, 4)
        # Mostly small armies (coin flips), sometimes large ones (the BTRS sampler).
        high = rng.choice((40, 40, 5000))
        return RingCase(
            team=tuple(rng.randrange(n_teams) for _ in range(n)),
            troops=tuple(rng.randint(0, high) for _ in range(n)),
            n_teams=n_teams,
        )

    def cases(self) -> SearchStrategy[RingCase]:
        from hypothesis import strategies as st

        @st.composite
        def ring_cases(draw: st.DrawFn) -> RingCase:
            n = draw(st.integers(2, 12))
            n_teams = draw(st.integers(1, 4))
            troops = st.integers(0, 40) | st.integers(0, 5000)
            return RingCase(
                team=tuple(draw(st.lists(st.integers(0, n_teams - 1), min_size=n, max_size=n))),
                troops=tuple(draw(st.lists(troops, min_size=n, max_size=n))),
                n_teams=n_teams,
            )

        return ring_cases()

    def start(self, case: RingCase, seed: int, *, threads: int | None) -> RingSkirmish:
        return RingSkirmish(
            case.team, case.troops, n_teams=case.n_teams, seed=seed, threads=threads
        )

    def start_oracle(self, case: RingCase, seed: int) -> RingSkirmish:
        return RingSkirmish(
            case.team, case.troops, n_teams=case.n_teams, seed=seed, engine="oracle"
        )

    def advance(self, game: RingSkirmish, turns: int) -> RingSkirmish:
        game.advance(turns)
        return game

    def snapshot(self, game: RingSkirmish) -> Snapshot:
        return {"turn": game.turn, "team": game.team, "troops": game.troops}

    def save(self, game: RingSkirmish, path: Path) -> None:
        game.save(path)

    def load(self, path: Path, *, threads: int | None) -> RingSkirmish:
        return RingSkirmish.load(path, threads=threads)

    def bad_inputs(self, case: RingCase) -> list[BadInput[RingSkirmish]]:
        team = np.array(case.team)
        troops = np.array(case.troops)
        last = len(case.team) - 1

        def changed(array: IntArray, value: int) -> IntArray:
            copy = array.copy()
            copy[last] = value
            return copy

        def new_game(team: ArrayLike, troops: ArrayLike, threads: int = 1) -> RingSkirmish:
            return RingSkirmish(team, troops, n_teams=case.n_teams, seed=0, threads=threads)

        return [
            BadInput(
                "2-D team",
                lambda _: new_game(team.reshape(1, -1), troops),
                InvalidParameter,
                "team must be a 1-D array",
            ),
            BadInput(
                "float troops",
                lambda _: new_game(team, troops.astype(float)),
                InvalidParameter,
                "troops must hold integers",
            ),
            BadInput(
                "one troop count short",
                lambda _: new_game(team, troops[:-1]),
                InvalidBoard,
                f"troops has {last}",
            ),
            BadInput(
                "negative troops",
                lambda _: new_game(team, changed(troops, -1)),
                InvalidBoard,
                f"territory {last} has -1 troops",
            ),
            BadInput(
                "team out of range",
                lambda _: new_game(changed(team, case.n_teams), troops),
                InvalidBoard,
                f"territory {last} has team {case.n_teams}",
            ),
            BadInput(
                "zero threads",
                lambda _: new_game(team, troops, threads=0),
                InvalidParameter,
                "threads must be at least 1",
            ),
            BadInput("negative turns", lambda game: game.advance(-1), InvalidParameter, "turns"),
            BadInput(
                "negative reinforcement",
                lambda game: game.reinforce(changed(np.zeros_like(troops), -3)),
                InvalidMove,
                f"territory {last}",
            ),
            BadInput(
                "reinforcement beyond MAX_TROOPS",
                lambda game: game.reinforce(changed(np.ones_like(troops), MAX_TROOPS)),
                InvalidMove,
                f"territory {last}",
            ),
        ]
