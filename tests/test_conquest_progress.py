"""Bars for the long builds of conquest boards (a random geometric board, a board file, a
grid's game, a rank's share and its regions): each reports its work in parts up to its total,
draws nothing with ``progress=False``, and builds exactly what it builds without a bar; the
borders of a random geometric board, found a band of cell rows at a time, are those of every
pair of points by the rule."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from stratagem import _core, graph, progress
from stratagem._files import write_arrays
from stratagem.cli import main
from stratagem.conquest import Board, Game, assign_regions
from stratagem.conquest.boards import board_files, layouts, rgg_rows
from stratagem.conquest.distributed import DistributedGame
from stratagem.conquest.distributed.graph_start import graph_start
from stratagem.errors import InvalidBoard
from stratagem.mpi import SerialCommunicator

Reports = list[tuple[int, int]]


def told() -> tuple[Reports, progress.ProgressOption]:
    seen: Reports = []
    return seen, lambda done, total: seen.append((done, total))


def runs_of(seen: Reports) -> list[Reports]:
    """The reports of each bar in turn (a bar's counts never go down)."""
    runs: list[Reports] = []
    for done, total in seen:
        if not runs or done < runs[-1][-1][0] or total != runs[-1][-1][1]:
            runs.append([])
        runs[-1].append((done, total))
    return runs


def assert_counted_up(seen: Reports, parts: int = 2) -> None:
    """One bar's reports: at least ``parts`` of them, never down, ending at the total."""
    assert len(seen) >= parts
    totals = {total for _, total in seen}
    assert len(totals) == 1
    dones = [done for done, _ in seen]
    assert dones == sorted(dones)
    assert dones[-1] == totals.pop()


def same_arrays(a: Board, b: Board) -> bool:
    return np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)


def same_board(a: Board, b: Board) -> bool:
    assert a.positions is not None
    assert b.positions is not None
    return (
        a == b
        and np.array_equal(a.indptr, b.indptr)
        and np.array_equal(a.indices, b.indices)
        and np.array_equal(a.positions, b.positions)
    )


@pytest.fixture
def small_parts(monkeypatch):
    """Bands, draws and file slices of a few points, so that small boards come in parts."""
    monkeypatch.setattr(rgg_rows, "BAND_POINTS", 64)
    monkeypatch.setattr(layouts, "_DRAW_PART", 100)
    monkeypatch.setattr(board_files, "_SLICE", 500)


# -- the borders of a random geometric board ------------------------------------------------


@pytest.mark.parametrize(("n", "radius", "seed"), [(300, 0.1, 1), (500, 0.04, 2), (40, 0.6, 3)])
def test_bands_find_the_borders_of_every_pair(small_parts, n, radius, seed):
    rgg = layouts.Geometric.of(n, radius, seed=seed)
    layout = layouts.random_geometric(n, radius, seed=seed, progress=False)
    points = np.asarray(layout.positions)
    row, _ = rgg.cells_of(points)
    pairs = [
        (i, j)
        for i, j in combinations(range(n), 2)
        if (points[i, 0] - points[j, 0]) ** 2 + (points[i, 1] - points[j, 1]) ** 2
        <= radius * radius
        and abs(int(row[i]) - int(row[j])) <= 1
    ]
    u, v = (np.array(ends, dtype=np.int64) for ends in zip(*pairs, strict=True))
    indptr, indices = graph.csr(u, v, n)
    assert np.array_equal(layout.indptr, indptr)
    assert np.array_equal(layout.indices, indices)


def test_bands_of_any_size_build_the_same_board(monkeypatch):
    whole = Board.random_geometric(3000, seed=5, progress=False)
    monkeypatch.setattr(rgg_rows, "BAND_POINTS", 50)
    assert same_board(Board.random_geometric(3000, seed=5, progress=False), whole)


