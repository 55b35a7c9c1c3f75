"""Training and evaluation scripts for the mystic-envs agents (CONVENTIONS section 4).

- ``python -m training.evaluate``: a round robin between any agents on any env, every pairing
  played equally from each seat, with win rates, 95% confidence intervals and Elo ratings;
  ``training.evaluate.run_tournament`` is the same from Python.
"""
