"""Batched learner adapters over the compiled core: a Gymnasium ``VectorEnv`` and an SB3 ``VecEnv``.

Both wrap one ``mystic_envs.vector`` batch of N games. In every game one seat is the learner's (drawn
per game, or fixed with ``seat=``); the other seats are played inside ``step()`` by an opponent, all
envs at once:

- ``"random"``: uniform legal moves drawn in C (``sample_legal``, each env's own seeded stream);
- a **batch policy**: any callable ``f(observations (M, obs_dim) float32, masks (M, A) bool) -> (M,)
  actions``, called once per opponent move with every env where an opponent is to move; e.g.
  :class:`FrozenPolicy`, a frozen copy of an SB3 policy run as one batched forward pass;
- ``"heuristic"`` (or any other agent spec of ``agents.make_agent``, options included, as
  ``"mcts:simulations=300"``, or an agent object with ``act(env, agent_id)``): agents that read the
  game's state. For the envs such an opponent plays, the adapter keeps a Python ``GameState`` in
  lockstep: it starts each of those games from the batch's seed for it (``seed + i + k*N``) and
  applies every action the batch plays there, which is the same game by issue 27's exactness
  guarantee. The agent then acts on a small stand-in for the AEC env (``env.unwrapped.game_state``,
  ``agent_name_mapping``) exactly as it does on ``mystic_envs.make``. A named agent is built once
  per env, seeded by :func:`opponent_seed`. It costs the Python engine's ``apply`` for every move of
  those games plus the agent's own decision (docs/training.md, "Batched adapters", has the figures).
  A search that runs on the compiled twin (``agents.mcts`` and the guided search, unless
  ``engine="python"``) keeps no Python state: at each of its moves the stand-in holds a copy of the
  batch's own game (``vector.state(i)``, a ``CoreState``), which the search reads as it reads the
  twin it replays from an AEC env's history, so it searches in C and plays the moves it plays there.
  So does the ``ppo`` agent, which reads only the stand-in's ``observe()`` (a batch of snapshots is
  better served by :class:`FrozenPolicy`, one forward pass for every env).

``opponent`` may also be a sequence of N of these, one per env (a mix of opponents in one batch).

One learner step: the learner's action is played in every env, then the opponents move (batched)
until it is the learner's turn again or the game ends. The reward is the sum of the learner seat's
rewards over those moves; the observation and ``action_masks()`` are the learner's. A game that ends
before the learner's first move (not possible in the two-player games) is skipped, as
``single_agent`` deals another.

Why here and not in ``mystic_envs``: the adapters serve training (SB3's ``VecEnv`` base class
imports torch, and the heuristic opponent lives in ``agents``), and ``mystic_envs`` must import
without either. Only the batch's ``step_active`` (steps a subset of the envs: the others wait at
their learner's turn) was added to the core for them.

- :class:`CoreVecEnv` (SB3): same-step autoreset; an ended episode's last learner observation is in
  ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` marks a
  ``max_steps`` truncation; ``action_masks()`` serves ``sb3_contrib.MaskablePPO`` unchanged.
- :class:`CoreGymVectorEnv` (Gymnasium 1.x): ``metadata["autoreset_mode"]`` is
  ``AutoresetMode.NEXT_STEP``: the step after an episode ended ignores that env's action and returns
  the next game's first learner observation, reward 0.

>>> venv = CoreVecEnv("elemystic_v0", num_envs=64, seed=0, opponent="random")
>>> model = MaskablePPO("MlpPolicy", venv)          # sb3_contrib
>>> venv.set_opponent(FrozenPolicy(model.policy))   # later: self-play against a frozen snapshot
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

import mystic_envs
from mystic_envs import vector
from mystic_envs.core.game import is_integer, observation_box

__all__ = ["CoreGymVectorEnv", "CoreVecEnv", "FrozenPolicy", "LearnerBatch", "opponent_seed"]

BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]
OpponentSpec = Any  # "random", an agent name, an agent object with act(env, agent_id), or a BatchPolicy

# Opponent kinds: uniform random in C, a batch policy, an agent on a Python state kept in lockstep,
# an agent that searches a copy of the batch's compiled game.
_RANDOM, _BATCH, _STATE, _CORE = 0, 1, 2, 3


def _reads_compiled_state(agent: Any) -> bool:
    """Whether a copy of the batch's compiled game can be ``agent``'s state: a search on the compiled
    twin (``agents.mcts``, the guided search) or the ``ppo`` agent (it reads the observation and the
    mask only). The other agents (the heuristics) read the Python engine's state."""
    from agents.mcts import MCTSAgent

    if isinstance(agent, MCTSAgent):
        return agent.engine != "python"
    from agents.ppo import PPOAgent  # imports torch only when it loads a model

    return isinstance(agent, PPOAgent)


