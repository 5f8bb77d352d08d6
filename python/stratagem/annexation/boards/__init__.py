"""Annexation's boards before they are boards: their layouts and their files."""
