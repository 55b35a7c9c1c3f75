"""The Tarot Dice heuristic agent (``agents/heuristic/tarot_dice.py``): legal in every sub-decision,
blind to what its seat cannot see, careful with the last pair, strong against random; and mcts
playing Tarot Dice with either rollout."""

from __future__ import annotations

import pickle
from types import SimpleNamespace

import numpy as np
import pytest
from gameplay import play_game

from agents import make_agent
from agents.heuristic import HEURISTICS, ROLLOUT_POLICIES
from agents.heuristic.tarot_dice import TarotDiceHeuristic, decide
from agents.heuristic.tarot_dice_model import ROLL
from mystic_envs.tarot_dice import actions
from mystic_envs.tarot_dice.phases import PH_GAME_OVER, PHASE_NAMES
from mystic_envs.tarot_dice.rules import TarotDiceGame

from .script import action, die_index, position

ENV_ID = "tarot_dice_v0"


def fake_env(state) -> SimpleNamespace:
    """Just what an agent may read of an env: the state (to determinize) and the seats."""
    seats = {"player_0": 0, "player_1": 1}
    return SimpleNamespace(
        unwrapped=SimpleNamespace(game_state=state, agent_name_mapping=seats, metadata={"name": ENV_ID})
    )


def own_view(s, seat: int = 0, seed: int = 0):
    return s.determinize(seat, np.random.default_rng(seed))


def test_registered_for_tarot_dice():
    assert HEURISTICS[ENV_ID] is TarotDiceHeuristic
    assert isinstance(make_agent("heuristic", ENV_ID, seed=0), TarotDiceHeuristic)
    s = TarotDiceGame().new_initial_state(0)
    while not s.is_terminal:
        a = ROLLOUT_POLICIES[ENV_ID](s, np.random.default_rng(0))
        assert a in s.legal_actions()
        s.apply(a)


def test_plays_legal_full_matches_from_both_seats():
    for seed in range(2):
        for names in (("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")):
            players = tuple(make_agent(n, ENV_ID, seed=seed + i) for i, n in enumerate(names))
            rewards, _ = play_game(ENV_ID, players, seed)
            assert sorted(rewards.values()) == [-1.0, 1.0]


def test_answers_every_sub_decision_with_a_legal_action():
    """Random matches (random drafts bring every Major into play) reach each decision; there the
    heuristic, deciding on its own determinized view, picks a legal action."""
    game = TarotDiceGame()
    rng = np.random.default_rng(0)
    asked = dict.fromkeys(range(len(PHASE_NAMES)), 0)
    for seed in range(200):
        s = game.new_initial_state(seed)
        while not s.is_terminal:
            p = s.current_player
            if asked[s.phase] < 6 and len(s.legal_actions()) > 1:
                asked[s.phase] += 1
                a = decide(s.determinize(p, rng), p)
                assert s.is_legal(a), f"{actions.action_meaning(a)} in {s.phase_name}"
            else:
                legal = s.legal_actions()
                a = legal[int(rng.integers(len(legal)))]
            s.apply(a)
    never = [PHASE_NAMES[ph] for ph, n in asked.items() if not n and ph != PH_GAME_OVER]
    assert not never, f"decisions never met: {never}"


def test_decisions_depend_only_on_what_the_seat_sees():
    """Two re-deals of what the seat to move cannot see (the opponent's hidden cards, every
    face-down well card, the undealt cards, future chance) lead to the same decision."""
    rng = np.random.default_rng(1)
    compared = hidden_differed = 0
    for seed in range(30):
        s = TarotDiceGame().new_initial_state(seed)
        for _ in range(int(rng.integers(10, 90))):
            if s.is_terminal:
                break
            p = s.current_player
            s.apply(decide(s.determinize(p, rng), p) if rng.random() < 0.5 else s.legal_actions()[-1])
        if s.is_terminal or len(s.legal_actions()) < 2:
            continue
        seat = s.current_player
        one, two = (s.determinize(seat, np.random.default_rng(k)) for k in (seed, seed + 1000))
        hidden_differed += one.hand[1 - seat] != two.hand[1 - seat] or one.wells != two.wells
        assert decide(one, seat) == decide(two, seat)
        before = pickle.dumps(s)
        agent = TarotDiceHeuristic(seed=seed)
        assert agent.act(fake_env(s), f"player_{seat}") == decide(
            s.determinize(seat, np.random.default_rng(seed)), seat
        )
        assert pickle.dumps(s) == before, "act() changed the true state"
        compared += 1
    assert compared >= 20 and hidden_differed >= 12


def test_takes_the_last_pair():
    s = position(dice=((0, 0, 0, 0, 0, 9), (0, 0, 0, 0, 9, 0)))
    assert decide(own_view(s), 0) == action(0, "capture D20 D12")


@pytest.mark.parametrize("planet", ["Sun", "Venus", "Mars"])
def test_never_hands_the_opponent_the_last_pair(planet):
    # D20 takes D6 would leave the D4 (3) under the D12 (10): the opponent takes the last pair.
    # D4 takes D6 leaves the D20 (15) above the D12, D20 takes D12 the D4 (3) above the D6 (2),
    # and the opponent has no capture that leaves its own last die higher.
    s = position(dice=((3, 0, 0, 0, 0, 15), (0, 2, 0, 0, 10, 0)), planet=planet)
    a = decide(own_view(s), 0)
    assert a != action(0, "capture D20 D6"), actions.action_meaning(a)
    if a < actions.DIE:
        assert a in (action(0, "capture D4 D6"), action(0, "capture D20 D12")), actions.action_meaning(a)


