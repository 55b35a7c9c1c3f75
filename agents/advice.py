"""Heuristic advice for MaskablePPO: a residual policy that starts as the heuristic, then departs from it.

On games where a plain policy network never catches up with the rule-based player (Mystria's
multi-action triangle plans, Tarot Dice's capture timing), the learner is handed the heuristic's
choice as an input and as a prior, the way residual policy learning and "kickstarting" do:

- The observation the network sees is the env's vector followed by ``advice``: a one-hot of the
  action the seat's own heuristic would play now (zeros when the seat has no legal action). The
  heuristic decides on the seat's determinized view (``agents.heuristic.base``), so the advice
  carries nothing the seat may not know.
- Soft advice (``softness`` t > 0; games whose heuristic scores its options,
  ``agents.heuristic.SCORED``): every other option gets ``min(TIE, max(0, 1 - gap / t))`` instead,
  ``gap`` how far below its choice the heuristic values it. A one-hot prior is nearly deterministic, so PPO's
  gradient through it is tiny; soft advice starts the policy spread over the options the
  heuristic's model can hardly tell apart, which is where its hand-set constants decide (Tarot
  Dice's ``FIX=0.8`` chose differently in 146 of 3,308 decisions of 30 matches, half of them within
  0.02 of the choice's value, and is worth 8 points against the shipped heuristic).
- :class:`AdvisedPolicy` adds ``advice_weight * advice`` to the actor's logits. Its action head
  starts near zero (SB3's 0.01 gain), so a fresh policy plays the heuristic's move with
  probability ``e^w / (e^w + legal - 1)``; PPO then moves the logits wherever departing wins more.
  (Measured in README, "Training": on Mystria and Tarot Dice PPO either left every decision as
  advised (learning rate 3e-5; and at 1e-4 and 3e-4 with ``training.train --anchor``, the score
  margin in the reward and a warmed-up critic) or drifted to worse ones (1e-4 without the anchor);
  with soft advice it departed in 10-40% of decisions and won no more (48.4% of 1,000 Tarot Dice
  matches in the one run measured that long); it found no departure that wins.)

:class:`Adviser` computes the vector; ``training.train --advice`` trains such a policy and the
``ppo`` agent (``agents.ppo``) recognises one when it loads it and advises it the same way.
The env itself never changes: advice is a property of the learner, not of the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.heuristic import check_softness

__all__ = ["ADVICE_WEIGHT", "TIE", "AdvisedPolicy", "Adviser", "advice_size", "is_advised"]

# The most soft advice gives an option other than the heuristic's choice: an exact tie stays just
# below the choice, so a fresh policy's argmax is the heuristic's move, tie-break included. Mystria
# scores a quarter of its decisions with ties; fresh soft policies that broke them by the network's
# noise scored 45.5% and 47.5% on the 200 evaluation games where the heuristic's tie-break scores 53%.
TIE = 0.99

# ln(3000): with 40 legal actions a fresh policy plays the advice 98.7% of the time, so early
# episodes are heuristic games with about one exploratory departure each, not random noise.
ADVICE_WEIGHT = 8.0


class AdvisedPolicy(MaskableActorCriticPolicy):
    """A ``MaskableActorCriticPolicy`` whose logits get ``advice_weight`` times the observation's advice tail.

    The observation space must be the env's observation plus one entry per action (``Adviser``).
    The feature extractor and both networks see the whole vector, advice included.
    """

    def __init__(
        self, *args: Any, advice_weight: float = ADVICE_WEIGHT, advice_softness: float = 0.0, **kwargs: Any
    ) -> None:
        if (
            isinstance(advice_weight, bool)
            or not isinstance(advice_weight, (int, float))
            or not np.isfinite(advice_weight)
        ):
            raise ValueError(f"advice_weight must be a finite number, got {advice_weight!r}")
        check_softness(advice_softness)
        self.advice_weight = float(advice_weight)
        # Not used by the network: the Adviser that feeds it must encode advice the same way.
        self.advice_softness = float(advice_softness)
        super().__init__(*args, **kwargs)
        n = int(self.action_space.n)
        if self.observation_space.shape[0] <= n:
            raise ValueError(
                f"an advised observation holds the env's vector and {n} advice entries; "
                f"got shape {self.observation_space.shape}"
            )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        # Saved with the model, so a loaded policy has the weight it was trained with.
        return {
            **super()._get_constructor_parameters(),
            "advice_weight": self.advice_weight,
            "advice_softness": self.advice_softness,
        }

    def _distribution(self, obs: Any, latent_pi: Any, action_masks: Any) -> Any:
        advice = obs[..., -int(self.action_space.n) :].float()
        logits = self.action_net(latent_pi) + self.advice_weight * advice
        distribution = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def _latents(self, obs: Any) -> tuple[Any, Any]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        return self.mlp_extractor.forward_actor(features[0]), self.mlp_extractor.forward_critic(features[1])

    # The three ways sb3-contrib builds a distribution, each with the advice added to the logits.
    def forward(
        self, obs: Any, deterministic: bool = False, action_masks: Any = None
    ) -> tuple[Any, Any, Any]:
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._distribution(obs, latent_pi, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), self.value_net(latent_vf), log_prob

    def evaluate_actions(self, obs: Any, actions: Any, action_masks: Any = None) -> tuple[Any, Any, Any]:
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._distribution(obs, latent_pi, action_masks)
        return self.value_net(latent_vf), distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
        features = super(MaskableActorCriticPolicy, self).extract_features(obs, self.pi_features_extractor)
        return self._distribution(obs, self.mlp_extractor.forward_actor(features), action_masks)


def is_advised(policy: Any) -> bool:
    """Whether ``policy`` (or a policy class) expects advised observations."""
    cls = policy if isinstance(policy, type) else type(policy)
    return issubclass(cls, AdvisedPolicy)


def advice_size(env_id: str) -> int:
    """How many entries advice adds to ``env_id``'s observation: one per action."""
    import mystic_envs

    env = mystic_envs.make_raw(env_id)
    return int(env.action_space(env.possible_agents[0]).n)


