"""The reports of ``stratagem diplomacy openings | compare | retreat``: what each command
prints with ``--json``, and its text form."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from stratagem.diplomacy import retreats
from stratagem.diplomacy.article import openings as opening_counts
from stratagem.diplomacy.engine import Convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.search.compare import compare
from stratagem.errors import InvalidParameter


def openings(position: Position, definition: str) -> dict[str, Any]:
    """Every unit's number of orders and the order sets under ``definition`` (or ``all``)."""
    orders = opening_counts.unit_orders(position)
    chosen = (
        list(opening_counts.DEFINITIONS)
        if definition == "all"
        else [opening_counts.check_definition(definition)]
    )
    return {
        "position": str(position),
        "units": [
            {"unit": str(u), "power": u.power, "orders": len(orders[u])} for u in position.units
        ],
        "counts": [
            {
                "definition": d,
                "meaning": opening_counts.DEFINITIONS[d],
                "count": opening_counts.count(position, d),
            }
            for d in chosen
        ],
        "loeb": opening_counts.LOEB,
    }


def print_openings(report: dict[str, Any]) -> None:
    units = ", ".join(f"{row['unit']} {row['orders']}" for row in report["units"])
    print(f"orders per unit: {units}")
    for row in report["counts"]:
        print(f"{row['definition']:>12}: {row['count']:,} ({row['count']:.3g})  {row['meaning']}")
    print(f"{'Loeb':>12}: {report['loeb']:,} ({report['loeb']:.3g})  the article's figure")


def comparison(
    positions: int,
    *,
    seed: int,
    units: int,
    order: Sequence[str] | None,
    convention: Convention,
) -> dict[str, Any]:
    """:func:`~stratagem.diplomacy.search.compare.compare` as a dict."""
    return asdict(compare(positions, seed=seed, units=units, order=order, convention=convention))


def print_compare(report: dict[str, Any]) -> None:
    n, last = report["positions"], report["order"][-1]
    print(
        f"{n:,} random positions (seed {report['seed']}, up to {report['units']} units, "
        f"{report['convention']}), order {' '.join(report['order'])}:"
    )
    print(f"  at least two powers with a choice: {report['contested']:,}")
    moved = ", ".join(f"{p} {c}" for p, c in report["differs_by_power"].items() if c) or "none"
    print(f"  sequential profile differs from the preliminary: {report['differs']:,} ({moved})")
    print(
        f"  {last}'s value, sequential against preliminary: better {report['better']:,}, "
        f"same {report['same']:,}, worse {report['worse']:,}; gains sum {report['gain_sum']:+,}, "
        f"largest gain {report['largest_gain']:,}, largest loss {report['largest_loss']:,}"
    )
    print(
        f"  combined equilibrium better for {last} than the preliminary: "
        f"{report['combined_over_preliminary']:,}, than the sequential: "
        f"{report['combined_over_sequential']:,} (equilibria reached: "
        f"{report['combined_finished']:,})"
    )


def retreat(
    text: str, the_map: Map, power: str, *, convention: Convention, capture: bool
) -> dict[str, Any]:
    """The retreat options of a Fall position and ``power``'s two plans."""
    rp = retreats.RetreatPosition.parse(text, the_map)
    if power not in the_map.powers:
        raise InvalidParameter(f"--power: {power!r} is not one of {', '.join(the_map.powers)}")
    plans = {
        name: asdict(search(rp, power, convention=convention, capture=capture))
        for name, search in (
            ("retreat_then_adjust", retreats.retreat_then_adjust),
            ("disband_and_build", retreats.disband_and_build),
        )
    }
    return {
        "position": str(rp),
        "power": power,
        "capture": capture,
        "options": {str(d): list(o) for d, o in retreats.all_options(rp).items()},
        "seed_condition": retreats.seed_condition(rp, power, capture=capture),
        "plans": plans,
    }


def print_retreat(report: dict[str, Any]) -> None:
    for unit, options in report["options"].items():
        print(f"{unit}: retreat to {' '.join(options) or 'nowhere'} or disband")
    rule = "captures" if report["capture"] else "does not capture"
    print(f"{report['power']} (a retreat onto a centre {rule} it):")
    for name, plan in report["plans"].items():
        label = name.replace("_", " ")
        print(f"  {label:>19}: {', '.join(plan['orders']) or 'nothing'} (value {plan['value']:g})")
