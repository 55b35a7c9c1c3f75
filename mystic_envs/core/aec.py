"""The PettingZoo AEC adapter shared by every game (CONVENTIONS section 3).

A game's ``env.py`` subclasses :class:`MysticAECEnv`, names its ``Game`` class and its
metadata, and writes the module docstring that serves as its documentation page. Everything
about agents, spaces, rewards, illegal actions, truncation, seeding and rendering lives here.
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from mystic_envs.core.errors import GameOverError, IllegalActionError
from mystic_envs.core.game import (
    Game,
    GameState,
    InfoField,
    LayoutEntry,
    check_seed,
    is_integer,
    observation_box,
)
from mystic_envs.core.rng import Rng, fresh_seed

ILLEGAL_ACTION_MODES = ("terminate", "penalize", "raise")
RENDER_MODES = ("ansi", "human")
ENV_KWARGS = ("render_mode", "illegal_action", "illegal_reward", "max_steps", "engine")
#: Where the game runs: the Python engine (the reference, which the heuristics read) or its
#: compiled twin (mystic_envs.core.compiled; equal step for step).
ENGINES = ("python", "c")

#: XORed into an explicit seed to start the stream that seeds the following unseeded resets.
SEED_STREAM_SALT = 0x6A09E667F3BCC908

#: The ``end_reason`` info codes.
END_REASONS = ("running", "game over", "max_steps", "illegal action")
RUNNING, GAME_OVER, MAX_STEPS, ILLEGAL = range(len(END_REASONS))


def common_info_fields(game: Game) -> tuple[InfoField, ...]:
    """The info keys every env has, before the game's own (CONVENTIONS section 3)."""
    n = game.num_players
    return (
        InfoField("phase", (), "int", "the phase or sub-decision to play", tuple(game.PHASE_NAMES)),
        InfoField("scores", (n,), "float32", "each seat's score, in seat order"),
        InfoField("game_over", (), "int", "1 once the episode has ended, however it ended"),
        InfoField("winners", (n,), "int8", "1 for each seat that won by the rules (all 0 otherwise)"),
        InfoField("end_reason", (), "int", "how the episode ended (0 while it runs)", END_REASONS),
        InfoField("illegal_player", (), "int", "seat that played an illegal action on this step, else -1"),
    )


def check_kwargs(env_name: str, game_class: type[Game], kwargs: dict[str, Any]) -> None:
    """``TypeError`` naming the env and what it accepts if ``kwargs`` has a key it does not."""
    accepted = game_keywords(game_class)
    unknown = sorted(k for k in kwargs if k not in accepted)
    if unknown:
        names = ", ".join(repr(k) for k in unknown)
        allowed = ", ".join(ENV_KWARGS + accepted)
        raise TypeError(f"{env_name} got unexpected keyword argument(s) {names}; it accepts: {allowed}")


def game_keywords(game_class: type[Game]) -> tuple[str, ...]:
    """The keyword options of a ``Game`` class (its ``__init__`` parameters)."""
    params = inspect.signature(game_class.__init__).parameters
    return tuple(name for name in params if name != "self")


def check_count(name: str, value: Any, low: int) -> int:
    """``value`` as an ``int`` of at least ``low``: ``TypeError`` if it is no integer, ``ValueError``
    if it is too small."""
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value!r}")
    return int(value)


def coerce_action(action: Any, num_actions: int) -> int:
    """Turn a Python or numpy integer into an ``int`` in ``[0, num_actions)``, or explain why not."""
    if isinstance(action, np.ndarray):
        if action.shape not in ((), (1,)):
            raise TypeError(f"action must be a single integer, got an array of shape {action.shape}")
        action = action.reshape(()).item() if np.issubdtype(action.dtype, np.integer) else action
    if not is_integer(action):
        raise TypeError(
            f"action must be an integer in [0, {num_actions}), got {action!r} of type {type(action).__name__}"
        )
    a = int(action)
    if not 0 <= a < num_actions:
        raise ValueError(f"action {a} is outside the action space Discrete({num_actions})")
    return a


