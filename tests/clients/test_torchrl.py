"""TorchRL's PettingZooWrapper on the turn-based AEC env (use_mask=True, return_state=True):
``check_env_specs`` and a rollout of the docs/clients.md masked policy."""

from __future__ import annotations

import numpy as np
import pytest

from .recipes import CASES, run_recipe

pytest.importorskip("torchrl", reason="the clients extra is not installed")

import torch

# TorchRL notes that it tests PettingZoo 1.24.3 only.
pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version")


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_masked_rollout(env_id: str, n: int) -> None:
    ns = run_recipe("TorchRL", env_id, n)  # check_env_specs runs inside the recipe
    env, rollout = ns["env"], ns["rollout"]
    raw = env._env.unwrapped
    groups = list(env.group_map)
    assert sorted(groups) == sorted(raw.possible_agents), "a turn-based env gives each seat its own group"
    assert rollout.batch_size == torch.Size([300])

    # Exactly one seat is to move on every step, and it plays an action from its mask.
    to_move = torch.stack([rollout[group, "mask"].squeeze(-1) for group in groups], dim=-1)
    assert torch.all(to_move.sum(-1) == 1)
    for group in groups:
        movers = rollout[group, "mask"].squeeze(-1)
        action = rollout[group, "action"].squeeze(-1)[movers]
        mask = rollout[group, "action_mask"].squeeze(1)[movers]
        assert torch.all(mask.gather(-1, action.unsqueeze(-1))), f"{group} played outside its mask"

    # Every game that ended did so by the rules, zero-sum. A seat's reward comes on the step its own
    # group is done: the game's end, or (StepEliminated) the step that eliminated it mid-game.
    done = rollout["next", "done"].squeeze(-1)
    # Mystic Vale's random games at 3-4 players run 450-600 steps, longer than the recipe's
    # rollout: none may end in it, and every step is still checked.
    if not (env_id == "mystic_vale_v0" and n > 2):
        assert done.sum() >= 1, "no game ended in 300 steps"
    rewards = torch.stack([rollout["next", group, "reward"].reshape(300) for group in groups], dim=-1)
    seat_done = torch.stack([rollout["next", group, "done"].reshape(300) for group in groups], dim=-1)
    assert torch.all(rewards[~seat_done] == 0), "a reward before that seat's end"
    assert torch.all(seat_done[done]), "a seat still playing when the game ended"
    game = torch.cumsum(done.long(), 0) - done.long()  # the game each step belongs to
    finished = game < int(done.sum())
    per_game = torch.zeros(int(done.sum()), len(groups)).index_add_(0, game[finished], rewards[finished])
    torch.testing.assert_close(per_game.sum(-1), torch.zeros(int(done.sum())))
    # Each seat is paid once per game, and only once it is done.
    # (a seat's done carries over from the step before unless a new game began there).
    carried = seat_done[:-1] & ~done[:-1, None]
    first_done = seat_done & ~torch.cat([torch.zeros(1, len(groups), dtype=torch.bool), carried])
    assert torch.all(rewards[~first_done] == 0), "a seat paid after its end"
    end_reason = raw.info_names["end_reason"].index("game over")
    schema = {field.name for field in raw.info_schema}
    for index, group in enumerate(groups):
        info = rollout["next", group, "info"]
        assert set(info.keys()) == schema
        assert torch.all(info["game_over"].reshape(300).bool() == seat_done[:, index])
        assert torch.all(info["end_reason"].reshape(300)[seat_done[:, index]] == end_reason)

    # return_state: PettingZoo's state() as "state", inside its declared space.
    state = rollout["state"]
    assert state.shape == (300, *raw.state_space.shape)
    assert raw.state_space.contains(state[0].numpy().astype(raw.state_space.dtype))
    assert not np.isnan(state.numpy()).any()
