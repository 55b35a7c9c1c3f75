"""RLlib PPO (new API stack) configured for a mystic-envs game: masked modules, seats, opponents, audit.

``build_ppo_config(env_id)`` returns a ready ``PPOConfig``; ``config.build_algo().train()`` trains.
Policies (RLlib modules):

- ``policies="shared"``: one module, ``"shared"``, plays every seat (parameter sharing);
- ``policies="per-seat"``: one module per seat, named after it (``"player_0"``, ``"player_1"`` ...).

In a share ``vs_random`` of the episodes (drawn per episode) one seat, also drawn per episode,
learns against :class:`~training.rllib_module.MaskedRandomModule` (module ``"random"``, never trained)
in every other seat; all other episodes are self-play. :class:`MatchStats` reads the env's audit
(``training.rllib_env``) at the end of every episode and logs to the env runners' metrics
``audited_actions`` (actions checked against their masks), ``illegal_actions`` (those the mask
forbade), ``vs_random_games`` and ``vs_random_points`` (1 for a win, 1/2 for a shared first place,
from the seats' final rewards).
"""

from __future__ import annotations

import hashlib
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

import mystic_envs
from training.rllib_env import AUDIT_KEY, register_envs, rllib_env_name
from training.rllib_module import DEFAULT_HIDDEN, MaskedPPOModule, MaskedRandomModule

__all__ = [
    "POLICY_MODES",
    "PPO_SETTINGS",
    "RANDOM_MODULE",
    "SHARED_MODULE",
    "MatchStats",
    "RLlibConfigError",
    "SeatMapping",
    "build_ppo_config",
    "trained_modules",
]

SHARED_MODULE = "shared"
RANDOM_MODULE = "random"
POLICY_MODES = ("shared", "per-seat")

# training.train's MaskablePPO settings where RLlib has the same knob (lr, gamma, GAE lambda, clip,
# entropy bonus, 10 epochs of 256-sample minibatches, value loss weight 0.5, gradient norm 0.5, no
# KL penalty), so the two trainers compare on equal terms; the batch is larger because every RLlib
# iteration has a fixed cost (weight broadcast, metrics).
PPO_SETTINGS: dict[str, Any] = dict(
    lr=3e-4,
    gamma=0.99,
    lambda_=0.95,
    clip_param=0.2,
    entropy_coeff=0.01,
    vf_loss_coeff=0.5,
    grad_clip=0.5,
    use_kl_loss=False,
    num_epochs=10,
    minibatch_size=256,
    train_batch_size_per_learner=4000,
)


class RLlibConfigError(ValueError):
    """A bad input to :func:`build_ppo_config`; the trainer's command line prints it on one line."""


def trained_modules(num_players: int, policies: str) -> list[str]:
    """The ids of the modules that learn, for ``policies`` in :data:`POLICY_MODES`."""
    return [SHARED_MODULE] if policies == "shared" else [f"player_{s}" for s in range(num_players)]


def _seat(agent_id: str) -> int:
    return int(agent_id.rsplit("_", 1)[1])


@dataclass(frozen=True)
class SeatMapping:
    """RLlib's ``policy_mapping_fn``: the module of each seat in an episode (see the module docstring).

    The draws come from a hash of the episode id, so every seat of an episode, asked separately and in
    any process, agrees on them. A plain dataclass, so that it pickles to remote env runners.
    """

    num_players: int
    policies: str
    vs_random: float

    def __call__(self, agent_id: str, episode: Any, **kwargs: Any) -> str:
        own = SHARED_MODULE if self.policies == "shared" else agent_id
        digest = hashlib.sha256(str(episode.id_).encode()).digest()
        if int.from_bytes(digest[:8], "little") / 2**64 >= self.vs_random:
            return own
        learner = int.from_bytes(digest[8:16], "little") % self.num_players
        return own if _seat(agent_id) == learner else RANDOM_MODULE


