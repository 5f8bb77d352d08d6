"""Diplomacy: the standard map, positions and winter adjustments (``docs/diplomacy.md``)."""

from stratagem.diplomacy.map import Map

__all__ = ["Map"]
