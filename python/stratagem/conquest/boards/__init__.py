"""Conquest's boards before they are boards: generators, layouts, the RISK map, board files."""
