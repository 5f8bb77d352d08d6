"""Hypothesis strategies shared by the diplomacy tests."""

from __future__ import annotations

from hypothesis import strategies as st

from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Unit

MAP = Map.standard()


@st.composite
def unit_on(draw: st.DrawFn, province: str, kind: str, power: str) -> Unit:
    """A unit of ``power`` that may stand on ``province`` of the standard map, whose kind is
    ``kind`` (land, sea or coast): an army or a fleet on a coast, a fleet on a bicoastal
    province on one of its named coasts."""
    unit_kind = draw(st.sampled_from({"land": "A", "sea": "F", "coast": "AF"}[kind]))
    if unit_kind == "F" and province in MAP.coasts:
        return Unit(power, "F", f"{province}/{draw(st.sampled_from(MAP.coasts[province]))}")
    return Unit(power, unit_kind, province)
