"""Outside RL clients run on every env id and player count (issue 17, CONVENTIONS section 3).

Each ``test_<client>.py`` runs its recipe from ``docs/clients.md`` (see :mod:`.recipes`) and checks
what it built. What other suites already cover is not repeated here:

- PettingZoo ``api_test``, ``seed_test``, ``render_test``: ``tests/conformance/test_pettingzoo_api.py``;
  ``state_test``, ``parallel_api_test``, ``parallel_seed_test``, ``gymnasium.make`` of the single-agent
  views and the info schema: ``tests/conformance/test_client_contract.py``.
- Gymnasium's and SB3's ``check_env`` on ``single_agent``: ``tests/conformance/test_single_agent.py``.
- RLlib training through its ``PettingZooEnv`` (subclassed with an action audit) for every env:
  ``tests/test_rllib.py``; MaskablePPO training through ``training.train``: ``tests/test_training.py``.
"""
