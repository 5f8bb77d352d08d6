"""Collection settings for the whole tree: the OpenSpiel bridge's doctests need the optional
``openspiel`` extra."""

import importlib.util

collect_ignore = (
    [] if importlib.util.find_spec("pyspiel") else ["python/stratagem/annexation/openspiel.py"]
)