def opponent_seed(seed: int, env_index: int) -> int:
    """The seed of the named agent (``"heuristic"``...) that plays env ``env_index`` of a batch seeded
    ``seed``: a fixed function of both, so a test can build the same agent for the AEC env."""
    words = np.random.SeedSequence(entropy=int(seed), spawn_key=(int(env_index),)).generate_state(2)
    return int((int(words[0]) << 32 | int(words[1])) >> 1)


class _StateEnv:
    """The part of the AEC env an agent reads (``env.unwrapped.game_state`` and the seat names),
    over a Python state kept in lockstep with one env of the batch."""

    def __init__(self, env_id: str, num_players: int) -> None:
        self.metadata = {"name": env_id}
        self.possible_agents = [f"player_{p}" for p in range(num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.game_state: Any = None

    @property
    def unwrapped(self) -> _StateEnv:
        return self

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask, as the AEC env's ``observe`` gives them."""
        seat = self.agent_name_mapping[agent]
        state = self.game_state
        mask = state.legal_mask().astype(np.int8)
        if state.current_player != seat:
            mask[:] = 0
        return {"observation": state.observation(seat), "action_mask": mask}


class FrozenPolicy:
    """A frozen copy of an SB3 (Maskable)ActorCriticPolicy as a batch opponent: one forward pass
    over every env where an opponent is to move. ``deterministic``: the most likely legal action
    instead of a sample. Later training of the original leaves the copy as it was."""

    def __init__(self, policy: Any, deterministic: bool = False) -> None:
        import torch  # here, not at import: the adapters do not need torch without a policy

        self._torch = torch
        # A fresh policy with the weights copied: deepcopy trips on the distribution's cached tensors.
        self.policy = type(policy)(**policy._get_constructor_parameters()).to(policy.device)
        self.policy.load_state_dict(copy.deepcopy(policy.state_dict()))
        self.policy.set_training_mode(False)
        self.deterministic = bool(deterministic)

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        torch = self._torch
        with torch.no_grad():
            obs = torch.as_tensor(observations, device=self.policy.device)
            dist = self.policy.get_distribution(obs, action_masks=masks)
            actions = dist.mode() if self.deterministic else dist.sample()
        return actions.cpu().numpy().astype(np.int64, copy=False)


class LearnerBatch:
    """The engine of both adapters: one learner seat per game of a ``mystic_envs.vector`` batch, the
    other seats played inside ``step()`` (module docstring). Arrays (N rows) after ``reset()`` and
    ``step()``: ``observation``, ``action_mask`` (the learner's), ``reward``, ``terminated``,
    ``truncated``, ``seat``; ``final_observation`` holds the learner's last view of the games that
    ended at the last step. ``same_step=True`` starts the next game within the step that ended one
    (SB3); ``False`` on the next step, ignoring that env's action there (Gymnasium's next-step mode).
    """

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        seed: int | None = None,
        opponent: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = None,
        num_threads: int = 1,
        same_step: bool = True,
        **env_kwargs: Any,
    ) -> None:
        self.v = vector.make(env_id, num_envs=num_envs, seed=seed, num_threads=num_threads, **env_kwargs)
        self.env_id = env_id
        self.env_kwargs = dict(env_kwargs)
        self.num_envs = n = self.v.num_envs
        self.num_players = self.v.num_players
        self.num_actions = self.v.num_actions
        self.obs_size = self.v.obs_size
        if seat is not None and (not is_integer(seat) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be None or an integer in [0, {self.num_players}), got {seat!r}")
        self.fixed_seat = None if seat is None else int(seat)
        self.same_step = bool(same_step)
        self.rng = np.random.default_rng(np.random.SeedSequence(entropy=self.v.seed, spawn_key=(2**31,)))
        self._py_game = mystic_envs.env_module(env_id).raw_env(**env_kwargs).game
        self.seat = np.zeros(n, dtype=np.int64)
        self.observation = np.zeros((n, self.obs_size), dtype=np.float32)
        self.action_mask = np.zeros((n, self.num_actions), dtype=bool)
        self.final_observation = np.zeros((n, self.obs_size), dtype=np.float32)
        self.reward = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.episode_ended = np.zeros(n, dtype=bool)  # the learner's episode ended at the last step
        self._games = np.zeros(n, dtype=np.int64)  # k of each env's current game
        self._rows = np.arange(n)
        self._scratch = np.zeros(n, dtype=np.int64)
        self._stepped = False
        self.opponent_kind = np.zeros(n, dtype=np.int8)
        self.set_opponent(opponent)

    # -- opponents -----------------------------------------------------------------------------

    def set_opponent(self, opponent: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Replace the opponent of every env (one spec) or of each env (a sequence of N specs). A
        Python-state opponent needs its games from their start: set it before ``reset()``."""
        n = self.num_envs
        if isinstance(opponent, (list, tuple)):
            if len(opponent) != n:
                raise ValueError(f"a sequence of opponents must hold one per env ({n}), got {len(opponent)}")
            specs = list(opponent)
        else:
            specs = [opponent] * n
        kinds = np.zeros(n, dtype=np.int8)
        batch_policies: dict[int, BatchPolicy] = {}
        agents: list[Any] = [None] * n
        for i, spec in enumerate(specs):
            if isinstance(spec, str) and spec == "random":
                kinds[i] = _RANDOM
            elif isinstance(spec, str):
                from agents import make_agent  # the agents package is only needed for named agents
                from agents.spec import parse_agent_spec

                parsed = parse_agent_spec(spec)
                agents[i] = make_agent(
                    parsed.name, self.env_id, seed=opponent_seed(self.v.seed, i), **parsed.options
                )
                kinds[i] = _CORE if _reads_compiled_state(agents[i]) else _STATE
            elif hasattr(spec, "act"):
                kinds[i] = _CORE if _reads_compiled_state(spec) else _STATE
                agents[i] = spec
            elif callable(spec):
                kinds[i] = _BATCH
                batch_policies.setdefault(id(spec), spec)
            else:
                raise TypeError(
                    f"opponent must be 'random', an agent name, an agent with act(env, agent_id) or a "
                    f"callable (observations, masks) -> actions, got {spec!r}"
                )
        if self._stepped and ((kinds == _STATE) & (self.opponent_kind != _STATE)).any():
            # Its Python state would have to replay the game so far: start a new batch instead.
            raise RuntimeError(
                "an opponent that reads the Python state (heuristic) must be set before reset()"
            )
        self.opponent_kind = kinds
        self._agents = agents
        self._policy_of = [spec if kinds[i] == _BATCH else None for i, spec in enumerate(specs)]
        self._batch_groups = [
            (fn, np.array([i for i in range(n) if self._policy_of[i] is fn], dtype=np.int64))
            for fn in batch_policies.values()
        ]
        self._any_random = bool((kinds == _RANDOM).any())
        self._state_envs = np.flatnonzero(kinds == _STATE)  # a Python state in lockstep
        self._agent_envs = np.flatnonzero((kinds == _STATE) | (kinds == _CORE))
        if not hasattr(self, "_views"):
            self._views: list[_StateEnv | None] = [None] * n
        for i in self._agent_envs:
            if self._views[i] is None:
                self._views[i] = _StateEnv(self.env_id, self.num_players)

    def _opponent_actions(self, movers: np.ndarray) -> np.ndarray:
        """Actions (N,) int64 with the opponents' choices at the env indices ``movers``."""
        v = self.v
        acts = self._scratch
        if self._any_random:
            v.sample_legal(out=acts)  # drawn for every env; only the random opponents' are used
        else:
            acts[:] = 0
        is_mover = np.zeros(self.num_envs, dtype=bool)
        is_mover[movers] = True
        for fn, members in self._batch_groups:
            idx = members[is_mover[members]]
            if idx.size:
                acts[idx] = np.asarray(fn(v.observation[idx], v.action_mask[idx]), dtype=np.int64).reshape(-1)
        if self._agent_envs.size:
            for i in self._agent_envs[is_mover[self._agent_envs]]:
                view = self._views[i]
                if self.opponent_kind[i] == _CORE:
                    view.game_state = v.state(int(i))
                mover = int(v.current_player[i])
                acts[i] = int(self._agents[i].act(view, view.possible_agents[mover]))
        return acts

    # -- games ---------------------------------------------------------------------------------

    def _new_games(self, idx: np.ndarray) -> None:
        """Envs ``idx`` have just started a game: draw the learner's seat, start the Python twins."""
        if idx.size == 0:
            return
        if self.fixed_seat is None:
            self.seat[idx] = self.rng.integers(self.num_players, size=idx.size)
        else:
            self.seat[idx] = self.fixed_seat
        if self._state_envs.size:
            n = self.num_envs
            for i in np.intersect1d(idx, self._state_envs, assume_unique=True):
                game_seed = (self.v.seed + int(i) + int(self._games[i]) * n) % (1 << 64)
                self._views[i].game_state = self._py_game.new_initial_state(game_seed)

    def _mirror(self, idx: np.ndarray, actions: np.ndarray) -> None:
        """Apply the actions just played at envs ``idx`` (none of which started a game) to the
        Python states of the envs that keep one."""
        if self._state_envs.size:
            for i in np.intersect1d(idx, self._state_envs, assume_unique=True):
                self._views[i].game_state.apply(int(actions[i]))

    def reset(self) -> None:
        """Start every env's first game and play the opponents up to the learner's first turn."""
        self.v.reset()
        self._stepped = True
        self._games[:] = 0
        self._new_games(self._rows)
        self.reward[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self.episode_ended[:] = False
        self._play(live=np.zeros(self.num_envs, dtype=bool))

    def step(self, actions: np.ndarray) -> None:
        """One learner step in every env (module docstring)."""
        v = self.v
        if not self._stepped:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers, got shape {acts.shape} {acts.dtype}")
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        ended_before = v.terminated | v.truncated  # next-step mode: these start a game, action ignored
        v.step(acts)
        live = ~ended_before
        self.reward[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self.episode_ended[:] = False
        moved = np.flatnonzero(live)
        self._mirror(moved, acts)
        self.reward[moved] = v.rewards[moved, self.seat[moved]]
        restarted = np.flatnonzero(ended_before)
        self._games[restarted] += 1
        self._new_games(restarted)
        self._play(live)

    def _play(self, live: np.ndarray) -> None:
        """After a batch step: end the learner episodes that ended, then step the envs where an
        opponent is to move (or a game must start) until every env waits for its learner or, in
        next-step mode, holds an ended episode."""
        v = self.v
        while True:
            ended = v.terminated | v.truncated
            just = ended & live
            if just.any():
                idx = np.flatnonzero(just)
                self._end_episodes(idx)
                live[idx] = False
            restart = ended if self.same_step else ended & ~self.episode_ended
            opp = (v.current_player >= 0) & (v.current_player != self.seat)
            active = restart | opp
            if not active.any():
                break
            movers = np.flatnonzero(opp)
            acts = self._opponent_actions(movers) if movers.size else self._scratch
            v.step_active(acts, active)
            self._mirror(movers, acts)
            mv_live = movers[live[movers]]
            self.reward[mv_live] += v.rewards[mv_live, self.seat[mv_live]]
            restarted = np.flatnonzero(restart)
            self._games[restarted] += 1
            self._new_games(restarted)
        self.observation[:] = v.observation
        self.action_mask[:] = v.action_mask
        if not self.same_step and self.episode_ended.any():
            # The ended episodes show their last learner view until their next game starts.
            self.observation[self.episode_ended] = self.final_observation[self.episode_ended]

    def _end_episodes(self, idx: np.ndarray) -> None:
        v = self.v
        self.episode_ended[idx] = True
        self.terminated[idx] = v.terminated[idx]
        self.truncated[idx] = v.truncated[idx] & ~v.terminated[idx]
        # The batch shows the final view of the seat that moved last; the learner's own is needed.
        seats = self.seat[idx]
        for s in np.unique(seats):
            rows = idx[seats == s]
            self.final_observation[rows] = v.observe(int(s))[rows]


class CoreVecEnv(VecEnv):
    """SB3 ``VecEnv`` over :class:`LearnerBatch` (module docstring): same-step autoreset,
    ``infos[i]["terminal_observation"]``, ``action_masks()`` for MaskablePPO."""

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        seed: int | None = None,
        opponent: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = None,
        num_threads: int = 1,
        **env_kwargs: Any,
    ) -> None:
        self._spec = (env_id, num_envs, opponent, seat, num_threads, env_kwargs)
        self.core = LearnerBatch(
            env_id, num_envs, seed, opponent, seat, num_threads, same_step=True, **env_kwargs
        )
        obs_space = observation_box(self.core.v.observation_layout)
        self.render_mode = None  # before VecEnv's __init__, which asks for it
        super().__init__(num_envs, obs_space, spaces.Discrete(self.core.num_actions))
        self.env_id = env_id
        self._actions: np.ndarray | None = None

    def set_opponent(self, opponent: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Replace the opponents (``LearnerBatch.set_opponent``); a seeded reset keeps them."""
        self.core.set_opponent(opponent)
        self._opponent = opponent

    def reset(self) -> np.ndarray:
        if self._seeds[0] is not None:
            # SB3's seed() stores one seed per env; the batch takes the first (env i plays seed + i).
            self._rebuild(int(self._seeds[0]))
        self._reset_seeds()
        self._reset_options()
        self.core.reset()
        return self.core.observation.copy()

    def _rebuild(self, seed: int) -> None:
        env_id, num_envs, opponent, seat, num_threads, kw = self._spec
        opponent = self._opponent if hasattr(self, "_opponent") else opponent
        self.core = LearnerBatch(env_id, num_envs, seed, opponent, seat, num_threads, same_step=True, **kw)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        c = self.core
        c.step(np.asarray(self._actions).reshape(-1))
        dones = c.episode_ended.copy()
        infos: list[dict[str, Any]] = [{"seat": int(s)} for s in c.seat]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = c.final_observation[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(c.truncated[i])
        return c.observation.copy(), c.reward.copy(), dones, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: the learner's legal actions in every env."""
        return self.core.action_mask.copy()

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            # MaskablePPO's get_action_masks stacks this list: one row per env.
            return list(self.core.action_mask[idx])
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


class CoreGymVectorEnv(gymnasium.vector.VectorEnv):
    """Gymnasium ``VectorEnv`` over :class:`LearnerBatch`, next-step autoreset (module docstring).
    ``infos`` holds ``seat`` (the learner's seat in each env) with Gymnasium's ``_seat`` mask."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        seed: int | None = None,
        opponent: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = None,
        num_threads: int = 1,
        **env_kwargs: Any,
    ) -> None:
        self._spec = (env_id, num_envs, opponent, seat, num_threads, env_kwargs)
        self.core = LearnerBatch(
            env_id, num_envs, seed, opponent, seat, num_threads, same_step=False, **env_kwargs
        )
        self.num_envs = num_envs
        self.single_observation_space = observation_box(self.core.v.observation_layout)
        self.single_action_space = spaces.Discrete(self.core.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            # A seeded reset replays exactly: a new batch seeded ``seed`` (env i's games seed + i + k*N).
            env_id, num_envs, opponent, seat, num_threads, kw = self._spec
            self.core = LearnerBatch(
                env_id, num_envs, seed, opponent, seat, num_threads, same_step=False, **kw
            )
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        self.core.reset()
        return self.core.observation.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        c = self.core
        c.step(np.asarray(actions).reshape(-1))
        return c.observation.copy(), c.reward.copy(), c.terminated.copy(), c.truncated.copy(), self._infos()

    def _infos(self) -> dict[str, Any]:
        return {"seat": self.core.seat.copy(), "_seat": np.ones(self.num_envs, dtype=bool)}

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: the learner's legal actions (all False in an env whose episode just ended)."""
        if self.core.same_step:
            return self.core.action_mask.copy()
        masks = self.core.action_mask.copy()
        masks[self.core.episode_ended] = False
        return masks

    def set_opponent(self, opponent: OpponentSpec | Sequence[OpponentSpec]) -> None:
        self.core.set_opponent(opponent)
