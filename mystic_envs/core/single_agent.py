"""A one-seat ``gymnasium.Env`` view of any mystic-envs game, for SB3 and friends.

The learner plays one seat; every other seat is played inside ``step()`` by the opponent. The
observation is the learner's flat vector; ``action_masks()`` serves MaskablePPO. Rewards are the
AEC rewards of the learner's seat, so the final +1/-1/0 reaches the learner's last transition even
when the game ends on an opponent's move. A learner eliminated while the game goes on (more than
two players) ends its episode there: ``terminated=True`` with the fixed reward of its rank.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from mystic_envs.core.aec import END_REASONS, MysticAECEnv, coerce_action
from mystic_envs.core.errors import IllegalActionError
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import Policy, make_policy

OpponentSpec = str | Policy | Callable[[Any, str], int]


class SingleAgentEnv(gymnasium.Env):
    """One learning seat; the others are played by ``opponent``.

    ``opponent``: a registered name (``"random"``; ``agents`` adds more when imported), an object
    with ``act(env, agent_id)``, or a callable ``f(env, agent_id) -> int``. The opponent acts on
    the inner AEC env (``self.aec_env``), so it sees only its own observation.
    ``seat``: the learner's seat index, or ``None`` for a seat drawn at every reset.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        env_id: str,
        aec_env: MysticAECEnv,
        opponent: OpponentSpec = "random",
        seat: int | None = None,
    ) -> None:
        super().__init__()
        self.env_id = env_id
        self.aec_env = aec_env
        n = len(aec_env.possible_agents)
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < n
        ):
            raise ValueError(f"seat must be None or an integer in [0, {n}), got {seat!r}")
        self.fixed_seat = seat
        if isinstance(opponent, str):
            self._opponent_act: Callable[[Any, str], int] = make_policy(opponent, env_id).act
            self.opponent: Any = self._opponent_act.__self__
        elif isinstance(opponent, Policy):
            self.opponent = opponent
            self._opponent_act = opponent.act
        elif callable(opponent):
            self.opponent = opponent
            self._opponent_act = opponent
        else:
            raise TypeError(f"opponent must be a name, an Agent or a callable, got {opponent!r}")
        agent0 = aec_env.possible_agents[0]
        box = aec_env.observation_space(agent0)["observation"]
        # The AEC env's own bounds (observation_box of its layout); float32, as observations are cast.
        self.observation_space = spaces.Box(box.low, box.high, box.shape, np.float32)
        self.action_space = spaces.Discrete(aec_env.action_space(agent0).n)
        self.render_mode = aec_env.render_mode
        self.seat = 0 if seat is None else int(seat)
        self.learner = aec_env.possible_agents[self.seat]

    def _learner_obs(self) -> np.ndarray:
        # The declared Box is float32; an env that observes in another dtype is cast, not passed through.
        return np.asarray(self.aec_env.observe(self.learner)["observation"], dtype=np.float32)

    def _play_others(self) -> None:
        env = self.aec_env
        while env.agents and env.agent_selection != self.learner:
            ag = env.agent_selection
            if env.terminations[ag] or env.truncations[ag]:
                env.step(None)
                continue
            a = coerce_action(self._opponent_act(env, ag), self.action_space.n)
            # Under "terminate" the learner would score a free draw from a broken opponent. The
            # engine answers without building an observation; a foreign env (the speed benchmark's
            # connect four) through its mask.
            state = getattr(env, "game_state", None)
            if not (state.is_legal(a) if state is not None else env.observe(ag)["action_mask"][a]):
                why = state.illegal_message(a) if state is not None else f"illegal action {a} for {ag}"
                raise IllegalActionError(f"the opponent {self.opponent!r} played: {why}")
            env.step(a)

    def _done(self) -> tuple[bool, bool]:
        env = self.aec_env
        if self.learner not in env.agents:
            return True, False
        return env.terminations[self.learner], env.truncations[self.learner]

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        # Checked like the AEC env's seed (gymnasium's own error is neither a TypeError nor a
        # ValueError, refuses numpy integers and takes True).
        seed = check_seed(seed)
        super().reset(seed=seed)
        sub_seed = int(self.np_random.integers(2**63))
        if seed is not None and hasattr(self.opponent, "seed"):
            self.opponent.seed(int(self.np_random.integers(2**63)))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(len(self.aec_env.possible_agents)))
            self.learner = self.aec_env.possible_agents[self.seat]
        self.aec_env.reset(seed=sub_seed)
        self._play_others()
        for _ in range(100):
            # With more than two players the others can end a game before the learner's first move
            # (every other seat eliminated): it holds no decision of the learner's, so deal another.
            if not self._done()[0] or self._done()[1]:
                break
            self.aec_env.reset(seed=int(self.np_random.integers(2**63)))
            self._play_others()
        if any(self._done()):
            # Only a max_steps too small for the opponents' opening moves gets here.
            reason = END_REASONS[self.aec_env.infos[self.learner]["end_reason"]]
            raise RuntimeError(
                f"{self.env_id}: the episode ended ({reason}) before the learner's first move; "
                f"max_steps={self.aec_env.max_steps} is too small"
            )
        info = dict(self.aec_env.infos[self.learner], seat=self.seat)
        return self._learner_obs(), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        env = self.aec_env
        if self.learner not in env.agents or env.agent_selection != self.learner:
            raise RuntimeError("the episode is over; call reset()")
        term, trunc = self._done()
        if term or trunc:
            raise RuntimeError("the episode is over; call reset()")
        a = coerce_action(action, self.action_space.n)
        env.step(a)
        self._play_others()
        reward = float(env._cumulative_rewards.get(self.learner, 0.0))
        term, trunc = self._done()
        obs = self._learner_obs()
        info = dict(env.infos[self.learner], seat=self.seat)
        return obs, reward, bool(term), bool(trunc), info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as a bool vector (all False once the episode is over)."""
        return self.aec_env.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.aec_env.render()
