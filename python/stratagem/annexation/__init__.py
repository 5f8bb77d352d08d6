"""annexation: the Filler-style colour game (seed 001). Rules: ``docs/annexation-rules.md``."""
