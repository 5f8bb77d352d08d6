"""The bridge to the Rust engine: a map's board and a position's arrays, built once each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

import numpy as np

from stratagem import _core
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.diplomacy.map import Map
    from stratagem.diplomacy.position import Position

Convention = Literal["exact", "waives", "article"]
CONVENTIONS: tuple[Convention, ...] = get_args(Convention)

_boards: dict[str, _core.diplomacy.Board] = {}
_positions: dict[tuple[str, str], _core.diplomacy.Position] = {}


def check_convention(convention: str) -> Convention:
    """``convention`` if it names one, else ``InvalidParameter``."""
    if convention in ("exact", "waives", "article"):
        return convention  # type: ignore[return-value]
    raise InvalidParameter(
        f"unknown convention {convention!r}; the conventions are exact, waives and article"
    )


def board(game_map: Map) -> _core.diplomacy.Board:
    """The engine's board of a map (cached by the map's canonical text)."""
    key = game_map.text()
    found = _boards.get(key)
    if found is None:
        index = {p: i for i, p in enumerate(game_map.provinces)}
        power = {code: i for i, code in enumerate(game_map.powers)}
        centre_home = [
            -1 if game_map.home_of[c] is None else power[str(game_map.home_of[c])]
            for c in game_map.centres
        ]
        army_offsets, army_targets = game_map.army_csr()
        fleet_offsets, fleet_targets = game_map.fleet_csr()
        found = _core.diplomacy.Board(
            len(game_map.powers),
            np.asarray(game_map.kind_codes(), dtype=np.int64),
            np.asarray([index[c] for c in game_map.centres], dtype=np.int64),
            np.asarray(centre_home, dtype=np.int64),
            np.asarray(game_map.army_location_province(), dtype=np.int64),
            np.asarray(game_map.fleet_location_province(), dtype=np.int64),
            (np.asarray(army_offsets, dtype=np.int64), np.asarray(army_targets, dtype=np.int64)),
            (np.asarray(fleet_offsets, dtype=np.int64), np.asarray(fleet_targets, dtype=np.int64)),
        )
        _boards[key] = found
    return found


def position(pos: Position) -> _core.diplomacy.Position:
    """The engine's copy of a position (cached by its map and canonical text)."""
    key = (pos.map.text(), str(pos))  # both made once per object; their hashes are cached
    found = _positions.get(key)
    if found is None:
        if len(_positions) > 256:
            _positions.clear()
        found = _core.diplomacy.Position(
            board(pos.map),
            np.asarray(pos.unit_power, dtype=np.int64),
            np.asarray(pos.unit_fleet, dtype=bool),
            np.asarray(pos.unit_location, dtype=np.int64),
            np.asarray(pos.owner, dtype=np.int64),
        )
        _positions[key] = found
    return found
