"""The game-independent agents play Tarot Dice through the standard engine API (``legal_actions``,
``apply``, ``clone``, ``determinize``, ``returns``): random and information-set MCTS."""

from __future__ import annotations

from gameplay import play_game

from agents import make_agent


def test_random_and_mcts_play_whole_matches():
    for seed, seats in ((0, ("mcts", "random")), (1, ("random", "mcts"))):
        players = [
            make_agent(name, "tarot_dice_v0", seed=seed, simulations=20)
            if name == "mcts"
            else make_agent(name, "tarot_dice_v0", seed=seed)
            for name in seats
        ]
        rewards, actions = play_game("tarot_dice_v0", players, seed=seed)
        assert sorted(rewards.values()) == [-1.0, 1.0]
        assert len(actions) > 20