@pytest.mark.parametrize("cells", [40, 70_000])
def test_the_row_order_is_a_lexsort(cells):
    draw = np.random.default_rng(cells)
    row = draw.integers(0, cells, 5000)
    column = draw.integers(0, cells, 5000)
    assert np.array_equal(rgg_rows.row_order(row, column, cells), np.lexsort((column, row)))


# -- the bars -------------------------------------------------------------------------------


def test_a_random_geometric_board_counts_its_points(small_parts):
    seen, bar = told()
    board = Board.random_geometric(2000, seed=3, progress=bar)
    assert_counted_up(seen, parts=20)
    assert seen[-1] == (4000, 4000)  # the points drawn, then those whose borders are found
    assert same_board(board, Board.random_geometric(2000, seed=3, progress=False))
    seen.clear()
    assert same_board(Board.from_spec("rgg:2000:seed=3", progress=bar), board)
    assert_counted_up(seen, parts=20)


def test_a_board_file_counts_its_entries(small_parts, tmp_path):
    board = Board.random_geometric(800, seed=1)
    path = tmp_path / "board.npz"
    board.save(path)
    seen, bar = told()
    loaded = Board.load(path, progress=bar)
    assert_counted_up(seen, parts=5)
    assert seen[-1][1] == board.n + 1 + 4 * board.n_borders  # indptr, indices, the check
    assert same_board(loaded, board)
    assert same_board(Board.load(path, progress=False), board)
    seen.clear()
    assert Board.from_spec(str(path), progress=bar).kind == str(path)
    assert_counted_up(seen, parts=5)


def test_a_bad_row_read_by_slices_names_the_file(small_parts, tmp_path):
    arrays = board_files.to_arrays(Board.ring(600))
    indices = arrays["indices"].copy()
    indices[[200, 201]] = indices[[201, 200]]  # row 100 no longer ascending
    path = tmp_path / "bad.npz"
    write_arrays(path, {**arrays, "indices": indices}, stored=True)
    seen, bar = told()
    with pytest.raises(InvalidBoard, match=f"{path}: not a valid board file: .*territory 100"):
        Board.load(path, progress=bar)
    assert seen  # read by slices before the check refused it


def test_a_grid_game_counts_its_steps():
    seen, bar = told()
    game = Game.from_spec("grid:30x20", 3, 4, ["balanced"] * 3, seed=2, progress=bar)
    assert seen == [(1, 2), (2, 2)]
    quiet = Game.from_spec("grid:30x20", 3, 4, ["balanced"] * 3, seed=2, progress=False)
    assert np.array_equal(game.team, quiet.team)
    assert game.run(5).turns == quiet.run(5).turns
    assert np.array_equal(game.troops, quiet.troops)


def test_a_game_on_a_random_geometric_board_passes_its_bar_on(small_parts):
    seen, bar = told()
    game = Game.from_spec("rgg:900:seed=4", 2, 3, ["balanced"] * 2, progress=bar)
    board_bar, regions_bar = runs_of(seen)
    assert_counted_up(board_bar, parts=10)
    assert_counted_up(regions_bar, parts=1)
    assert regions_bar[-1] == (900, 900)
    quiet = Game.from_spec("rgg:900:seed=4", 2, 3, ["balanced"] * 2, progress=False)
    assert same_board(game.board, quiet.board)
    assert np.array_equal(game.team, quiet.team)


def test_an_erdos_renyi_board_counts_the_territories_whose_pairs_are_drawn(monkeypatch):
    quiet = Board.from_spec("er:3000:degree=3:seed=4", progress=False)
    monkeypatch.setattr(layouts, "_GNP_SLICE", 64)
    seen, bar = told()
    board = Board.from_spec("er:3000:degree=3:seed=4", progress=bar)
    assert_counted_up(seen, parts=10)
    assert seen[-1] == (6000, 6000)
    assert same_arrays(board, quiet)