class MatchStats(RLlibCallback):
    """Logs the audit of every finished episode (illegal actions, results against random)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        audit = next((info[AUDIT_KEY] for info in episode.get_infos(-1).values() if AUDIT_KEY in info), None)
        if audit is None:
            raise RuntimeError(
                "an episode ended without the audit of training.rllib_env.AuditedPettingZooEnv in its "
                "last infos; build the env with training.rllib_env.make_rllib_env"
            )
        metrics_logger.log_value("audited_actions", audit["actions"], reduce="sum")
        metrics_logger.log_value("illegal_actions", audit["illegal_actions"], reduce="sum")
        returns = audit["returns"]
        learners = [agent for agent in returns if episode.module_for(agent) != RANDOM_MODULE]
        if len(learners) == 1 and len(returns) > 1:
            mine = returns[learners[0]]
            best_other = max(r for agent, r in returns.items() if agent != learners[0])
            points = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
            metrics_logger.log_value("vs_random_games", 1, reduce="sum")
            metrics_logger.log_value("vs_random_points", points, reduce="sum")


def _is_int(value: Any, low: int) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low


def build_ppo_config(
    env_id: str,
    num_players: int | None = None,
    *,
    policies: str = "shared",
    vs_random: float = 0.5,
    num_env_runners: int = 1,
    num_envs_per_env_runner: int = 4,
    num_learners: int = 0,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    seed: int | None = None,
    env_config: dict[str, Any] | None = None,
    **training: Any,
) -> PPOConfig:
    """A ``PPOConfig`` that trains masked policies on ``env_id`` with ``num_players`` seats.

    ``num_players`` defaults to the env's default; ``policies`` is ``"shared"`` or ``"per-seat"``;
    ``vs_random`` the share of episodes against masked random players; ``hidden`` the hidden layer
    sizes of the policy and value networks; ``env_config`` further ``mystic_envs.make`` keywords;
    ``training`` overrides :data:`PPO_SETTINGS` (any ``PPOConfig.training`` keyword). RLlib's env
    pre-check is off (see ``training.rllib_env``). Raises :class:`RLlibConfigError` for a bad input.
    """
    try:
        mystic_envs.env_module(env_id)
    except (TypeError, ValueError) as exc:
        raise RLlibConfigError(f"env_id: {exc}") from None
    counts = mystic_envs.player_counts(env_id)
    env_config = dict(env_config or {})
    if num_players is None:
        num_players = len(mystic_envs.make_raw(env_id, **env_config).possible_agents)
    if num_players not in counts:
        raise RLlibConfigError(f"num_players must be one of {list(counts)} for {env_id}, got {num_players!r}")
    if policies not in POLICY_MODES:
        raise RLlibConfigError(f"policies must be one of {list(POLICY_MODES)}, got {policies!r}")
    if isinstance(vs_random, bool) or not isinstance(vs_random, numbers.Real) or not 0 <= vs_random <= 1:
        raise RLlibConfigError(f"vs_random must be a number from 0 to 1, got {vs_random!r}")
    for name, value, low in (
        ("num_env_runners", num_env_runners, 0),
        ("num_envs_per_env_runner", num_envs_per_env_runner, 1),
        ("num_learners", num_learners, 0),
    ):
        if not _is_int(value, low):
            raise RLlibConfigError(f"{name} must be an integer >= {low}, got {value!r}")
    if not hidden or not all(_is_int(h, 1) for h in hidden):
        raise RLlibConfigError(f"hidden must be one or more positive layer sizes, got {hidden!r}")
    if seed is not None and not _is_int(seed, 0):
        raise RLlibConfigError(f"seed must be a non-negative integer, got {seed!r}")

    env_config["num_players"] = num_players
    env = mystic_envs.make(env_id, **env_config)
    learners = trained_modules(num_players, policies)

    def spec(module_class: type, agent_id: str, **model_config: Any) -> RLModuleSpec:
        return RLModuleSpec(
            module_class=module_class,
            observation_space=env.observation_space(agent_id),
            action_space=env.action_space(agent_id),
            model_config=model_config,
        )

    hidden = [int(h) for h in hidden]
    specs = {
        m: spec(MaskedPPOModule, "player_0" if m == SHARED_MODULE else m, hidden=hidden) for m in learners
    }
    if vs_random > 0:
        specs[RANDOM_MODULE] = spec(MaskedRandomModule, "player_0")
    register_envs()
    config = (
        PPOConfig()
        .environment(rllib_env_name(env_id), env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner)
        .learners(num_learners=num_learners)
        .multi_agent(
            policies=set(specs),
            policy_mapping_fn=SeatMapping(num_players, policies, float(vs_random)),
            policies_to_train=learners,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(**{**PPO_SETTINGS, **training})
        .callbacks(MatchStats)
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config
