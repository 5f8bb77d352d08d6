"""The sequential preliminary search against the plain one, measured on random positions
(``docs/diplomacy.md``, "The sequential preliminary search").

On each position drawn from ``seed, seed + 1, ...`` (:func:`~stratagem.diplomacy.positions.
random_position`) the three searches run with the built-in evaluator: the preliminary search
(every power assumes every other skips its adjustment), the sequential one in the given order
(power ``i`` assumes only the powers after it skip theirs; the last power, "ours", sees every
other decision) and the combined search to its equilibrium. The last power's value under each
result is compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from stratagem import _validate
from stratagem.diplomacy import adjustments
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.positions import random_position
from stratagem.diplomacy.search.finder import power_order, solve


@dataclass(frozen=True)
class Comparison:
    """What the searches gave on ``positions`` random positions.

    ``contested``: the positions where at least two powers have a choice (elsewhere the two
    preliminary searches cannot differ). ``differs``: the positions where the sequential
    profile is not the preliminary one, and ``differs_by_power`` the same per power. For the
    last power of ``order``: how often the sequential result gives it more, the same or less
    than the preliminary one (``better``, ``same``, ``worse``), the gains summed and the largest
    gain and loss; how often the combined search's equilibrium gives it more than the
    preliminary result (``combined_over_preliminary``) and than the sequential one
    (``combined_over_sequential``), and how often the combined search reached an equilibrium
    within its budget (``combined_finished``)."""

    positions: int
    seed: int
    units: int
    order: tuple[str, ...]
    convention: Convention
    contested: int = 0
    differs: int = 0
    differs_by_power: dict[str, int] = field(default_factory=dict)
    better: int = 0
    same: int = 0
    worse: int = 0
    gain_sum: int = 0
    largest_gain: int = 0
    largest_loss: int = 0
    combined_over_preliminary: int = 0
    combined_over_sequential: int = 0
    combined_finished: int = 0


def compare(
    positions: int = 1000,
    *,
    seed: int = 0,
    units: int = 14,
    order: Sequence[str] | None = None,
    convention: Convention = "exact",
    max_evaluations: int = 20_000,
) -> Comparison:
    """Runs the three searches on ``positions`` random positions (``units`` at most each)."""
    _validate.integer("positions", positions, 1)
    _validate.seed(seed)
    check_convention(convention)
    the_map = Map.standard()
    first = random_position(seed, units, the_map)
    ranks = power_order(first, order)
    chosen = tuple(the_map.powers) if ranks is None else tuple(the_map.powers[r] for r in ranks)
    ours = the_map.powers.index(chosen[-1])
    tally = dict.fromkeys(
        (
            "contested",
            "differs",
            "better",
            "same",
            "worse",
            "gain_sum",
            "largest_gain",
            "largest_loss",
            "combined_over_preliminary",
            "combined_over_sequential",
            "combined_finished",
        ),
        0,
    )
    by_power = dict.fromkeys(the_map.powers, 0)
    for number in range(positions):
        position = first if number == 0 else random_position(seed + number, units, the_map)
        numbers = adjustments.counts(position, convention)
        tally["contested"] += sum(n > 1 for n in numbers.values()) >= 2
        plain, ordered, combined = (
            solve(
                position,
                method,
                convention=convention,
                max_evaluations=max_evaluations,
                threads=1,
                order=list(chosen) if method == "sequential" else None,
            )
            for method in ("preliminary", "sequential", "combined")
        )
        if plain.profile != ordered.profile:
            tally["differs"] += 1
            for power, a, b in zip(the_map.powers, plain.profile, ordered.profile, strict=True):
                by_power[power] += a != b
        gain = int(ordered.values[ours]) - int(plain.values[ours])
        tally["better" if gain > 0 else "worse" if gain < 0 else "same"] += 1
        tally["gain_sum"] += gain
        tally["largest_gain"] = max(tally["largest_gain"], gain)
        tally["largest_loss"] = max(tally["largest_loss"], -gain)
        tally["combined_over_preliminary"] += int(combined.values[ours]) > int(plain.values[ours])
        tally["combined_over_sequential"] += int(combined.values[ours]) > int(ordered.values[ours])
        tally["combined_finished"] += combined.finished and combined.cycle is None
    return Comparison(
        positions=positions,
        seed=seed,
        units=units,
        order=chosen,
        convention=convention,
        differs_by_power=by_power,
        **tally,
    )
