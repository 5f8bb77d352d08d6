"""The command line of outpost maps: ``stratagem outpost map check | generate | show | list``."""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from stratagem import _validate
from stratagem._plotting import matplotlib
from stratagem.cli_common import (
    Common,
    add_command,
    add_count,
    add_file,
    add_png,
    command_group,
    print_files,
    write_outputs,
)
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError
from stratagem.mpi import world
from stratagem.outpost.map import DEFAULT_MAP, REGION, Map, MapWarning, parse_map
from stratagem.outpost.plot import render_map


def named_error(option: str, spec: str, error: StratagemError) -> StratagemError:
    """``error`` with the option and spec in front, unless the message names the spec."""
    if spec in str(error):
        return error
    return type(error)(f"{option} {spec!r}: {error}")


def map_option(spec: str, *, option: str = "--map", lenient: bool = False) -> Map:
    """The map of a spec; errors name it. The rules a lenient map breaks are said on stderr
    (rank 0), as ``stratagem: warning: ...``."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", MapWarning)
            board = parse_map(spec, lenient=lenient)
    except StratagemError as error:
        raise named_error(option, spec, error) from error
    except OSError as error:
        raise InvalidParameter(f"{option} {spec!r}: cannot read it ({error})") from error
    for warning in caught:
        if world().rank == 0:
            print(f"stratagem: warning: {warning.message}", file=sys.stderr)
    return board


def _water_bodies(region: np.ndarray[Any, Any]) -> list[int]:
    """Sizes of the 4-connected bodies of water of a region, largest first."""
    water = region.tolist()
    size = len(water)
    seen = [[False] * size for _ in range(size)]
    bodies = []
    for y in range(size):
        for x in range(size):
            if not water[y][x] or seen[y][x]:
                continue
            seen[y][x] = True
            stack = [(x, y)]
            count = 0
            while stack:
                cx, cy = stack.pop()
                count += 1
                for nx, ny in ((cx, cy - 1), (cx + 1, cy), (cx, cy + 1), (cx - 1, cy)):
                    if 0 <= nx < size and 0 <= ny < size and water[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            bodies.append(count)
    return sorted(bodies, reverse=True)


def map_summary(board: Map) -> dict[str, Any]:
    """What the map commands say about a map: its name, the region's water and land cells,
    the grid's water, the bodies of water of the region (4-connected) and the rules it
    breaks (a lenient map)."""
    bodies = _water_bodies(board.region)
    return {
        "name": board.name,
        "water_cells": board.water_count,
        "land_cells": board.land_count,
        "grid_water_cells": int(board.water.sum()),
        "water_bodies": len(bodies),
        "largest_body": bodies[0] if bodies else 0,
        "problems": list(board.problems),
    }


def _summary_line(summary: dict[str, Any]) -> str:
    return (
        f"{summary['water_cells']} water and {summary['land_cells']} land cells in the "
        f"{REGION}x{REGION} region ({summary['grid_water_cells']} water cells on the grid), "
        f"{summary['water_bodies']} bodies of water (largest {summary['largest_body']} cells)"
    )


def _region_rows(board: Map) -> list[str]:
    """The region as text: ``~`` water, ``.`` land, ``H`` the home ``(0, 0)``."""
    rows = ["".join("~" if wet else "." for wet in row) for row in board.region.tolist()]
    rows[0] = "H" + rows[0][1:]
    return rows


def _map_check(args: argparse.Namespace) -> dict[str, Any]:
    """check a map file (exit status 1 when it is not valid)

    Check a map file against the rules (two integers per line, cells in 0..49, no cell
    twice, land corners, 500 water cells, connected land); print OK with its counts, or the
    first error naming the line or cell and exit with status 1.
    """
    path = Path(args.file)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MapWarning)
        try:
            if not path.is_file():
                raise InvalidBoard(f"{path}: no such file")
            board = Map.load(path, lenient=bool(args.lenient))
        except (StratagemError, OSError) as error:
            message = str(error) if isinstance(error, StratagemError) else f"{path}: {error}"
            if world().rank == 0:
                if args.json:
                    error_type = type(error).__name__
                    report = {
                        "file": str(path),
                        "ok": False,
                        "error": {"type": error_type, "message": message},
                    }
                    print(json.dumps(report, sort_keys=True))
                else:
                    print(f"invalid map: {message}")
            raise SystemExit(1) from None
    found = [str(w.message) for w in caught if issubclass(w.category, MapWarning)]
    return {"file": str(path), "ok": True, **map_summary(board), "warnings": found}


def _print_map_check(report: dict[str, Any]) -> None:
    for message in report["warnings"]:
        print(f"warning: {message}")
    lenient = " (lenient)" if report["warnings"] else ""
    print(f"OK{lenient}: {report['file']}: {_summary_line(report)}")


def _map_generate(args: argparse.Namespace) -> dict[str, Any]:
    """generate a map from --seed

    Generate a valid map of lakes and rivers from --seed (the same seed always gives the
    same map; it is also the map spec random:SEED[:lakes=N][:rivers=N]). Without --out or
    --png the map file is printed.
    """
    lakes = None if args.lakes is None else _validate.integer("--lakes", args.lakes, 0, 500)
    rivers = None if args.rivers is None else _validate.integer("--rivers", args.rivers, 0, 100)
    if args.png:
        matplotlib()
    board = Map.generate(args.seed, lakes=lakes, rivers=rivers)
    files = write_outputs(
        ("map", args.out, board.save), ("png", args.png, partial(render_map, board))
    )
    return {
        **map_summary(board),
        "seed": args.seed,
        "lakes": lakes,
        "rivers": rivers,
        "text": board.to_text(),
        "cells": board.water_cells.tolist(),
        "files": files,
    }


def _print_map_generate(report: dict[str, Any]) -> None:
    if not report["files"]:
        # No file asked for: the map itself, ready for a redirection to a file.
        print(report["text"], end="")
        return
    print(f"map {report['name']}: {_summary_line(report)}")
    print_files(report["files"])


def _map_show(args: argparse.Namespace) -> dict[str, Any]:
    """print (and draw) a map

    Print a map's counts and its region as text; --png draws the grid.
    """
    if args.png:
        matplotlib()
    board = map_option(args.name, option="map", lenient=bool(args.lenient))
    files = write_outputs(("png", args.png, partial(render_map, board)))
    return {**map_summary(board), "rows": _region_rows(board), "files": files}


def _print_map_show(report: dict[str, Any]) -> None:
    print(f"map {report['name']}: {_summary_line(report)}")
    for problem in report["problems"]:
        print(f"warning: {problem}")
    print("the region (empire 0's quarter, H its home; ~ water, . land):")
    print("\n".join(report["rows"]))
    print_files(report["files"])


def _map_list(args: argparse.Namespace) -> dict[str, Any]:
    """the maps shipped with stratagem"""
    return {
        "default": DEFAULT_MAP,
        "maps": [map_summary(Map.named(name)) for name in Map.names()],
    }


def _print_map_list(report: dict[str, Any]) -> None:
    width = max(len(summary["name"]) for summary in report["maps"])
    for summary in report["maps"]:
        default = " (default)" if summary["name"] == report["default"] else ""
        print(
            f"{summary['name']:<{width}}  {summary['water_bodies']:>3} bodies of water, "
            f"largest {summary['largest_body']:>3} cells{default}"
        )
    print("also: random:SEED[:lakes=N][:rivers=N] (generated), or the path of a map file")


# -- registration --------------------------------------------------------------------------


def register_map_commands(sub: Any, common: Common) -> None:
    """Adds ``map check | generate | show | list`` under the outpost command group ``sub``."""
    maps = command_group(sub, "map", "check, generate, show and list maps")
    (check,) = add_command(maps, "check", common, _map_check, _print_map_check)
    check.add_argument("file", help="the map file")
    check.add_argument(
        "--lenient",
        action="store_true",
        help="only warn about water corners and a wrong count of water cells",
    )

    (generate,) = add_command(maps, "generate", common, _map_generate, _print_map_generate)
    add_count(generate, "--lakes", help="lakes, 0 to 500 (default: drawn, 2-6)")
    add_count(generate, "--rivers", help="rivers, 0 to 100 (default: drawn, 1-3)")
    add_file(generate, "--out", help="write the map file here")
    add_png(generate, help="draw the map (PNG)")

    (show,) = add_command(maps, "show", common, _map_show, _print_map_show)
    show.add_argument("name", help="a map name, random:SEED[:lakes=N][:rivers=N] or a map file")
    add_png(show, help="draw the map (PNG)")
    show.add_argument(
        "--lenient", action="store_true", help="accept a file breaking the corner or count rule"
    )

    add_command(maps, "list", common, _map_list, _print_map_list)