def test_sets_up_the_last_capture_with_a_card():
    # One pair: the D8 (2) cannot take the D10 (9), and no roll of the D8 ever will. A Page on the
    # opponent's D10 turns it to 1: the opponent must then beat the D8 or lose the round.
    s = position(dice=((0, 0, 2, 0, 0, 0), (0, 0, 0, 9, 0, 0)), hands=(["Page of Cups"], []))
    view = own_view(s)
    a = decide(view, 0)
    assert a == action(0, "play Page of Cups")
    view.apply(a)
    assert decide(view, 0) == action(0, "die opp D10")


@pytest.mark.parametrize("king", [True, False])
def test_protects_its_d20_from_a_cheap_capture(king):
    # The opponent's D4 (3) could take the D20, which shows 1; every other pair is an even trade.
    # With a King in hand the D20 goes to 20, out of reach; without, the D20 is rerolled.
    s = position(
        dice=((4, 6, 8, 10, 12, 1), (3, 6, 8, 10, 12, 20)),
        hands=(["King of Cups"] if king else [], []),
    )
    view = own_view(s)
    a = decide(view, 0)
    if king:
        assert a == action(0, "play King of Cups")
        view.apply(a)
        assert decide(view, 0) == action(0, "die my D20")
    else:
        assert a == action(0, "reroll my D20")


def test_beats_random_in_27_of_30_seat_balanced_games():
    wins = 0
    for seed in range(15):
        for seat in (0, 1):
            players = [make_agent("random", ENV_ID, seed=seed)] * 2
            players[seat] = make_agent("heuristic", ENV_ID, seed=seed)
            wins += play_game(ENV_ID, tuple(players), seed)[0][f"player_{seat}"] > 0
    assert wins >= 27, f"the heuristic won only {wins} of 30 games against random"


def test_reproducible_from_its_seed():
    def game() -> list[int]:
        players = (make_agent("heuristic", ENV_ID, seed=4), make_agent("random", ENV_ID, seed=5))
        return play_game(ENV_ID, players, 3)[1]

    assert game() == game()


@pytest.mark.parametrize(
    "kw",
    [{"simulations": 8}, {"simulations": 3, "rollout": "heuristic", "rollout_depth": 3}],
    ids=["random-rollouts", "heuristic-rollouts"],
)
def test_mcts_plays_legal_tarot_dice_matches_from_both_seats(kw):
    mcts = make_agent("mcts", ENV_ID, seed=0, **kw)
    other = make_agent("heuristic", ENV_ID, seed=0)
    for players in ((mcts, other), (other, mcts)):
        rewards, _ = play_game(ENV_ID, players, 0)
        assert sorted(rewards.values()) == [-1.0, 1.0]


def test_models_the_opponents_knight_banish_in_its_own_planet_phase():
    """The opponent's Knight banished this player's D4 (showing 2) until the opponent's next turn,
    so this turn's South Node rerolls only the opponent's D6 showing 1 (the rules agree, below);
    the model plays the Planet phase out on that die, not on the banished D4."""
    from agents.heuristic.tarot_dice import Decider

    def table(rolls=()):
        s = position(
            dice=((2, 0, 0, 0, 0, 15), (0, 1, 0, 0, 5, 0)), planet="South Node", zodiac="Cancer", rolls=rolls
        )
        s.knight_ban[1] = 1 << die_index(0, "D4")
        return s

    s = table(rolls=(15, 6))  # the D20's reroll, then the South Node's roll
    s.apply(action(0, "reroll my D20"))
    assert s.value[die_index(1, "D6")] == 6 and s.value[die_index(0, "D4")] == 2

    dec = Decider(own_view(table()), 0)
    model, board = dec.model, dec.board
    assert not dec.ban >> die_index(0, "D4") & 1  # the banish ends before the opponent's turn
    d6 = die_index(1, "D6")
    expected = sum(
        w * model.static([f if d == d6 else v for d, v in enumerate(dec.vals)], board, dec.ban)
        for f, w in model._roll_faces(dec.vals, d6, ROLL)
    )
    assert dec.base() == pytest.approx(expected)


def test_values_a_table_and_its_seat_mirror_alike():
    """The South Node rolls four dice here, more than the model spreads: it keeps two rolling and
    stands the rest at their middle face. Those two are the mover's own, so player_1 on the mirrored
    table values every action as player_0 does (die order would have spread player_0's dice)."""
    dice = ((1, 2, 5, 6, 7, 15), (2, 1, 5, 6, 7, 14))
    views = [
        position(dice=dice[::sign], planet="South Node", zodiac="Aquarius", to_move=seat)
        for seat, sign in ((0, 1), (1, -1))
    ]
    scores: list[dict[int, float]] = [{}, {}]
    chosen = [decide(own_view(s, seat), seat, scores[seat]) for seat, s in enumerate(views)]
    assert chosen[0] == chosen[1]
    assert len(scores[0]) > 20 and scores[0].keys() == scores[1].keys()
    assert all(scores[0][a] == pytest.approx(scores[1][a], abs=1e-12) for a in scores[0])
