"""The shape of the house (docs/architecture.md), read from the code's own imports by
``tests/house.py``: no import circles, no module importing a higher tier, no product module
importing an oracle, no oversized room. The reader itself is tested on small made-up graphs."""

from __future__ import annotations

import pytest

import house


def test_no_python_module_takes_part_in_an_import_circle():
    assert house.circles(house.python_graph()) == []


def test_no_rust_module_takes_part_in_a_circle():
    assert house.circles(house.rust_graph()) == []


def test_at_most_two_imports_run_back_up():
    assert len(house.back_up_imports(house.python_graph())) <= 2


def test_product_code_never_imports_an_oracle():
    assert house.oracle_imports(house.python_graph()) == []


def test_no_room_is_oversized():
    assert house.oversized() == []


def test_no_package_folder_holds_more_than_fifteen_modules():
    assert house.crowded_folders() == []


def test_deferred_and_type_only_imports_count(tmp_path):
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from stratagem.room.board import Board\n"
        "def load():\n"
        "    from .files import read\n"
    )
    tree = house.ast.parse(source)
    assert house._imported_names(tree, "stratagem.room.game", is_package=False) == [
        "typing.TYPE_CHECKING",
        "stratagem.room.sibling",
        "stratagem.room.board.Board",
        "stratagem.room.files.read",
    ]


def test_importing_into_another_package_runs_its_face():
    modules = dict.fromkeys(["stratagem.room", "stratagem.room.game", "stratagem.room.mpi"])
    modules["stratagem.room.mpi.share"] = None
    entered = house._entered_packages("stratagem.room.game", "stratagem.room.mpi.share", modules)
    assert entered == {"stratagem.room.mpi"}
    assert (
        house._entered_packages("stratagem.room.mpi.share", "stratagem.room.game", modules) == set()
    )


def test_the_circle_finder_finds_loops_and_only_loops():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert house.circles(graph) == [["a", "b", "c"]]
    assert house.circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize(
    ("module", "target", "upward"),
    [
        ("stratagem.rng", "stratagem.conquest.game", True),
        ("stratagem.protocol", "stratagem.cli", True),
        ("stratagem.conquest.game", "stratagem.conquest.cli", True),
        ("stratagem.conquest.distributed.game", "stratagem.conquest.cli", True),
        ("stratagem.conquest.cli", "stratagem.mpi", False),
        ("stratagem.cli", "stratagem.conquest.cli", False),
        ("stratagem.conquest", "stratagem.conquest.cli", False),
    ],
)
def test_back_up_imports_are_told_apart(module, target, upward):
    assert (house.back_up_imports({module: {target}}) != []) == upward


def test_an_oracle_import_is_allowed_only_to_checking_code():
    graph = {
        "stratagem.conquest.game": {"stratagem.conquest.oracle"},
        "stratagem.conquest.conformance": {"stratagem.conquest.oracle"},
        "stratagem.testing": {"stratagem.rng.oracle"},
    }
    assert house.oracle_imports(graph) == [("stratagem.conquest.game", "stratagem.conquest.oracle")]
