"""Mystic Vale's observation, render and env: what each seat sees, and the text a human reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.records import RecordError, replay
from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.env import MysticValeEnv
from mystic_envs.mystic_vale.observation import CARD_FEATURES, ZONES
from mystic_envs.mystic_vale.render import ability_text
from mystic_envs.mystic_vale.rules import ValeGame
from tests.mystic_vale.script import BLANKS, CURSED, act, craft, lay_out, new, start


def part(s, name: str, obs: np.ndarray) -> np.ndarray:
    entry = next(e for e in s.game.observation_layout() if e.name == name)
    return obs[entry.slice]


def zones(s, name: str, obs: np.ndarray) -> list[int]:
    block = part(s, name, obs).reshape(20, CARD_FEATURES)[:, : len(ZONES)]
    return [int(np.argmax(row)) for row in block]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_layout_sizes_match_the_docstring(n):
    g = ValeGame(n)
    assert g.observation_size == {2: 2984, 3: 4157, 4: 5330}[n] and g.num_actions == 51
    assert g.new_initial_state(0).observation(0).shape == (g.observation_size,)


def test_a_discard_pile_is_visible_to_its_owner_only():
    s = new()
    lay_out(s, 1, field=[BLANKS[0]], on_deck=BLANKS[1], deck=[BLANKS[2]], discard=[CURSED["top"][0]])
    own = zones(s, "own_cards", s.observation(1))
    other = zones(s, "seat+1_cards", s.observation(0))
    top = CURSED["top"][0]
    assert own[top] == 3 and other[top] == 0, "seat 0 sees only 'deck or discard pile'"
    assert own[BLANKS[0]] == other[BLANKS[0]] == 1 and own[BLANKS[1]] == other[BLANKS[1]] == 2


def test_the_calm_weather_peek_is_in_its_owners_observation_only():
    s = new()
    craft(s, 0, BLANKS[0], "Calm Weather")
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=BLANKS[0], deck=[CURSED["top"][1], BLANKS[2]])
    start(s, 0)
    act(s, d.PUSH)
    assert part(s, "peeked", s.observation(0))[CURSED["top"][1]] == 1.0
    assert not part(s, "peeked", s.observation(1)).any()
    assert "top of deck (Calm Weather)" in s.describe(0) and "top of deck" not in s.describe(1)


def test_render_shows_slots_symbols_and_ability_text_on_request():
    s = new()
    craft(s, 0, BLANKS[0], "Stag", "Dawnsinger", "Gaia's Chosen")
    lay_out(s, 0, field=[BLANKS[0]], on_deck=BLANKS[1], deck=[BLANKS[2]])
    text = s.describe(0)
    assert "[Stag (1D 2G 1A) | Dawnsinger (1G 1S) * | Gaia's Chosen 2VP end *]" in text
    assert "Harvest: +1 mana for each guardian on this card." in ability_text("dawnsinger")
    assert "Stream of Vigor" in ability_text("Stream of Vigor")
    with pytest.raises(ValueError, match="no advancement or vale"):
        ability_text("Chess")
    with pytest.raises(ValueError):
        s.describe(5)


def test_the_env_plays_a_game_to_the_end_with_the_documented_infos():
    env = MysticValeEnv(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    keys = None
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, info = env.last()
        keys = keys or set(info)
        assert set(info) == keys
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert {"turn", "pool", "vp_tokens", "stage", "active"} <= keys
    assert isinstance(env.render(), str)


def test_a_record_of_0_2_0_no_longer_replays_and_names_both_versions():
    """mystic-envs 0.2.0 dealt Mystic Vale from numpy's generator, 0.3.0 from the core generator
    (the version history): a game recorded with 0.2.0 (random agents, seed 5) diverges, and the
    replay says which version made it."""
    record = Path(__file__).parent / "records" / "mystic_vale_v0-0.2.0.json"
    with pytest.raises(RecordError, match=r"made with mystic-envs 0\.2\.0, this is 0\.3\.0\)"):
        replay(record).run()