def test_a_preferential_attachment_board_counts_its_territories():
    seen, bar = told()
    board = Board.barabasi_albert(3000, 2, seed=5, progress=bar)
    assert_counted_up(seen, parts=1)
    assert seen[-1] == (3000, 3000)
    assert board == Board.from_spec("ba:3000:2:seed=5")


@pytest.mark.parametrize("spec", ["grid:30x40", "er:400:degree=1.2:seed=3"])
def test_assign_regions_counts_the_territories_it_gives_a_team(spec):
    board = Board.from_spec(spec)
    seen, bar = told()
    team = assign_regions(board, 3, 5, progress=bar)
    assert_counted_up(seen, parts=1)
    assert seen[-1] == (board.n, board.n)
    assert np.array_equal(team, assign_regions(board, 3, 5, progress=False))


def test_a_rank_share_counts_its_points_then_its_regions(small_parts):
    seen, bar = told()
    comm = SerialCommunicator()
    game = DistributedGame.from_spec(
        "rgg:1500:seed=6", 3, 2, ["balanced"] * 3, comm=comm, progress=bar
    )
    share_bar, regions_bar = runs_of(seen)
    assert_counted_up(share_bar, parts=10)
    assert_counted_up(regions_bar, parts=3)
    assert share_bar[-1] == regions_bar[-1] == (1500, 1500)
    quiet = DistributedGame.from_spec(
        "rgg:1500:seed=6", 3, 2, ["balanced"] * 3, comm=comm, progress=False
    )
    for told_state, quiet_state in zip(game.gather_state(), quiet.gather_state(), strict=True):
        assert np.array_equal(told_state, quiet_state)


def test_regions_count_the_territories_reached():
    board = Board.grid(12, 9)
    share = _core.conquest.part_share(board.indptr, board.indices, np.zeros(108, np.int64), 0)
    seen, bar = told()
    team, territories = graph_start(share, 108, 4, assign="regions", seed=1, progress=bar)
    assert_counted_up(seen, parts=5)
    assert seen[-1] == (108, 108)
    quiet = graph_start(share, 108, 4, assign="regions", seed=1, progress=False)
    assert np.array_equal(team, quiet[0])
    assert np.array_equal(territories, quiet[1])


def test_no_bar_is_drawn_without_progress(small_parts, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(progress, "_QUIET_SECONDS", 0.0)
    monkeypatch.setenv("STRATAGEM_PROGRESS", "1")
    path = tmp_path / "board.npz"
    Board.random_geometric(500, progress=False).save(path)
    Board.load(path, progress=False)
    Game.from_spec("grid:9x9", 2, 1, ["balanced"] * 2, progress=False)
    assert capsys.readouterr().err == ""
    Board.random_geometric(500, progress=True)
    Board.load(path, progress=True)
    Game.from_spec("grid:9x9", 2, 1, ["balanced"] * 2)  # STRATAGEM_PROGRESS=1 draws
    drawn = capsys.readouterr()
    assert drawn.out == ""
    assert "board rgg:500:degree=8.0:seed=0 [" in drawn.err
    assert f"board {path} [" in drawn.err
    assert "game grid:9x9 [" in drawn.err


@pytest.mark.parametrize("board", ["rgg:3000:seed=2", "grid:40x40", "file"])
def test_the_command_line_draws_the_build_on_stderr(board, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(progress, "_QUIET_SECONDS", 0.0)  # as if the build took a second
    monkeypatch.delenv("STRATAGEM_PROGRESS", raising=False)
    if board == "file":
        board = str(tmp_path / "board.npz")
        Board.random_geometric(3000, seed=2).save(board)
    argv = ["conquest", "play", "--board", board, "--teams", "3", "--turns", "2", "--json"]
    assert main([*argv, "--progress"]) == 0
    drawn = capsys.readouterr()
    assert drawn.out.count("\n") == 1  # the report alone on stdout
    assert json.loads(drawn.out)["turns_played"] == 2
    label = f"game {board}" if board.startswith("grid") else "board "
    assert f"\r{label}" in drawn.err
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
