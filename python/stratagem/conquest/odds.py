"""One border battle (docs/conquest-rules.md): its exact odds and Monte Carlo draws with the
engine's own sampler.

>>> odds = battle_odds(3, 2)
>>> round(odds.attacker + odds.defender + odds.both, 12)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from stratagem import _core, _validate
from stratagem.conquest.game import TROOP_LIMIT
from stratagem.errors import InvalidParameter
from stratagem.progress import Progress, ProgressOption

__all__ = ["BattleOdds", "Mode", "battle_odds", "battle_odds_fractions", "simulate_battle"]

Mode = Literal["attack", "defend"]
_COINS: dict[str, int] = {"attack": 1, "defend": 2}


@dataclass(frozen=True)
class BattleOdds:
    """Probabilities of one border battle's three outcomes."""

    attacker: float
    defender: float
    both: float


def _coins(name: str, mode: object) -> int:
    if mode not in _COINS:
        raise InvalidParameter(
            f"{name} must be 'attack' (1 coin per soldier) or 'defend' (2 coins), got {mode!r}"
        )
    return _COINS[str(mode)]


def _battle(
    a: object,
    d: object,
    attacker_mode: object,
    defender_mode: object,
    high: int = _validate.LARGEST,
) -> tuple[int, int, int, int]:
    """One battle's checked arguments: each side's soldiers (at most ``high``) and coins per
    soldier."""
    return (
        _validate.integer("a", a, 0, high),
        _validate.integer("d", d, 0, high),
        _coins("attacker_mode", attacker_mode),
        _coins("defender_mode", defender_mode),
    )


def battle_odds(
    a: int, d: int, attacker_mode: Mode = "attack", defender_mode: Mode = "defend"
) -> BattleOdds:
    """Exact probabilities that ``a`` soldiers beat ``d`` (attacker wins), lose (defender
    wins) or that both sides die, by dynamic programming over the battle's states.

    >>> odds = battle_odds(1, 1)
    >>> round(odds.attacker * 7, 12), round(odds.defender * 7, 12), round(odds.both * 7, 12)
    (1.0, 3.0, 3.0)
    """
    return BattleOdds(*_core.conquest.battle_odds(*_battle(a, d, attacker_mode, defender_mode)))


def battle_odds_fractions(
    a: int, d: int, attacker_mode: Mode = "attack", defender_mode: Mode = "defend"
) -> tuple[Fraction, Fraction, Fraction] | None:
    """:func:`battle_odds` as exact fractions, or None for a battle whose fractions do not fit
    in 128 bits (more than 126 coins flipped in its first round, or long fractions).

    >>> tuple(str(p) for p in battle_odds_fractions(1, 1))
    ('1/7', '3/7', '3/7')
    """
    exact = _core.conquest.battle_odds_exact(*_battle(a, d, attacker_mode, defender_mode))
    if exact is None:
        return None
    won, lost, both = (Fraction(numerator, denominator) for numerator, denominator in exact)
    return won, lost, both


def simulate_battle(
    a: int,
    d: int,
    n: int,
    seed: int = 0,
    *,
    attacker_mode: Mode = "attack",
    defender_mode: Mode = "defend",
    threads: int | None = None,
    progress: ProgressOption = None,
) -> tuple[int, int, int]:
    """Monte Carlo: counts of (attacker wins, defender wins, both die) over ``n`` battles drawn
    with the engine's own sampler (battle ``i`` from the stream of border ``i`` of turn 0).
    ``progress``: see :mod:`stratagem.progress`."""
    count = _validate.integer("n", n, 0)
    with Progress(count, "conquest battles", enabled=progress) as bar:
        counts = _core.conquest.simulate_battle(
            *_battle(a, d, attacker_mode, defender_mode, TROOP_LIMIT),
            count,
            _validate.seed(seed),
            _validate.threads(threads),
            bar.reach,
        )
        bar.reach(count)
    return counts