class MysticAECEnv(AECEnv):
    """PettingZoo AEC environment over any :class:`GameState`.

    Keyword arguments shared by every game:

    - ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns a str) or ``"human"`` (prints it).
    - ``illegal_action``: ``"terminate"`` (default: offender -1, others 0, game over, info says why),
      ``"penalize"`` (offender gets ``illegal_reward``, state unchanged, same player to move) or
      ``"raise"`` (:class:`IllegalActionError`).
    - ``illegal_reward``: reward for an illegal action under ``"penalize"`` (default -1.0).
    - ``max_steps``: agent actions (penalized illegal ones included) after which every agent is
      truncated (default per game).
    - ``engine``: ``"python"`` (default) or ``"c"``: the game runs on its compiled twin
      (:mod:`mystic_envs.core.compiled`), equal step for step.

    Every other keyword goes to the game's ``Game`` class, which rejects unknown ones.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "mystic_base",
        "is_parallelizable": False,
    }
    game_class: ClassVar[type[Game]]
    default_max_steps: ClassVar[int] = 10_000

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        engine: str = "python",
        **game_kwargs: Any,
    ) -> None:
        super().__init__()
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, numbers.Real):
            raise TypeError(f"illegal_reward must be a number, got {illegal_reward!r}")
        if max_steps is None:
            max_steps = self.default_max_steps
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = check_count("max_steps", max_steps, 1)
        check_kwargs(self.metadata["name"], self.game_class, game_kwargs)
        self.game: Game = self.game_class(**game_kwargs)
        self.engine = engine
        if engine == "c":
            from mystic_envs.core.compiled import CoreGame  # the core is optional: imported on demand

            self.game = CoreGame(self.game)

        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_layout: tuple[LayoutEntry, ...] = self.game.observation_layout()
        num_actions = self.game.num_actions
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": observation_box(self.observation_layout),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._no_mask = np.zeros(num_actions, dtype=np.int8)
        # PettingZoo's state(): every seat's observation side by side, for centralized critics.
        self.state_space = observation_box(self.observation_layout, copies=n)
        self.info_schema: tuple[InfoField, ...] = common_info_fields(self.game) + self.game.info_fields()
        self.info_names: dict[str, tuple[str, ...]] = {f.name: f.names for f in self.info_schema if f.names}
        #: The offender's own message after an illegal action (infos carry only numbers).
        self.last_illegal_message: str | None = None
        self.game_state: GameState | None = None
        # The current game's state, seed and applied actions: game_history().
        self._history: tuple[GameState, int, list[int]] | None = None
        # The stream that seeds the games of later resets without a seed (see reset()).
        self._seed_stream: Rng | None = None

    # -- spaces and naming -------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def action_meaning(self, action: int) -> str:
        return self.game.action_meaning(coerce_action(action, self.game.num_actions))

    def public_action_meaning(self, action: int) -> str:
        """``action`` as the other players see it played (a secret choice stays secret)."""
        return self.game.public_action_meaning(coerce_action(action, self.game.num_actions))

    # -- reset / observe ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # reset(seed=s) plays the game seeded s itself, so that the batched core's env i, game k
        # (seeded s + i + k*N) is this env's game after reset(seed=s + i + k*N). Later resets
        # without a seed continue from a stream salted away from the game's own.
        if seed is not None:
            game_seed = check_seed(seed)
            self._seed_stream = Rng(game_seed ^ SEED_STREAM_SALT)
        else:
            if self._seed_stream is None:
                self._seed_stream = Rng(fresh_seed())
            game_seed = self._seed_stream.next_u64()
        self.game_state = self.game.new_initial_state(game_seed)
        self._history = (self.game_state, game_seed, [])
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.num_steps = 0
        self._skip_agent_selection = None
        self.last_illegal_message = None
        self._refresh_infos()
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def _require_state(self) -> GameState:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def game_history(self) -> tuple[int, tuple[int, ...]] | None:
        """The current game's seed and every action applied to it since ``reset()``, from which
        the other engine replays the same game (``agents.mcts`` searches on the compiled twin this
        way); ``None`` before ``reset()`` or once ``game_state`` was replaced from outside."""
        if self._history is None or self._history[0] is not self.game_state:
            return None
        return self._history[1], tuple(self._history[2])

    def state(self) -> np.ndarray:
        """A global view (PettingZoo's ``state()``): every seat's observation, in seat order.

        It holds everything some seat may see, hidden cards included, and nothing no seat sees
        (deck order, future dice): for a centralized critic, never for a policy that acts."""
        state = self._require_state()
        return np.concatenate([state.observation(p) for p in range(self.game.num_players)])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        if agent not in self.agent_name_mapping:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        p = self.agent_name_mapping[agent]
        # An agent that has left (step(None) after its end) is no longer in terminations.
        live = agent in self.agents and not (self.terminations[agent] or self.truncations[agent])
        if live and state.current_player == p:
            mask = state.legal_mask().astype(np.int8)
        else:
            mask = self._no_mask.copy()
        return {"observation": state.observation(p), "action_mask": mask}

    # -- step --------------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        state = self._require_state()
        if not self.agents:
            raise GameOverError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(f"the game is over for {agent}: step(None) lets it leave")
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is still playing: step() needs an integer action, not None")
        a = coerce_action(action, self.game.num_actions)
        try:
            state.apply(a)  # checks legality itself; an illegal action leaves the state untouched
        except IllegalActionError:
            self._illegal(agent, a)
            return
        if self._history is not None:
            self._history[2].append(a)
        self._cumulative_rewards[agent] = 0.0
        self.num_steps += 1
        self._clear_rewards()
        if state.is_terminal:
            self._finish(state.returns())
        elif self.num_steps >= self.max_steps:
            self._truncate()
        else:
            self._mark_eliminated(state)
            self._refresh_infos()
            self.agent_selection = self.possible_agents[state.current_player]
            self._deads_step_first()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _truncate(self) -> None:
        for ag in self.agents:
            self.truncations[ag] = True
        self._refresh_infos(MAX_STEPS)

    def _mark_eliminated(self, state: GameState) -> None:
        # Only games with more than two players can lose a seat while the game goes on.
        if self.game.num_players <= 2:
            return
        for ag in self.agents:
            if not self.terminations[ag] and state.player_done(self.agent_name_mapping[ag]):
                self.terminations[ag] = True
                self.rewards[ag] = float(state.returns()[self.agent_name_mapping[ag]])

    def _finish(self, returns: np.ndarray) -> None:
        for ag in self.agents:
            if not self.terminations[ag]:
                self.rewards[ag] = float(returns[self.agent_name_mapping[ag]])
                self.terminations[ag] = True
        self._refresh_infos(GAME_OVER)

    def _illegal(self, agent: str, action: int) -> None:
        state = self._require_state()
        message = state.illegal_message(action)
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        # Infos go to every seat and carry no names: the offender's legal actions, and even the
        # action itself, can name its hidden cards (a Mystria tile it does not hold is one it did
        # not draw). The message stays on the env, for whoever drives it.
        self.last_illegal_message = message
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.illegal_action == "penalize":
            self.rewards[agent] = self.illegal_reward
            # Counted, so a policy stuck on illegal actions still reaches truncation.
            self.num_steps += 1
            if self.num_steps >= self.max_steps:
                self._truncate()
            self.infos[agent] = dict(self.infos[agent], illegal_player=seat)
        else:
            for ag in self.agents:
                self.rewards[ag] = 0.0
                self.terminations[ag] = True
            self.rewards[agent] = -1.0
            self._refresh_infos(ILLEGAL, illegal_player=seat)
        self._accumulate_rewards()

    def _refresh_infos(self, end_reason: int = RUNNING, illegal_player: int = -1) -> None:
        """Every agent's info: the same keys on every step (``info_schema``), numbers only."""
        state = self._require_state()
        engine = state.info()
        winners = np.zeros(self.game.num_players, dtype=np.int8)
        if end_reason == GAME_OVER:
            winners[state.winners()] = 1
        info = {
            "phase": engine.pop("phase"),
            "scores": engine.pop("scores"),
            "game_over": int(end_reason != RUNNING),
            "winners": winners,
            "end_reason": end_reason,
            "illegal_player": illegal_player,
            **engine,
        }
        for ag in self.agents:
            if end_reason == RUNNING and self.terminations[ag]:
                # A seat out of a game that goes on (eliminated): its own episode is over.
                self.infos[ag] = dict(info, game_over=1, end_reason=GAME_OVER)
            else:
                self.infos[ag] = dict(info)

    # -- render / misc -----------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._require_state().describe()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class MysticOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, except that stepping a finished game is an error.

    PettingZoo's wrapper only logs a warning there; CONVENTIONS asks for a clear error.
    """

    def step(self, action: Any) -> None:
        # PettingZoo's step, with the env's attributes read directly instead of through
        # __getattr__ forwarding (twice a step there), and an error where it only warns.
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.env.agents:
            raise GameOverError("the game is over and every agent has left; call reset()")
        self._has_updated = True
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # The inherited last() reads six attributes through two layers of __getattr__ forwarding
        # each step; the env's own last() answers the same in one call (7% of a random-play step).
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the env's agents directly rather than
    through the wrapper's __getattr__ forwarding (twice a step there); the same checks."""

    def __next__(self) -> str:
        env = self.env.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not self.env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self.env._has_updated = False
        return env.agent_selection


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class TurnBasedParallelEnv(turn_based_aec_to_parallel_wrapper):
    """PettingZoo's turn-based parallel view of a mystic env, with the infos kept numeric.

    PettingZoo's wrapper names the mover in ``infos[agent]["active_agent"]`` as a string, and only
    after a step; here it is the mover's seat index, from ``reset()`` on like every other key.
    ``step`` takes a dict of actions and plays only the mover's.
    """

    def _seat_infos(self, infos: dict[str, dict]) -> dict[str, dict]:
        seat = self.aec_env.unwrapped.agent_name_mapping[self.aec_env.agent_selection]
        for info in infos.values():
            info["active_agent"] = seat
        return infos

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        observations, infos = super().reset(seed=seed, options=options)
        return observations, self._seat_infos(infos)

    def step(self, actions: dict[str, Any]) -> tuple[dict, ...]:
        if not self.agents:
            # PettingZoo's wrapper answers this with four dicts, not five.
            return {}, {}, {}, {}, {}
        observations, rewards, terminations, truncations, infos = super().step(actions)
        return observations, rewards, terminations, truncations, self._seat_infos(infos)
