"""Collection settings for the whole tree: the bridges' doctests need their optional extras
(``openspiel``; ``envs``: pettingzoo and gymnasium)."""

import importlib.util

_NEEDS = {
    "python/stratagem/envs/openspiel.py": "pyspiel",
    "python/stratagem/envs/pettingzoo.py": "pettingzoo",
    "python/stratagem/envs/gymnasium.py": "gymnasium",
    "python/stratagem/annexation/vector.py": "gymnasium",
    "python/stratagem/envs/sb3.py": "sb3_contrib",
    "docs/envs.md": "pettingzoo",
}

collect_ignore = [path for path, module in _NEEDS.items() if not importlib.util.find_spec(module)]
