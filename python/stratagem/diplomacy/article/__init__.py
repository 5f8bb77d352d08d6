"""Loeb's article recounted: the tables of adjustments and the count of Spring openings."""