class Adviser:
    """The heuristic's advice for a seat as a vector, from the agent's own seeded heuristic.

    ``softness=0``: a one-hot of the heuristic's choice. ``softness=t > 0`` (the games in
    ``agents.heuristic.SCORED``): every legal action the heuristic scored gets
    ``min(TIE, max(0, 1 - gap / t))``, ``gap`` its value below the best one (in the heuristic's own
    units: Tarot Dice's match value, -1..1; Mystria's estimated points), so the choice is 1 and
    near-ties are nearly 1 (an exact tie gets ``TIE``: the choice stays the only 1, and departures
    count the decisions that were not it). An ``AdvisedPolicy`` then starts with real probability
    on the options the heuristic's model can hardly tell apart, the ones its hand-set constants
    decide. Decisions the heuristic takes by a fixed order stay one-hot.
    """

    def __init__(self, env_id: str, seed: int | None = None, softness: float = 0.0) -> None:
        from agents import make_agent

        self.env_id = env_id
        self.size = advice_size(env_id)
        self.softness = check_softness(softness, env_id)
        self.heuristic = make_agent("heuristic", env_id, seed=seed)

    def seed(self, seed: int | None) -> None:
        self.heuristic.seed(seed)

    def advise(self, env: Any, agent_id: str) -> np.ndarray:
        """One-hot of the heuristic's action for ``agent_id`` now; zeros if it has nothing to play."""
        advice = np.zeros(self.size, dtype=np.float32)
        raw = env.unwrapped
        if (
            agent_id in raw.agents
            and raw.agent_selection == agent_id
            and not (raw.terminations[agent_id] or raw.truncations[agent_id])
        ):
            if not self.softness:
                advice[self.heuristic.act(env, agent_id)] = 1.0
                return advice
            scores: dict[int, float] = {}
            choice = self.heuristic.act(env, agent_id, scores=scores)
            for action, value in scores.items():
                advice[action] = min(TIE, max(0.0, 1.0 - (scores[choice] - value) / self.softness))
            advice[choice] = 1.0
        return advice

    def observe(self, env: Any, agent_id: str) -> np.ndarray:
        """The advised observation of ``agent_id``: its observation vector followed by the advice."""
        obs = np.asarray(env.observe(agent_id)["observation"], dtype=np.float32)
        return np.concatenate([obs, self.advise(env, agent_id)])
