"""A griffe extension for the API reference: the doctest blocks of the docstrings (``>>>``
lines and the output under them, up to a blank line) are fenced as ``pycon`` code, so the
site shows them as code while pytest still runs them as doctests."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest block put between ```` ```pycon ```` fences."""
    lines, fenced, inside = text.splitlines(), [], False
    for line in lines:
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            fenced.append("```pycon")
            inside = True
        elif inside and not line.strip():
            fenced.append("```")
            inside = False
        fenced.append(line)
    if inside:
        fenced.append("```")
    return "\n".join(fenced)


class DoctestFences(griffe.Extension):
    """Fences the doctest blocks of every docstring griffe loads."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
