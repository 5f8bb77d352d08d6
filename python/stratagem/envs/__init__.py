"""The bridges from :mod:`stratagem.protocol` to the agent interfaces people already use, each
written once for every registered game (``docs/envs.md``):

- :mod:`stratagem.envs.pettingzoo`: ``env(name)`` (AEC) and ``parallel_env(name)``;
- :mod:`stratagem.envs.gymnasium`: ``stratagem/<Name>-v0`` for every game, and a native batched
  vector env for annexation;
- :mod:`stratagem.envs.openspiel`: ``register()`` and ``load_game(name)``.

PettingZoo and Gymnasium come with ``pip install 'stratagem[envs]'``, OpenSpiel with
``pip install 'stratagem[openspiel]'``; this package imports none of them until a bridge is
imported.
"""
