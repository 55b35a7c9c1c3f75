"""docs/clients.md: every python block on the page is a recipe that a client test runs."""

from __future__ import annotations

import pytest

from .recipes import recipe_code, recipes

# Section -> the test module that runs its recipe for every env id and player count.
TESTED = {
    "PettingZoo AEC": "test_pettingzoo",
    "PettingZoo parallel": "test_pettingzoo",
    "Gymnasium and Stable-Baselines3 (one learning seat)": "test_sb3",
    "Stable-Baselines3 self-play (PettingZoo's SB3 tutorial)": "test_sb3",
    "Tianshou": "test_tianshou",
    "TorchRL": "test_torchrl",
    "Ray RLlib": "test_rllib_example_module",
}


def test_every_python_block_is_a_tested_recipe() -> None:
    assert set(recipes()) == set(TESTED), "a python block on docs/clients.md that no test runs, or a lost one"


@pytest.mark.parametrize("title", sorted(TESTED))
def test_recipes_set_their_case_in_one_line(title: str) -> None:
    code = recipe_code(title, "mystria_v0", 3)
    assert "ENV_ID, NUM_PLAYERS = 'mystria_v0', 3" in code
    assert "tarot_dice_v0" not in code, "a recipe names its game outside its first line"


def test_unknown_section_is_a_clear_error() -> None:
    with pytest.raises(LookupError, match="has no section 'Keras'"):
        recipe_code("Keras", "mystria_v0", 2)
