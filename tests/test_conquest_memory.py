"""Boards are limited by memory alone: a board a game could not hold is refused before
anything is allocated, saying how much memory it would need; one over the old limit of 2^26
borders plays when memory allows."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem import _core, _validate
from stratagem.conquest import Board, Game
from stratagem.conquest.board import assign_regions
from stratagem.conquest.boards import layouts
from stratagem.conquest.boards.grid_rows import ENGINE_PLANE_BYTES, GridRows
from stratagem.errors import InvalidParameter


def test_a_board_needing_more_than_the_available_memory_is_refused(monkeypatch):
    monkeypatch.setattr(_validate, "available_memory", lambda: 10**6)
    # grid:400x400: 160,000 territories and 319,200 borders.
    with pytest.raises(InvalidParameter, match=r"grid:400x400 would have 160,000 territories"):
        Board.from_spec("grid:400x400")
    # Read by the engine, the grid needs 26 bytes a territory and 32 a border.
    needed = 160_000 * 26 + 319_200 * 32
    monkeypatch.setattr(_validate, "available_memory", lambda: needed - 1)
    with pytest.raises(InvalidParameter, match=r"needs about 0\.0 GB of memory, and 0\.0 GB"):
        Game.from_spec("grid:400x400", 2, 5, ["balanced", "random"])
    monkeypatch.setattr(_validate, "available_memory", lambda: needed)
    assert Game.from_spec("grid:400x400", 2, 5, ["balanced", "random"]).board_shape.n == 160_000


def test_a_large_plane_grid_is_refused_at_the_bytes_it_holds(monkeypatch):
    # grid:6000x6000: 71,988,000 borders, 143,976,000 directed (more than SLOT_EDGES): no rows
    # kept, 22 bytes a territory and 16 a border; a torus of the same size keeps them.
    rows, borders = 6000, 71_988_000
    assert 2 * borders > _core.conquest.SLOT_EDGES
    assert GridRows(rows, rows, False).engine_bytes == ENGINE_PLANE_BYTES == (22, 16)
    assert GridRows(rows, rows, True).engine_bytes == layouts.ENGINE_BYTES
    needed = rows * rows * 22 + borders * 16
    monkeypatch.setattr(_validate, "available_memory", lambda: needed - 1)
    with pytest.raises(InvalidParameter, match=r"needs about 1\.9 GB of memory"):
        Game.from_spec("grid:6000x6000", 2, 5, ["balanced", "random"])
    # At the bytes of a board that keeps its rows (0.9 + 2.3 GB) the refusal would say more.
    with pytest.raises(InvalidParameter, match=r"needs about 3\.2 GB of memory"):
        layouts.check_memory("grid:6000x6000", rows * rows, borders, layouts.ENGINE_BYTES)


def test_the_refusal_names_the_memory_a_board_would_need():
    # 10^10 territories of a torus: 10^10 * 50 + 2 * 10^10 * 48 bytes on any machine of today.
    with pytest.raises(InvalidParameter) as refused:
        layouts.check_memory("grid:100000x100000:torus", 10**10, 2 * 10**10)
    message = str(refused.value)
    assert "1,460.0 GB of memory" in message
    assert "MemAvailable" in message


def test_without_a_memory_figure_nothing_is_refused_for_size(monkeypatch):
    monkeypatch.setattr(_validate, "available_memory", lambda: None)
    layouts.check_memory("complete:60000", 60_000, 60_000 * 59_999 / 2)


def test_the_available_memory_is_read_from_the_kernel():
    available = _validate.available_memory()
    assert available is None or available > 0


def test_over_two_to_the_26_borders_is_no_longer_refused_by_count(monkeypatch):
    # complete:11600 has 67,274,200 borders (2^26 = 67,108,864); 3.2 GB at 50 + 48 bytes.
    monkeypatch.setattr(_validate, "available_memory", lambda: 4 * 10**9)
    layouts.check_memory("complete:11600", 11_600, 11_600 * 11_599 / 2)


@pytest.mark.slow
def test_a_board_over_two_to_the_26_borders_plays_when_memory_allows():
    spec, borders = "complete:11600", 11_600 * 11_599 // 2
    assert borders > 1 << 26
    available = _validate.available_memory()
    if available is None or available < 2 * (11_600 * 50 + borders * 48):
        pytest.skip("needs twice the 3.2 GB the game is estimated to take")
    board = Board.from_spec(spec)
    assert board.n_borders == borders
    game = Game(board, assign_regions(board, 2, 1), np.full(board.n, 3), ["balanced", "random"])
    assert game.run(1).turns == 1
