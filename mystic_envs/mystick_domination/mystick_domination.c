/* Mystick Domination, compiled: the twin of mystic_envs/mystick_domination/rules.py (with
 * decisions.py, effects.py, knowledge.py and observation.py), equal to it step for step
 * (CONVENTIONS section 8).
 *
 * No card data lives here: every card's suit, rank, type, influence, traits, trigger and effect
 * rows (opcode, amount, target) come from Python at start through the me_table list (twin.py
 * core_tables()), so a rebalanced card set reaches the twin unchanged; the ids below (opcodes,
 * targets, triggers, phases, continuations) are checked against Python's in dims() through the
 * "consts" table. The state is one flat struct without pointers. Every function carries the name
 * of the Python method it mirrors and draws from the generator in the same order with the same
 * calls. Lists the Python engine keeps as multisets (who noted which card) are counts here; lists
 * whose order shows (decks, discard piles, Attachments, queued effects) keep their order. */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* ---- sizes and ids (checked against twin.py's "consts" in dims) ------------------------------- */
#define NUM_CARDS 78
#define NUM_MINORS 56
#define NUM_MAJORS 22
#define NUM_RANKS 14
#define CROSS_SPACES 8
#define MAX_PAWNS 10
#define DECK_SIZE 39
#define OPENING_HAND 6
#define ROUND_DRAWS 3
#define MAJORS_PER_DECK 11
#define SUIT_CARDS_PER_DECK 14
#define MAX_COPIES_ADVANCED 3
enum { ENVIRONMENT, PAWN, ATTACHMENT, ACTION, MAJOR };
enum { AGGRESSION = 1, PRESENCE = 2, IMMUNITY = 4, RESOURCES = 8 };
enum {
    ON_PLAY, FATE, STATIC, SPECIAL_MOVE, AFTER_NEXT_INITIATIVE, AFTER_EACH_INITIATIVE, WHEN_CHALLENGES,
    WHEN_CHALLENGED, TRIG_NONE, WHEN_WINS
};
enum {
    SCORE, SCORE_PER_CROSS_MAJOR, LOSE_SCORE, POWER_FROM_POOL, POWER_CREATE, POWER_DESTROY, POWER_TO_POOL,
    KILL, DRAW_COUNT, DRAW, MILL, RECOVER, PEEK, FLOOD, CLEAR_CROSS, SUCCESS, EXTRA_MOVE, MOVE_FIRST,
    INFLUENCE, GRANT_TRAIT, TRAIT_INFLUENCE, NUM_OPS
};
enum {
    T_NONE, T_OWN_PAWN_ROOM, T_PAWN_WITH_POWER, T_ENEMY_PAWN, T_OPPONENT, T_EACH_OPPONENT, T_ANY_PLAYER,
    T_CHALLENGER, T_CHALLENGE_TARGET, T_ATTACHED, T_SELF, T_OWN_PAWN_EMPTY
};
enum { PH_MOVE, PH_RESOURCES, PH_CHALLENGE_TARGET, PH_ATTACH_TARGET, PH_EFFECT_TARGET, PH_REDRAW, PH_ORDER, PH_GAME_OVER, NUM_PHASES };
enum { CONT_END_MOVE, CONT_FATE_DRAW, CONT_FINISH_CHALLENGE, CONT_START_MOVES };
enum { PLAY_ALWAYS, PLAY_PAWN, PLAY_ATTACHMENT, PLAY_IF_USABLE, PLAY_NEVER };
#define MAX_EXTRA MAX_PAWNS
#define REGISTER (-1)
#define PAWN_HEAD 13
#define CROSS_FEATURES 10
#define SEAT_SCALARS 9
#define MAX_ROWS 4

enum {
    C_NUM_CARDS, C_NUM_MINORS, C_NUM_MAJORS, C_NUM_RANKS, C_CROSS_SPACES, C_MAX_PAWNS, C_DECK_SIZE,
    C_OPENING_HAND, C_ROUND_DRAWS, C_MAJORS_PER_DECK, C_SUIT_CARDS_PER_DECK, C_MAX_COPIES_ADVANCED,
    C_ENVIRONMENT, C_PAWN, C_ATTACHMENT, C_ACTION, C_MAJOR, C_AGGRESSION, C_PRESENCE, C_IMMUNITY,
    C_RESOURCES, C_ON_PLAY, C_FATE, C_STATIC, C_SPECIAL_MOVE, C_AFTER_NEXT, C_AFTER_EACH, C_WHEN_CHALLENGES,
    C_WHEN_CHALLENGED, C_NONE, C_WHEN_WINS, C_SCORE, C_SCORE_PER_CROSS_MAJOR, C_LOSE_SCORE,
    C_POWER_FROM_POOL, C_POWER_CREATE, C_POWER_DESTROY, C_POWER_TO_POOL, C_KILL, C_DRAW_COUNT, C_DRAW,
    C_MILL, C_RECOVER, C_PEEK, C_FLOOD, C_CLEAR_CROSS, C_SUCCESS, C_EXTRA_MOVE, C_MOVE_FIRST, C_INFLUENCE,
    C_GRANT_TRAIT, C_TRAIT_INFLUENCE, C_NUM_OPS, C_T_NONE, C_T_OWN_PAWN_ROOM, C_T_PAWN_WITH_POWER,
    C_T_ENEMY_PAWN, C_T_OPPONENT, C_T_EACH_OPPONENT, C_T_ANY_PLAYER, C_T_CHALLENGER, C_T_CHALLENGE_TARGET,
    C_T_ATTACHED, C_T_SELF, C_T_OWN_PAWN_EMPTY, C_MOVE, C_RESOURCES_CHOICE, C_CHALLENGE_TARGET,
    C_ATTACH_TARGET, C_EFFECT_TARGET, C_REDRAW, C_ORDER, C_GAME_OVER, C_NUM_PHASES, C_CONT_END_MOVE,
    C_CONT_FATE_DRAW, C_CONT_FINISH_CHALLENGE, C_CONT_START_MOVES, C_PLAY_ALWAYS, C_PLAY_PAWN,
    C_PLAY_ATTACHMENT, C_PLAY_IF_USABLE, C_PLAY_NEVER, C_MAX_EXTRA, C_REGISTER, C_PAWN_HEAD,
    C_CROSS_FEATURES, C_SEAT_SCALARS, C_MAX_ROWS,
    /* numbers, read from here */
    C_N_ENV, C_N_ATT, C_N_DELAYED, C_N_SPECIAL, C_SCORE_CAP, C_DELAYED_CAP, NUM_CONSTS
};
static const int32_t EXPECTED[C_N_ENV] = {
    NUM_CARDS, NUM_MINORS, NUM_MAJORS, NUM_RANKS, CROSS_SPACES, MAX_PAWNS, DECK_SIZE, OPENING_HAND,
    ROUND_DRAWS, MAJORS_PER_DECK, SUIT_CARDS_PER_DECK, MAX_COPIES_ADVANCED, ENVIRONMENT, PAWN, ATTACHMENT,
    ACTION, MAJOR, AGGRESSION, PRESENCE, IMMUNITY, RESOURCES, ON_PLAY, FATE, STATIC, SPECIAL_MOVE,
    AFTER_NEXT_INITIATIVE, AFTER_EACH_INITIATIVE, WHEN_CHALLENGES, WHEN_CHALLENGED, TRIG_NONE, WHEN_WINS,
    SCORE, SCORE_PER_CROSS_MAJOR, LOSE_SCORE, POWER_FROM_POOL, POWER_CREATE, POWER_DESTROY, POWER_TO_POOL,
    KILL, DRAW_COUNT, DRAW, MILL, RECOVER, PEEK, FLOOD, CLEAR_CROSS, SUCCESS, EXTRA_MOVE, MOVE_FIRST,
    INFLUENCE, GRANT_TRAIT, TRAIT_INFLUENCE, NUM_OPS, T_NONE, T_OWN_PAWN_ROOM, T_PAWN_WITH_POWER,
    T_ENEMY_PAWN, T_OPPONENT, T_EACH_OPPONENT, T_ANY_PLAYER, T_CHALLENGER, T_CHALLENGE_TARGET, T_ATTACHED,
    T_SELF, T_OWN_PAWN_EMPTY, PH_MOVE, PH_RESOURCES, PH_CHALLENGE_TARGET, PH_ATTACH_TARGET,
    PH_EFFECT_TARGET, PH_REDRAW, PH_ORDER, PH_GAME_OVER, NUM_PHASES, CONT_END_MOVE, CONT_FATE_DRAW,
    CONT_FINISH_CHALLENGE, CONT_START_MOVES, PLAY_ALWAYS, PLAY_PAWN, PLAY_ATTACHMENT, PLAY_IF_USABLE,
    PLAY_NEVER, MAX_EXTRA, REGISTER, PAWN_HEAD, CROSS_FEATURES, SEAT_SCALARS, MAX_ROWS,
};

/* ---- component tables, filled from twin.py core_tables() --------------------------------------- */
static int32_t T_SUIT[NUM_CARDS], T_RANK[NUM_CARDS], T_TYPE[NUM_CARDS], T_NUMBER[NUM_CARDS];
static int32_t T_INFLUENCE[NUM_CARDS], T_TRAITS[NUM_CARDS], T_TRIGGER[NUM_CARDS], T_NUM_EFFECTS[NUM_CARDS];
static int32_t T_EFF_OP[NUM_CARDS * MAX_ROWS], T_EFF_AMOUNT[NUM_CARDS * MAX_ROWS], T_EFF_TARGET[NUM_CARDS * MAX_ROWS];
static int32_t T_ATT_INFLUENCE[NUM_CARDS], T_ATT_TRAIT[NUM_CARDS];
static int32_t T_ENV_TRAIT[NUM_CARDS], T_ENV_TRAIT_AMOUNT[NUM_CARDS]; /* trait bit 0: none */
static int32_t T_PLAY_KIND[NUM_CARDS], T_SPECIAL_INDEX[NUM_CARDS], T_SPECIAL_CARDS[NUM_CARDS];
static int32_t T_ENV_INDEX[NUM_CARDS], T_ATT_INDEX[NUM_CARDS], T_DELAYED_INDEX[NUM_CARDS];
static int32_t T_POOL_BY_PLAYERS[6], T_OBS_SIZE[6], T_POOL_CAP[6];
static int32_t T_CONSTS[NUM_CONSTS];

static const me_table TABLES[] = {
    {"suit", T_SUIT, NUM_CARDS},
    {"rank", T_RANK, NUM_CARDS},
    {"type", T_TYPE, NUM_CARDS},
    {"number", T_NUMBER, NUM_CARDS},
    {"influence", T_INFLUENCE, NUM_CARDS},
    {"traits", T_TRAITS, NUM_CARDS},
    {"trigger", T_TRIGGER, NUM_CARDS},
    {"num_effects", T_NUM_EFFECTS, NUM_CARDS},
    {"eff_op", T_EFF_OP, NUM_CARDS * MAX_ROWS},
    {"eff_amount", T_EFF_AMOUNT, NUM_CARDS * MAX_ROWS},
    {"eff_target", T_EFF_TARGET, NUM_CARDS * MAX_ROWS},
    {"att_influence", T_ATT_INFLUENCE, NUM_CARDS},
    {"att_trait", T_ATT_TRAIT, NUM_CARDS},
    {"env_trait", T_ENV_TRAIT, NUM_CARDS},
    {"env_trait_amount", T_ENV_TRAIT_AMOUNT, NUM_CARDS},
    {"play_kind", T_PLAY_KIND, NUM_CARDS},
    {"special_index", T_SPECIAL_INDEX, NUM_CARDS},
    {"special_cards", T_SPECIAL_CARDS, NUM_CARDS},
    {"env_index", T_ENV_INDEX, NUM_CARDS},
    {"att_index", T_ATT_INDEX, NUM_CARDS},
    {"delayed_index", T_DELAYED_INDEX, NUM_CARDS},
    {"pool_by_players", T_POOL_BY_PLAYERS, 6},
    {"obs_size", T_OBS_SIZE, 6},
    {"pool_cap", T_POOL_CAP, 6},
    {"consts", T_CONSTS, NUM_CONSTS},
};

#define IS_MAJOR(c) (T_TYPE[c] == MAJOR)
#define N_ENV (T_CONSTS[C_N_ENV])
#define N_ATT (T_CONSTS[C_N_ATT])
#define N_DELAYED (T_CONSTS[C_N_DELAYED])
#define N_SPECIAL (T_CONSTS[C_N_SPECIAL])

/* Room for every card a place can hold: a seat owns 39 cards; up to 3 copies of a card in an
 * advanced deck make at most 18 Attachments and 12 Environments a seat. */
#define MAXP ME_MAX_PLAYERS
#define ATT_MAX (MAXP * 18)
#define ENVS_MAX 12
#define LIST_MAX (MAXP * DECK_SIZE)
/* The options (twin.core_options): construction, reshuffle, then from OPT_DECKS on each seat's deck
 * as DECK_SIZE card ids in the Python engine's order, or DECK_SIZE times RANDOM_DECK. */
#define OPT_DECKS 2
#define RANDOM_DECK (-1)
_Static_assert(OPT_DECKS + MAXP * DECK_SIZE <= ME_MAX_OPTIONS, "me_config.options holds every seat's deck");
/* Effects waiting for the next initiative draw: one per card played or drawn as Fate this round.
 * A card can come back within a round (shuffled back, drawn again), so nothing in the rules bounds
 * them; twice every card of the table is far beyond any game met, and past it a registration is
 * dropped rather than written out of bounds. */
#define DELAYED_MAX (2 * LIST_MAX)
#define GROUPS_MAX (DELAYED_MAX + MAXP * ENVS_MAX + ATT_MAX)
#define QUEUE_MAX (CROSS_SPACES * MAX_ROWS + 2 * MAX_ROWS)
#define CHOICE_MAX (MAXP * MAX_PAWNS)

typedef struct {
    uint8_t card, owner, seat, slot;
} att_t;
typedef struct {
    uint8_t owner, card;
} oc_t;
typedef struct {
    uint8_t owner, card;
    int8_t k; /* an effect row, or REGISTER */
} qent_t;

typedef struct {
    me_rng rng;
    int8_t n, advanced, lists_public;
    int8_t phase, player, mover, first_mover, initiative_winner, extra_move, cont;
    int8_t resolving, pending_card, resources_max;
    int8_t ch_slot, ch_card, ch_tseat, ch_tslot, ch_tcard;
    uint8_t fate, marked; /* cross spaces as bits */
    int16_t clock, delayed_n, queue_n, groups_n, choice_n, att_n;
    int32_t pool, pool_start, power_removed, power_created, draw_count, round, ch_bonus, notes;
    int32_t score[MAXP];
    int16_t out_time[MAXP];
    int8_t alive[MAXP], placement[MAXP];
    uint8_t deck_n[MAXP], discard_n[MAXP], hand_size[MAXP], envs_n[MAXP], known_top[MAXP];
    uint8_t looked[MAXP][MAXP];
    uint8_t deck[MAXP][DECK_SIZE]; /* top last */
    uint8_t discard[MAXP][DECK_SIZE];
    uint8_t hand[MAXP][NUM_CARDS], shown[MAXP][NUM_CARDS];
    uint8_t recalled[MAXP][NUM_CARDS];
    uint8_t noted[MAXP][MAXP][NUM_CARDS];
    int8_t cross[MAXP][CROSS_SPACES];
    int8_t pawn[MAXP][MAX_PAWNS], power[MAXP][MAX_PAWNS], infl[MAXP][MAX_PAWNS];
    uint8_t traits[MAXP][MAX_PAWNS];
    uint8_t envs[MAXP][ENVS_MAX];
    att_t att[ATT_MAX]; /* every Attachment in play, in the order attached */
    oc_t delayed[DELAYED_MAX];
    qent_t queue[QUEUE_MAX];
    oc_t groups[GROUPS_MAX]; /* runs of one owner each: the groups of simultaneous effects */
    int8_t choice[CHOICE_MAX];
} st_t;

static inline int popcount8(unsigned v) {
    int k = 0;
    for (; v; v &= v - 1) k++;
    return k;
}
static inline int eff_op(int c, int k) { return T_EFF_OP[c * MAX_ROWS + k]; }
static inline int eff_amount(int c, int k) { return T_EFF_AMOUNT[c * MAX_ROWS + k]; }
static inline int eff_target(int c, int k) { return T_EFF_TARGET[c * MAX_ROWS + k]; }
/* Python's negative index: a seat -1 is the last seat (a row whose target names no seat). */
static inline int seat_index(const st_t *s, int q) { return q < 0 ? q + s->n : q; }

/* ---- the action layout (decisions.ActionLayout) ------------------------------------------------- */
#define A_DRAW NUM_CARDS
#define A_EXTRA (A_DRAW + 1)
#define A_CHALLENGER (A_EXTRA + MAX_EXTRA + 1)
#define A_POOL (A_CHALLENGER + MAX_PAWNS)
#define A_PAWN (A_POOL + 1)
#define A_PLAYER(n) (A_PAWN + (n) * MAX_PAWNS)
#define A_MARK(n) (A_PLAYER(n) + (n))
#define A_DONE(n) (A_MARK(n) + CROSS_SPACES)
#define A_SPECIAL(n) (A_DONE(n) + 1)
#define NUM_ACTIONS(n) (A_SPECIAL(n) + N_SPECIAL)

/* ---- knowledge (knowledge.KnowledgeMixin) -------------------------------------------------------- */
static void note(st_t *s, int p, int q, int c) {
    s->noted[p][q][c]++;
    s->notes++;
}
static void unnote(st_t *s, int p, int q, int c) {
    if (s->noted[p][q][c]) {
        s->noted[p][q][c]--;
        s->notes--;
    }
}
static void recall(st_t *s, int q, int c) {
    s->recalled[q][c]++;
    s->notes++;
}
static void surface(st_t *s, int q, int c) {
    if (s->recalled[q][c]) {
        s->recalled[q][c]--;
        s->notes--;
    }
    for (int p = 0; p < s->n; p++)
        if (p != q) unnote(s, p, q, c);
}
static void show_in_hand(st_t *s, int q, int c) {
    if (s->shown[q][c] < s->hand[q][c]) {
        s->shown[q][c]++;
        if (s->notes) surface(s, q, c);
    }
}

/* ---- card movement (rules.py) ------------------------------------------------------------------- */
static inline void discard_push(st_t *s, int q, int c) { s->discard[q][s->discard_n[q]++] = (uint8_t)c; }

static int take_top(st_t *s, int q, int hidden) {
    int c = s->deck[q][--s->deck_n[q]];
    if (s->known_top[q] || s->notes) {
        if (s->known_top[q]) s->known_top[q]--;
        for (int p = 0; p < s->n; p++) {
            if (p == q) continue;
            if (s->looked[p][q]) {
                s->looked[p][q]--;
                if (hidden) note(s, p, q, c);
            } else if (!hidden) {
                unnote(s, p, q, c);
            }
        }
        if (!hidden && s->recalled[q][c]) {
            s->recalled[q][c]--;
            s->notes--;
        }
    }
    return c;
}

static void draw_to_hand(st_t *s, int q, int k) {
    for (int i = 0; i < k; i++) {
        while (s->deck_n[q]) {
            int c = take_top(s, q, !IS_MAJOR(s->deck[q][s->deck_n[q] - 1]));
            if (IS_MAJOR(c)) {
                discard_push(s, q, c);
                continue;
            }
            s->hand[q][c]++;
            s->hand_size[q]++;
            break;
        }
    }
}

static void from_hand(st_t *s, int q, int c) {
    s->hand[q][c]--;
    s->hand_size[q]--;
    if (s->shown[q][c])
        s->shown[q][c]--;
    else if (s->notes)
        surface(s, q, c);
}

static void refresh_pawns(st_t *s) {
    for (int q = 0; q < s->n; q++) {
        for (int slot = 0; slot < MAX_PAWNS; slot++) {
            int c = s->pawn[q][slot];
            if (c < 0) continue;
            int infl = T_INFLUENCE[c], traits = T_TRAITS[c];
            for (int i = 0; i < s->att_n; i++) {
                const att_t *a = &s->att[i];
                if (a->seat == q && a->slot == slot) {
                    infl += T_ATT_INFLUENCE[a->card];
                    traits |= T_ATT_TRAIT[a->card];
                }
            }
            for (int e = 0; e < s->envs_n[q]; e++) {
                int ec = s->envs[q][e];
                if (traits & T_ENV_TRAIT[ec]) infl += T_ENV_TRAIT_AMOUNT[ec];
            }
            if (infl < 0) infl = 0;
            s->infl[q][slot] = (int8_t)infl;
            s->traits[q][slot] = (uint8_t)traits;
            if (s->power[q][slot] > infl) {
                s->pool += s->power[q][slot] - infl;
                s->power[q][slot] = (int8_t)infl;
            }
        }
    }
}

static void remove_pawn(st_t *s, int q, int slot) {
    s->pool += s->power[q][slot];
    s->power[q][slot] = 0;
    int kept = 0;
    for (int i = 0; i < s->att_n; i++) {
        att_t a = s->att[i];
        if (a.seat == q && a.slot == slot)
            discard_push(s, a.owner, a.card);
        else
            s->att[kept++] = a;
    }
    s->att_n = (int16_t)kept;
    discard_push(s, q, s->pawn[q][slot]);
    s->pawn[q][slot] = -1;
    refresh_pawns(s);
}

static int place_in_cross(st_t *s, int q, int card) {
    for (int j = 0; j < CROSS_SPACES; j++) {
        if (s->cross[q][j] < 0) {
            s->cross[q][j] = (int8_t)card;
            return j;
        }
    }
    discard_push(s, q, card);
    return -1;
}

static void clear_cross(st_t *s, int q) {
    for (int j = 0; j < CROSS_SPACES; j++) {
        if (s->cross[q][j] >= 0) {
            discard_push(s, q, s->cross[q][j]);
            s->cross[q][j] = -1;
        }
    }
}

static void clear_challenge(st_t *s) {
    s->ch_slot = s->ch_card = -1;
    s->ch_tseat = s->ch_tslot = s->ch_tcard = -1;
    s->ch_bonus = 0;
    s->fate = s->marked = 0;
}

/* _finish_game */
static void finish_game(st_t *s) {
    int key[MAXP][3];
    for (int q = 0; q < s->n; q++) {
        if (s->alive[q]) {
            key[q][0] = 1;
            key[q][1] = s->score[q];
            key[q][2] = s->deck_n[q];
        } else {
            key[q][0] = 0;
            key[q][1] = s->out_time[q];
            key[q][2] = 0;
        }
    }
    for (int q = 0; q < s->n; q++) {
        int above = 0;
        for (int r = 0; r < s->n; r++) {
            int cmp = 0;
            for (int i = 0; i < 3 && !cmp; i++) cmp = (key[r][i] > key[q][i]) - (key[r][i] < key[q][i]);
            above += cmp > 0;
        }
        s->placement[q] = (int8_t)above;
    }
    s->phase = PH_GAME_OVER;
    s->player = -1;
    s->queue_n = s->groups_n = s->choice_n = 0;
    s->resources_max = 0;
    if (s->resolving >= 0) {
        discard_push(s, s->mover, s->resolving);
        s->resolving = -1;
    }
    clear_challenge(s);
}

/* _check_out */
static void check_out(st_t *s) {
    int out[MAXP], k = 0;
    for (int q = 0; q < s->n; q++)
        if (s->alive[q] && !s->deck_n[q]) out[k++] = q;
    if (!k) return;
    s->clock++;
    for (int i = 0; i < k; i++) {
        s->alive[out[i]] = 0;
        s->out_time[out[i]] = s->clock;
    }
    for (int i = 0; i < k; i++) {
        int q = out[i];
        for (int slot = 0; slot < MAX_PAWNS; slot++)
            if (s->pawn[q][slot] >= 0) remove_pawn(s, q, slot);
        for (int e = 0; e < s->envs_n[q]; e++) discard_push(s, q, s->envs[q][e]);
        s->envs_n[q] = 0;
        for (int r = 0; r < s->n; r++) {
            for (int slot = 0; slot < MAX_PAWNS; slot++) {
                int kept = 0;
                for (int j = 0; j < s->att_n; j++) {
                    att_t a = s->att[j];
                    if (a.seat == r && a.slot == slot && a.owner == q)
                        discard_push(s, q, a.card);
                    else
                        s->att[kept++] = a;
                }
                s->att_n = (int16_t)kept;
            }
        }
        clear_cross(s, q);
    }
    refresh_pawns(s);
    int kept = 0;
    for (int i = 0; i < s->delayed_n; i++)
        if (s->alive[s->delayed[i].owner]) s->delayed[kept++] = s->delayed[i];
    s->delayed_n = (int16_t)kept;
    int alive = 0;
    for (int q = 0; q < s->n; q++) alive += s->alive[q];
    if (alive <= 1) finish_game(s);
}

static int next_alive(const st_t *s, int q) {
    for (int k = 1; k <= s->n; k++) {
        int r = (q + k) % s->n;
        if (s->alive[r]) return r;
    }
    return -1;
}

static int resources(const st_t *s, int q) {
    int k = 0;
    for (int slot = 0; slot < MAX_PAWNS; slot++)
        if (s->pawn[q][slot] >= 0 && (s->traits[q][slot] & RESOURCES)) k++;
    return k;
}

/* challenge_targets: pawn codes (seat * MAX_PAWNS + slot), -1 for the pool first */
static int challenge_targets(const st_t *s, int q, int slot, int pawns_only, int *out) {
    int rank = T_RANK[s->pawn[q][slot]], k = 0;
    if (!pawns_only && s->pool) out[k++] = -1;
    for (int r = 0; r < s->n; r++) {
        if (r == q || !s->alive[r]) continue;
        for (int t = 0; t < MAX_PAWNS; t++) {
            int c = s->pawn[r][t];
            if (c >= 0 && s->power[r][t] && T_RANK[c] <= rank) {
                out[k++] = r * MAX_PAWNS + t;
                if (pawns_only) return k;
            }
        }
    }
    return k;
}

/* ---- effects (effects.EffectsMixin) ------------------------------------------------------------ */
#define NO_CHOICE (-1)
/* effect_targets: the number of legal choices written to out, or NO_CHOICE */
static int effect_targets(const st_t *s, int owner, int t, int *out) {
    if (t == T_OWN_PAWN_ROOM || t == T_PAWN_WITH_POWER || t == T_ENEMY_PAWN || t == T_OWN_PAWN_EMPTY) {
        int k = 0;
        for (int q = 0; q < s->n; q++) {
            if (!s->alive[q] || (t == T_ENEMY_PAWN && q == owner) ||
                ((t == T_OWN_PAWN_ROOM || t == T_OWN_PAWN_EMPTY) && q != owner))
                continue;
            for (int slot = 0; slot < MAX_PAWNS; slot++) {
                if (s->pawn[q][slot] < 0) continue;
                int power = s->power[q][slot], infl = s->infl[q][slot];
                if (t == T_OWN_PAWN_ROOM && power >= infl) continue;
                if (t == T_OWN_PAWN_EMPTY && (power > 0 || infl <= 0)) continue;
                if (t == T_PAWN_WITH_POWER && power == 0) continue;
                out[k++] = q * MAX_PAWNS + slot;
            }
        }
        return k;
    }
    if (t == T_OPPONENT || t == T_ANY_PLAYER) {
        int k = 0;
        for (int q = 0; q < s->n; q++)
            if (s->alive[q] && (t == T_ANY_PLAYER || q != owner)) out[k++] = q;
        return k;
    }
    return NO_CHOICE;
}

static int cross_empty(const st_t *s, int q) {
    for (int j = 0; j < CROSS_SPACES; j++)
        if (s->cross[q][j] >= 0) return 0;
    return 1;
}

static int effect_usable(const st_t *s, int owner, int card) {
    int buf[CHOICE_MAX];
    int rows = T_NUM_EFFECTS[card];
    for (int k = 0; k < rows; k++)
        if (effect_targets(s, owner, eff_target(card, k), buf) == 0) return 0;
    for (int k = 0; k < rows; k++) {
        int op = eff_op(card, k);
        if (op == DRAW_COUNT && eff_amount(card, k) < 0 && s->draw_count == 0) return 0;
        if (op == CLEAR_CROSS && eff_target(card, k) == T_NONE && cross_empty(s, owner)) return 0;
        if (op == POWER_FROM_POOL && s->pool == 0) return 0;
        if (op == RECOVER && !s->discard_n[owner]) return 0;
    }
    return 1;
}

/* _seats: the players a player-targeted row acts on */
static int row_seats(const st_t *s, int owner, int t, int target, int *out) {
    if (t == T_EACH_OPPONENT) {
        int k = 0;
        for (int q = 0; q < s->n; q++)
            if (q != owner && s->alive[q]) out[k++] = q;
        return k;
    }
    out[0] = t == T_SELF ? owner : seat_index(s, target);
    return 1;
}

/* _pawn_target: 0 if that Pawn is gone */
static int pawn_target(const st_t *s, int t, int target, int *q, int *slot) {
    if (t == T_CHALLENGER) {
        if (s->ch_slot < 0 || s->pawn[s->mover][s->ch_slot] != s->ch_card) return 0;
        *q = s->mover;
        *slot = s->ch_slot;
        return 1;
    }
    if (t == T_CHALLENGE_TARGET) {
        if (s->ch_tseat < 0 || s->pawn[s->ch_tseat][s->ch_tslot] != s->ch_tcard) return 0;
        *q = s->ch_tseat;
        *slot = s->ch_tslot;
        return 1;
    }
    /* divmod as Python's: a code of -1 is the last seat's last slot */
    int qq = target >= 0 ? target / MAX_PAWNS : -1, ss = target >= 0 ? target % MAX_PAWNS : MAX_PAWNS + target;
    qq = seat_index(s, qq);
    if (s->pawn[qq][ss] < 0) return 0;
    *q = qq;
    *slot = ss;
    return 1;
}

static void shuffle_deck(st_t *s, int q) {
    uint8_t *d = s->deck[q];
    for (int i = s->deck_n[q] - 1; i > 0; i--) {
        int j = (int)me_rng_below(&s->rng, (uint64_t)i + 1);
        uint8_t t = d[i];
        d[i] = d[j];
        d[j] = t;
    }
}

/* resolve_effect: effects.EffectsMixin's, wrapped by knowledge.KnowledgeMixin's */
static void resolve_effect(st_t *s, int owner, int card, int k, int target) {
    int op = eff_op(card, k), amount = eff_amount(card, k), t = eff_target(card, k);
    int seats[MAXP], ns, q, slot;
    switch (op) {
    case SCORE:
        s->score[owner] += amount;
        break;
    case SCORE_PER_CROSS_MAJOR: {
        int m = 0;
        for (int j = 0; j < CROSS_SPACES; j++)
            if (s->cross[owner][j] >= 0 && IS_MAJOR(s->cross[owner][j])) m++;
        s->score[owner] += amount * m;
        break;
    }
    case LOSE_SCORE:
        ns = row_seats(s, owner, t, target, seats);
        for (int i = 0; i < ns; i++) {
            int v = s->score[seats[i]] - amount;
            s->score[seats[i]] = v > 0 ? v : 0;
        }
        break;
    case POWER_FROM_POOL:
    case POWER_CREATE:
    case POWER_DESTROY:
    case POWER_TO_POOL: {
        if (!pawn_target(s, t, target, &q, &slot)) break;
        int room = s->infl[q][slot] - s->power[q][slot], power = s->power[q][slot], m;
        if (op == POWER_FROM_POOL) {
            m = amount < s->pool ? amount : s->pool;
            if (room < m) m = room;
            s->pool -= m;
            s->power[q][slot] = (int8_t)(power + m);
        } else if (op == POWER_CREATE) {
            m = amount < room ? amount : room;
            s->power_created += m;
            s->power[q][slot] = (int8_t)(power + m);
        } else if (op == POWER_DESTROY) {
            m = amount < power ? amount : power;
            s->power_removed += m;
            s->power[q][slot] = (int8_t)(power - m);
        } else {
            m = amount < power ? amount : power;
            s->pool += m;
            s->power[q][slot] = (int8_t)(power - m);
        }
        break;
    }
    case KILL:
        if (pawn_target(s, t, target, &q, &slot)) remove_pawn(s, q, slot);
        break;
    case DRAW_COUNT:
        s->draw_count += amount;
        if (s->draw_count < 0) s->draw_count = 0;
        break;
    case DRAW:
        draw_to_hand(s, owner, amount);
        break;
    case MILL:
        ns = row_seats(s, owner, t, target, seats);
        for (int i = 0; i < ns; i++)
            for (int j = 0; j < amount && s->deck_n[seats[i]]; j++)
                discard_push(s, seats[i], take_top(s, seats[i], 0));
        break;
    case PEEK: {
        q = seat_index(s, target);
        int before = s->looked[owner][q];
        int m = amount < s->deck_n[q] ? amount : s->deck_n[q];
        if (m > s->known_top[q]) s->known_top[q] = (uint8_t)m;
        if (m > before) {
            s->looked[owner][q] = (uint8_t)m;
            if (s->notes)
                for (int i = s->deck_n[q] - m; i < s->deck_n[q] - before; i++) unnote(s, owner, q, s->deck[q][i]);
        }
        break;
    }
    case FLOOD:
        ns = row_seats(s, owner, t, target, seats);
        for (int i = 0; i < ns; i++)
            for (int j = 0; j < amount && s->deck_n[seats[i]]; j++)
                place_in_cross(s, seats[i], take_top(s, seats[i], 0));
        break;
    case RECOVER:
    case CLEAR_CROSS: {
        if (op == CLEAR_CROSS && !amount) {
            clear_cross(s, t == T_NONE ? owner : seat_index(s, target));
            break;
        }
        /* Cards from a public place (the discard pile; the cross) shuffled into a deck: everyone sees
         * them go in, and a look at the deck's top is only a look at its contents now. */
        q = op == RECOVER || t == T_NONE ? owner : seat_index(s, target);
        uint8_t back[DECK_SIZE];
        int nb = 0;
        if (op == RECOVER) {
            int m = amount < s->discard_n[q] ? amount : s->discard_n[q];
            for (int i = s->discard_n[q] - m; i < s->discard_n[q]; i++) back[nb++] = s->discard[q][i];
        } else {
            for (int j = 0; j < CROSS_SPACES && nb < amount; j++)
                if (s->cross[q][j] >= 0) back[nb++] = (uint8_t)s->cross[q][j];
        }
        uint8_t tops[MAXP][DECK_SIZE];
        int ntops[MAXP];
        for (int p = 0; p < s->n; p++) {
            ntops[p] = s->looked[p][q];
            for (int i = 0; i < ntops[p]; i++) tops[p][i] = s->deck[q][s->deck_n[q] - ntops[p] + i];
        }
        if (op == RECOVER) {
            if (nb) {
                s->discard_n[q] = (uint8_t)(s->discard_n[q] - nb);
                for (int i = 0; i < nb; i++) s->deck[q][s->deck_n[q]++] = back[i];
                shuffle_deck(s, q);
                s->known_top[q] = 0;
            }
        } else {
            int cleared = 0;
            for (int j = 0; j < CROSS_SPACES && cleared < nb; j++)
                if (s->cross[q][j] >= 0) {
                    s->cross[q][j] = -1;
                    cleared++;
                }
            for (int i = 0; i < nb; i++) s->deck[q][s->deck_n[q]++] = back[i];
            shuffle_deck(s, q);
            s->known_top[q] = 0;
            clear_cross(s, q);
        }
        if (nb) {
            for (int p = 0; p < s->n; p++) {
                if (!ntops[p]) continue;
                s->looked[p][q] = 0;
                for (int i = 0; i < ntops[p]; i++) note(s, p, q, tops[p][i]);
            }
            for (int i = 0; i < nb; i++) recall(s, q, back[i]);
        }
        break;
    }
    case SUCCESS:
        if (s->ch_slot >= 0) s->ch_bonus += amount;
        break;
    case EXTRA_MOVE:
        s->extra_move = 1;
        break;
    case MOVE_FIRST:
        s->first_mover = (int8_t)(target < 0 ? owner : target);
        break;
    default: /* static rows (influence, traits) act through refresh_pawns only */
        break;
    }
}

/* ---- rounds and the driver (rules.py) ------------------------------------------------------------ */
static void enqueue(st_t *s, int owner, int card, int now) {
    if (!now && T_TRIGGER[card] == AFTER_NEXT_INITIATIVE) {
        s->queue[s->queue_n++] = (qent_t){(uint8_t)owner, (uint8_t)card, REGISTER};
        return;
    }
    for (int k = 0; k < T_NUM_EFFECTS[card]; k++) s->queue[s->queue_n++] = (qent_t){(uint8_t)owner, (uint8_t)card, (int8_t)k};
}

static void queue_pop(st_t *s) {
    s->queue_n--;
    memmove(s->queue, s->queue + 1, sizeof(qent_t) * (size_t)s->queue_n);
}

/* the leading group's length (its owner's run) */
static int group_len(const st_t *s) {
    int k = 0;
    while (k < s->groups_n && s->groups[k].owner == s->groups[0].owner) k++;
    return k;
}
static void groups_remove(st_t *s, int i, int count) {
    s->groups_n = (int16_t)(s->groups_n - count);
    memmove(s->groups + i, s->groups + i + count, sizeof(oc_t) * (size_t)(s->groups_n - i));
}

/* _initiative: the winner, or -1 if the game ended */
static int initiative(st_t *s) {
    int contenders[MAXP], nc = 0, drawn[MAXP];
    for (int q = 0; q < s->n; q++)
        if (s->alive[q]) contenders[nc++] = q;
    for (;;) {
        for (int q = 0; q < s->n; q++) drawn[q] = -1;
        for (int i = 0; i < nc; i++) {
            int q = contenders[i];
            while (s->deck_n[q]) {
                int c = take_top(s, q, 0);
                if (IS_MAJOR(c)) {
                    discard_push(s, q, c);
                    continue;
                }
                s->hand[q][c]++;
                s->hand_size[q]++;
                s->shown[q][c]++;
                drawn[q] = c;
                break;
            }
        }
        check_out(s);
        if (s->phase == PH_GAME_OVER) return -1;
        int live[MAXP], nl = 0;
        for (int i = 0; i < nc; i++)
            if (s->alive[contenders[i]] && drawn[contenders[i]] >= 0) live[nl++] = contenders[i];
        if (!nl) {
            nc = 0;
            for (int q = 0; q < s->n; q++)
                if (s->alive[q]) contenders[nc++] = q;
            continue;
        }
        int best = -1;
        for (int i = 0; i < nl; i++)
            if (T_RANK[drawn[live[i]]] > best) best = T_RANK[drawn[live[i]]];
        nc = 0;
        for (int i = 0; i < nl; i++)
            if (T_RANK[drawn[live[i]]] == best) contenders[nc++] = live[i];
        if (nc == 1) return contenders[0];
    }
}

static void start_round(st_t *s) {
    s->round++;
    s->draw_count = 0;
    s->extra_move = 0;
    int winner = initiative(s);
    if (s->phase == PH_GAME_OVER) return;
    s->initiative_winner = s->first_mover = (int8_t)winner;
    s->groups_n = 0;
    for (int k = 0; k < s->n; k++) {
        int q = (winner + k) % s->n;
        if (!s->alive[q]) continue;
        for (int i = 0; i < s->delayed_n; i++)
            if (s->delayed[i].owner == q) s->groups[s->groups_n++] = s->delayed[i];
        for (int e = 0; e < s->envs_n[q]; e++)
            if (T_TRIGGER[s->envs[q][e]] == AFTER_EACH_INITIATIVE)
                s->groups[s->groups_n++] = (oc_t){(uint8_t)q, s->envs[q][e]};
    }
    s->delayed_n = 0;
    s->cont = CONT_START_MOVES;
}

static void run(st_t *s);

static void end_round(st_t *s) {
    for (int q = 0; q < s->n; q++)
        for (int slot = 0; slot < MAX_PAWNS; slot++)
            if (s->pawn[q][slot] >= 0 && s->power[q][slot])
                s->score[q] += s->power[q][slot] * ((s->traits[q][slot] & PRESENCE) ? 2 : 1);
    if (s->pool == 0) {
        finish_game(s);
        return;
    }
    for (int q = 0; q < s->n; q++) {
        for (int slot = 0; slot < MAX_PAWNS; slot++) {
            s->power_removed += s->power[q][slot];
            s->power[q][slot] = 0;
        }
        clear_cross(s, q);
    }
    start_round(s);
}

static void end_move(st_t *s) {
    if (s->resolving >= 0) {
        discard_push(s, s->mover, s->resolving);
        s->resolving = -1;
    }
    clear_challenge(s);
    if (s->draw_count >= ROUND_DRAWS) {
        end_round(s);
        if (s->phase != PH_GAME_OVER) run(s);
        return;
    }
    if (!(s->extra_move && s->alive[s->mover])) s->mover = (int8_t)next_alive(s, s->mover);
    s->extra_move = 0;
    s->phase = PH_MOVE;
    s->player = s->mover;
}

static void round_ends_now(st_t *s) {
    s->queue_n = s->groups_n = s->choice_n = 0;
    s->extra_move = 0;
    s->cont = CONT_END_MOVE;
    end_move(s);
}

/* _fate_draw: 1 if the redraw decision is open */
static int fate_draw(st_t *s) {
    int q = s->mover, slot = s->ch_slot;
    if (!s->alive[q] || s->pawn[q][slot] != s->ch_card) {
        s->cont = CONT_END_MOVE;
        return 0;
    }
    int draws = s->infl[q][slot];
    for (int i = 0; i < draws; i++) {
        if (!s->deck_n[q]) break;
        int j = place_in_cross(s, q, take_top(s, q, 0));
        if (j >= 0) s->fate |= (uint8_t)(1u << j);
    }
    check_out(s);
    s->cont = CONT_FINISH_CHALLENGE;
    if (s->phase == PH_GAME_OVER || !s->alive[q] || !s->fate) return 0;
    s->phase = PH_REDRAW;
    s->player = (int8_t)q;
    return 1;
}

/* _in_turn_order with the "when this Pawn challenges / is challenged / wins" effects */
static void push_triggered(st_t *s, int q, int slot, int trig_own, int tseat, int tslot, int trig_target,
                           int with_pawn) {
    s->groups_n = 0;
    for (int k = 0; k < s->n; k++) {
        int r = (q + k) % s->n;
        if (with_pawn && r == q) s->groups[s->groups_n++] = (oc_t){(uint8_t)q, (uint8_t)s->ch_card};
        for (int i = 0; i < s->att_n; i++) {
            const att_t *a = &s->att[i];
            if (a->seat == q && a->slot == slot && a->owner == r && T_TRIGGER[a->card] == trig_own)
                s->groups[s->groups_n++] = (oc_t){a->owner, a->card};
        }
        if (tseat < 0) continue;
        for (int i = 0; i < s->att_n; i++) {
            const att_t *a = &s->att[i];
            if (a->seat == tseat && a->slot == tslot && a->owner == r && T_TRIGGER[a->card] == trig_target)
                s->groups[s->groups_n++] = (oc_t){a->owner, a->card};
        }
    }
}

static void declare(st_t *s, int target) {
    int q = s->mover, slot = s->ch_slot;
    if (target >= 0) {
        s->ch_tseat = (int8_t)(target / MAX_PAWNS);
        s->ch_tslot = (int8_t)(target % MAX_PAWNS);
        s->ch_tcard = s->pawn[s->ch_tseat][s->ch_tslot];
    }
    push_triggered(s, q, slot, WHEN_CHALLENGES, target >= 0 ? s->ch_tseat : -1, s->ch_tslot, WHEN_CHALLENGED, 0);
    s->cont = CONT_FATE_DRAW;
    run(s);
}

static void redraw(st_t *s) {
    int q = s->mover, nm = 0;
    for (int j = 0; j < CROSS_SPACES; j++) {
        if (!(s->marked >> j & 1u)) continue;
        discard_push(s, q, s->cross[q][j]);
        s->cross[q][j] = -1;
        s->fate &= (uint8_t)~(1u << j);
        nm++;
    }
    for (int i = 0; i < nm; i++) {
        if (!s->deck_n[q]) break;
        int j = place_in_cross(s, q, take_top(s, q, 0));
        if (j >= 0) s->fate |= (uint8_t)(1u << j);
    }
    s->marked = 0;
    check_out(s);
    if (s->phase == PH_GAME_OVER) return;
    /* Majors resolve in the order of their spaces; a cross emptied by an elimination queues
     * nothing its owner could still resolve. */
    for (int j = 0; j < CROSS_SPACES; j++) {
        int c = s->cross[q][j];
        if (!(s->fate >> j & 1u) || c < 0) continue;
        if (IS_MAJOR(c) && (T_TRIGGER[c] == FATE || T_TRIGGER[c] == AFTER_NEXT_INITIATIVE)) enqueue(s, q, c, 0);
    }
    s->cont = CONT_FINISH_CHALLENGE;
    run(s);
}

static int fate_successes(const st_t *s) {
    int suit = T_SUIT[s->ch_card], k = 0;
    for (int j = 0; j < CROSS_SPACES; j++) {
        if (!(s->fate >> j & 1u)) continue;
        int c = s->cross[s->mover][j];
        if (c < 0) c += NUM_CARDS; /* Python's cross[j] of an emptied space: the last card */
        if (IS_MAJOR(c) || T_SUIT[c] == suit) k++;
    }
    return k;
}

static void finish_challenge(st_t *s) {
    int q = s->mover, slot = s->ch_slot;
    s->cont = CONT_END_MOVE;
    if (!s->alive[q] || s->pawn[q][slot] != s->ch_card) return;
    int successes = s->ch_bonus + fate_successes(s), killed = 0, moved = 0;
    int room = s->infl[q][slot] - s->power[q][slot];
    if (s->ch_tseat < 0) {
        moved = successes < s->pool ? successes : s->pool;
        if (room < moved) moved = room;
        s->pool -= moved;
    } else {
        int r = s->ch_tseat, t = s->ch_tslot;
        if (s->pawn[r][t] == s->ch_tcard) {
            if ((s->traits[r][t] & IMMUNITY) && successes > 0) successes--;
            moved = successes < s->power[r][t] ? successes : s->power[r][t];
            if (room < moved) moved = room;
            s->power[r][t] = (int8_t)(s->power[r][t] - moved);
            if ((s->traits[q][slot] & AGGRESSION) && successes >= s->infl[r][t]) killed = 1;
        }
    }
    s->power[q][slot] = (int8_t)(s->power[q][slot] + moved);
    s->score[q] += moved;
    if (killed) remove_pawn(s, s->ch_tseat, s->ch_tslot);
    if (moved) push_triggered(s, q, slot, WHEN_WINS, -1, -1, -1, T_TRIGGER[s->ch_card] == WHEN_WINS);
}

static void run(st_t *s) {
    int buf[CHOICE_MAX];
    while (s->phase != PH_GAME_OVER) {
        if (s->draw_count >= ROUND_DRAWS) {
            round_ends_now(s);
            return;
        }
        if (s->queue_n) {
            qent_t e = s->queue[0];
            if (!s->alive[e.owner]) {
                queue_pop(s);
                continue;
            }
            if (e.k == REGISTER) {
                queue_pop(s);
                if (s->delayed_n < DELAYED_MAX) s->delayed[s->delayed_n++] = (oc_t){e.owner, e.card};
                continue;
            }
            int nt = effect_targets(s, e.owner, eff_target(e.card, e.k), buf);
            if (nt != NO_CHOICE && nt != 1) {
                if (!nt) {
                    queue_pop(s);
                    continue;
                }
                for (int i = 0; i < nt; i++) s->choice[i] = (int8_t)buf[i];
                s->choice_n = (int16_t)nt;
                s->phase = PH_EFFECT_TARGET;
                s->player = (int8_t)e.owner;
                return;
            }
            queue_pop(s);
            resolve_effect(s, e.owner, e.card, e.k, nt == 1 ? buf[0] : -1);
            check_out(s);
            continue;
        }
        if (s->groups_n) {
            int owner = s->groups[0].owner, len = group_len(s);
            if (!s->alive[owner]) {
                groups_remove(s, 0, len);
                continue;
            }
            int distinct = 0;
            for (int i = 1; i < len; i++)
                if (s->groups[i].card != s->groups[0].card) distinct = 1;
            if (distinct) {
                s->phase = PH_ORDER;
                s->player = (int8_t)owner;
                return;
            }
            int c = s->groups[0].card;
            groups_remove(s, 0, 1);
            enqueue(s, owner, c, 1);
            continue;
        }
        switch (s->cont) {
        case CONT_END_MOVE:
            end_move(s);
            return;
        case CONT_START_MOVES: {
            int first = s->first_mover;
            s->mover = (int8_t)(s->alive[first] ? first : next_alive(s, first));
            s->phase = PH_MOVE;
            s->player = s->mover;
            return;
        }
        case CONT_FATE_DRAW:
            if (fate_draw(s)) return;
            continue;
        default:
            finish_challenge(s);
        }
    }
}

/* ---- decisions (decisions.DecisionsMixin) ---------------------------------------------------------- */
static int target_action(const st_t *s, int target) {
    if (target < 0) return A_POOL;
    return A_PAWN + ((target / MAX_PAWNS - s->player + s->n) % s->n) * MAX_PAWNS + target % MAX_PAWNS;
}
static int action_target(const st_t *s, int a) {
    int r = (a - A_PAWN) / MAX_PAWNS, slot = (a - A_PAWN) % MAX_PAWNS;
    return ((s->player + r) % s->n) * MAX_PAWNS + slot;
}
static int choice_is_player(const st_t *s) {
    int t = eff_target(s->queue[0].card, s->queue[0].k);
    return t == T_OPPONENT || t == T_ANY_PLAYER;
}

static int legal_mask(const void *sv, uint8_t *mask) {
    const st_t *s = (const st_t *)sv;
    int n = s->n, p = s->player, count = 0;
    memset(mask, 0, (size_t)NUM_ACTIONS(n));
#define LEGAL(a)          \
    do {                  \
        mask[(a)] = 1;    \
        count++;          \
    } while (0)
    switch (s->phase) {
    case PH_MOVE: {
        int free_slot = 0, any_pawn = -1;
        for (int slot = 0; slot < MAX_PAWNS; slot++)
            if (s->pawn[p][slot] < 0) free_slot = 1;
        for (int c = 0; c < NUM_CARDS; c++) {
            if (!s->hand[p][c]) continue;
            int kind = T_PLAY_KIND[c], ok = 0;
            if (kind == PLAY_ATTACHMENT && any_pawn < 0) {
                any_pawn = 0;
                for (int q = 0; q < n && !any_pawn; q++)
                    for (int slot = 0; slot < MAX_PAWNS; slot++)
                        if (s->alive[q] && s->pawn[q][slot] >= 0) any_pawn = 1;
            }
            if (kind == PLAY_ALWAYS)
                ok = 1;
            else if (kind == PLAY_PAWN)
                ok = free_slot;
            else if (kind == PLAY_ATTACHMENT)
                ok = any_pawn;
            else if (kind == PLAY_IF_USABLE)
                ok = effect_usable(s, p, c);
            if (ok) LEGAL(c);
        }
        LEGAL(A_DRAW);
        int open = 0; /* a full cross forbids challenging */
        for (int j = 0; j < CROSS_SPACES; j++)
            if (s->cross[p][j] < 0) open = 1;
        if (open) {
            int buf[CHOICE_MAX];
            for (int slot = 0; slot < MAX_PAWNS; slot++)
                if (s->pawn[p][slot] >= 0 && s->infl[p][slot] > s->power[p][slot] &&
                    (s->pool || challenge_targets(s, p, slot, 1, buf)))
                    LEGAL(A_CHALLENGER + slot);
        }
        for (int e = 0; e < s->envs_n[p]; e++) {
            int k = T_SPECIAL_INDEX[s->envs[p][e]];
            if (k >= 0 && !mask[A_SPECIAL(n) + k] && effect_usable(s, p, T_SPECIAL_CARDS[k])) LEGAL(A_SPECIAL(n) + k);
        }
        break;
    }
    case PH_RESOURCES:
        for (int k = 0; k <= s->resources_max; k++) LEGAL(A_EXTRA + k);
        break;
    case PH_CHALLENGE_TARGET: {
        int buf[CHOICE_MAX];
        int k = challenge_targets(s, p, s->ch_slot, 0, buf);
        for (int i = 0; i < k; i++) LEGAL(target_action(s, buf[i]));
        break;
    }
    case PH_ATTACH_TARGET:
    case PH_EFFECT_TARGET:
        if (s->choice_n && s->phase == PH_EFFECT_TARGET && choice_is_player(s)) {
            for (int i = 0; i < s->choice_n; i++) LEGAL(A_PLAYER(n) + (s->choice[i] - p + n) % n);
        } else {
            for (int i = 0; i < s->choice_n; i++) LEGAL(target_action(s, s->choice[i]));
        }
        break;
    case PH_REDRAW:
        for (int j = 0; j < CROSS_SPACES; j++)
            if ((s->fate >> j & 1u) && !(s->marked >> j & 1u)) LEGAL(A_MARK(n) + j);
        LEGAL(A_DONE(n));
        break;
    case PH_ORDER: {
        int len = group_len(s);
        for (int i = 0; i < len; i++)
            if (!mask[s->groups[i].card]) LEGAL(s->groups[i].card);
        break;
    }
    default:
        break;
    }
#undef LEGAL
    return count;
}

static void apply(void *sv, int a);

static void play(st_t *s, int p, int c) {
    int type = T_TYPE[c];
    if (type == ENVIRONMENT) {
        from_hand(s, p, c);
        s->envs[p][s->envs_n[p]++] = (uint8_t)c;
        refresh_pawns(s);
        end_move(s);
    } else if (type == PAWN) {
        from_hand(s, p, c);
        int slot = 0;
        while (s->pawn[p][slot] >= 0) slot++;
        s->pawn[p][slot] = (int8_t)c;
        s->power[p][slot] = 0;
        refresh_pawns(s);
        end_move(s);
    } else if (type == ATTACHMENT) {
        s->pending_card = (int8_t)c;
        show_in_hand(s, p, c);
        s->choice_n = 0;
        for (int q = 0; q < s->n; q++)
            if (s->alive[q])
                for (int slot = 0; slot < MAX_PAWNS; slot++)
                    if (s->pawn[q][slot] >= 0) s->choice[s->choice_n++] = (int8_t)(q * MAX_PAWNS + slot);
        s->phase = PH_ATTACH_TARGET;
        if (s->choice_n == 1) apply(s, target_action(s, s->choice[0]));
    } else {
        from_hand(s, p, c);
        s->resolving = (int8_t)c;
        s->cont = CONT_END_MOVE;
        enqueue(s, p, c, 0);
        run(s);
    }
}

static void apply(void *sv, int a) {
    st_t *s = (st_t *)sv;
    int n = s->n, p = s->player;
    switch (s->phase) {
    case PH_MOVE:
        s->mover = (int8_t)p;
        if (a < A_DRAW) {
            play(s, p, a);
        } else if (a == A_DRAW) {
            s->draw_count++;
            draw_to_hand(s, p, 1);
            check_out(s);
            if (s->phase == PH_GAME_OVER) return;
            int r = s->alive[p] ? resources(s, p) : 0;
            if (r) {
                s->resources_max = (int8_t)(r < MAX_EXTRA ? r : MAX_EXTRA);
                s->phase = PH_RESOURCES;
                return;
            }
            end_move(s);
        } else if (a < A_POOL) {
            int buf[CHOICE_MAX];
            s->ch_slot = (int8_t)(a - A_CHALLENGER);
            s->ch_card = s->pawn[p][s->ch_slot];
            int k = challenge_targets(s, p, s->ch_slot, 0, buf);
            if (k == 1)
                declare(s, buf[0]);
            else
                s->phase = PH_CHALLENGE_TARGET;
        } else {
            s->cont = CONT_END_MOVE;
            enqueue(s, p, T_SPECIAL_CARDS[a - A_SPECIAL(n)], 1);
            run(s);
        }
        break;
    case PH_RESOURCES:
        draw_to_hand(s, p, a - A_EXTRA);
        s->resources_max = 0;
        check_out(s);
        if (s->phase != PH_GAME_OVER) end_move(s);
        break;
    case PH_CHALLENGE_TARGET:
        declare(s, a == A_POOL ? -1 : action_target(s, a));
        break;
    case PH_ATTACH_TARGET: {
        int target = action_target(s, a), card = s->pending_card;
        s->pending_card = -1;
        s->choice_n = 0;
        from_hand(s, p, card);
        s->att[s->att_n++] = (att_t){(uint8_t)card, (uint8_t)p, (uint8_t)(target / MAX_PAWNS), (uint8_t)(target % MAX_PAWNS)};
        refresh_pawns(s);
        end_move(s);
        break;
    }
    case PH_EFFECT_TARGET: {
        int target = a >= A_PLAYER(n) && a < A_MARK(n) ? (p + a - A_PLAYER(n)) % n : action_target(s, a);
        qent_t e = s->queue[0];
        queue_pop(s);
        s->choice_n = 0;
        resolve_effect(s, e.owner, e.card, e.k, target);
        check_out(s);
        run(s);
        break;
    }
    case PH_REDRAW:
        if (a == A_DONE(n))
            redraw(s);
        else
            s->marked |= (uint8_t)(1u << (a - A_MARK(n)));
        break;
    case PH_ORDER: {
        int owner = s->groups[0].owner, len = group_len(s);
        for (int i = 0; i < len; i++)
            if (s->groups[i].card == a) {
                groups_remove(s, i, 1);
                break;
            }
        enqueue(s, owner, a, 1);
        run(s);
        break;
    }
    default:
        break;
    }
}

/* ---- the observation (observation.observe) -------------------------------------------------------- */
typedef struct {
    int n, size, pawn_features, seat_block;
    int pool, draw_count, round, phase, decision_card, decision_op, challenger, challenge_target,
        challenge_count, resources_max, extra_move, base;
    int o_hand, o_unseen, o_discard, o_order, o_top, o_envs, o_pawns, o_cross, o_delayed;
} layout_t;

static void layout_for(int n, layout_t *L) {
    L->n = n;
    int at = 0;
    L->pool = at++;
    L->draw_count = at++;
    L->round = at++;
    L->phase = at;
    at += NUM_PHASES;
    L->decision_card = at;
    at += NUM_CARDS;
    L->decision_op = at;
    at += NUM_OPS;
    L->challenger = at;
    at += MAX_PAWNS;
    L->challenge_target = at;
    at += 1 + n + MAX_PAWNS;
    L->challenge_count = at;
    at += 3;
    L->resources_max = at++;
    L->extra_move = at++;
    L->base = at;
    L->pawn_features = PAWN_HEAD + n * N_ATT;
    int o = SEAT_SCALARS;
    L->o_hand = o;
    o += NUM_CARDS;
    L->o_unseen = o;
    o += NUM_CARDS;
    L->o_discard = o;
    o += NUM_CARDS;
    L->o_order = o;
    o += NUM_CARDS;
    L->o_top = o;
    o += NUM_CARDS;
    L->o_envs = o;
    o += N_ENV;
    L->o_pawns = o;
    o += MAX_PAWNS * L->pawn_features;
    L->o_cross = o;
    o += CROSS_SPACES * CROSS_FEATURES;
    L->o_delayed = o;
    o += N_DELAYED;
    L->seat_block = o;
    L->size = L->base + n * o;
}

/* Raw values are scaled as Python does: value * float32(1 / scale). */
static inline float sc(float v, float scale) { return v * (1.0f / scale); }
/* A saturating entry shows min(value, cap), its cap from observation.py (SCORE_CAP, pool_cap,
 * DELAYED_CAP), so it never leaves its bound. */
static inline int saturated(int v, int cap) { return v < cap ? v : cap; }

static void observe(const void *sv, int player, float *restrict o) {
    const st_t *s = (const st_t *)sv;
    int n = s->n;
    layout_t L;
    layout_for(n, &L);
    memset(o, 0, sizeof(float) * (size_t)L.size);
    o[L.pool] = sc((float)saturated(s->pool, T_POOL_CAP[n]), (float)T_POOL_BY_PLAYERS[n]);
    o[L.draw_count] = sc((float)s->draw_count, 3.0f);
    o[L.round] = sc((float)(s->round < 20 ? s->round : 20), 20.0f);
    o[L.phase + s->phase] = 1.0f;
    if (s->phase == PH_ATTACH_TARGET) {
        o[L.decision_card + s->pending_card] = 1.0f;
    } else if (s->phase == PH_EFFECT_TARGET) {
        o[L.decision_card + s->queue[0].card] = 1.0f;
        o[L.decision_op + eff_op(s->queue[0].card, s->queue[0].k)] = 1.0f;
    }
    if (s->ch_slot >= 0) {
        if (s->mover == player) o[L.challenger + s->ch_slot] = 1.0f;
        int i = L.challenge_target;
        if (s->ch_tseat < 0) {
            o[i] = 1.0f;
        } else {
            o[i + 1 + (s->ch_tseat - player + n) % n] = 1.0f;
            o[i + 1 + n + s->ch_tslot] = 1.0f;
        }
        i = L.challenge_count;
        o[i] = sc((float)s->ch_bonus, 3.0f);
        o[i + 1] = sc((float)fate_successes(s), 8.0f);
        o[i + 2] = sc((float)popcount8(s->fate), 8.0f);
    }
    o[L.resources_max] = sc((float)s->resources_max, 10.0f);
    o[L.extra_move] = (float)s->extra_move;
    int live = s->phase != PH_GAME_OVER;
    for (int k = 0; k < n; k++) {
        int q = (player + k) % n;
        float *restrict b = o + L.base + k * L.seat_block;
        int known = s->looked[player][q], split = s->deck_n[q] - known;
        b[0] = (float)s->alive[q];
        b[1] = (float)(s->player == q);
        b[2] = (float)(live && s->mover == q);
        b[3] = (float)(s->initiative_winner == q);
        b[4] = sc((float)saturated(s->score[q], T_CONSTS[C_SCORE_CAP]), 30.0f);
        b[5] = sc((float)s->deck_n[q], (float)DECK_SIZE);
        b[6] = sc((float)s->hand_size[q], 20.0f);
        b[7] = sc((float)s->discard_n[q], (float)DECK_SIZE);
        b[8] = sc((float)s->known_top[q], 3.0f);
        /* Counts are written for every card, zeros too: a branch-free loop costs less than testing
         * each card (the vector was zeroed, and 0 * scale is the same +0.0). */
        int counts[NUM_CARDS];
        /* hand */
        const uint8_t *hand = q == player ? s->hand[q] : s->shown[q];
        for (int c = 0; c < NUM_CARDS; c++) b[L.o_hand + c] = sc((float)hand[c], 3.0f);
        /* unseen */
        memset(counts, 0, sizeof counts);
        if (q == player || s->lists_public) {
            for (int i = 0; i < split; i++) counts[s->deck[q][i]]++;
            if (q != player)
                for (int c = 0; c < NUM_CARDS; c++) counts[c] += s->hand[q][c] - s->shown[q][c];
        } else if (s->notes) {
            /* known_hidden: recalled cards less those on the top the observer looked at, at least
             * as many as the observer noted */
            for (int c = 0; c < NUM_CARDS; c++) counts[c] = s->recalled[q][c];
            for (int i = split; i < s->deck_n[q]; i++)
                if (counts[s->deck[q][i]]) counts[s->deck[q][i]]--;
            for (int c = 0; c < NUM_CARDS; c++)
                if (s->noted[player][q][c] > counts[c]) counts[c] = s->noted[player][q][c];
        }
        for (int c = 0; c < NUM_CARDS; c++) b[L.o_unseen + c] = sc((float)counts[c], 3.0f);
        /* discard pile and its order */
        int depth = s->discard_n[q];
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < s->discard_n[q]; i++) {
            int c = s->discard[q][i];
            counts[c]++;
            b[L.o_order + c] = sc((float)(DECK_SIZE - depth + 1), (float)DECK_SIZE);
            depth--;
        }
        for (int c = 0; c < NUM_CARDS; c++) b[L.o_discard + c] = sc((float)counts[c], 3.0f);
        /* the deck's top the observer looked at */
        if (known) {
            memset(counts, 0, sizeof counts);
            for (int i = split; i < s->deck_n[q]; i++) counts[s->deck[q][i]]++;
            for (int c = 0; c < NUM_CARDS; c++) b[L.o_top + c] = sc((float)counts[c], 3.0f);
        }
        /* environments */
        memset(counts, 0, sizeof counts);
        for (int e = 0; e < s->envs_n[q]; e++) counts[T_ENV_INDEX[s->envs[q][e]]]++;
        for (int e = 0; e < N_ENV; e++)
            if (counts[e]) b[L.o_envs + e] = sc((float)counts[e], 3.0f);
        /* Pawns */
        for (int slot = 0; slot < MAX_PAWNS; slot++) {
            int c = s->pawn[q][slot];
            if (c < 0) continue;
            float *r = b + L.o_pawns + slot * L.pawn_features;
            int infl = s->infl[q][slot], power = s->power[q][slot];
            r[0] = 1.0f;
            r[1 + T_SUIT[c]] = 1.0f;
            r[5] = sc((float)T_RANK[c], 7.0f);
            r[6] = sc((float)infl, 5.0f);
            r[7] = sc((float)power, 5.0f);
            r[8] = sc((float)(infl - power), 5.0f);
            for (int tk = 0; tk < 4; tk++)
                if (s->traits[q][slot] >> tk & 1u) r[9 + tk] = 1.0f;
            int acounts[MAXP * 32];
            int nslots = n * N_ATT;
            memset(acounts, 0, sizeof(int) * (size_t)nslots);
            for (int i = 0; i < s->att_n; i++) {
                const att_t *a = &s->att[i];
                if (a->seat == q && a->slot == slot) acounts[((a->owner - q + n) % n) * N_ATT + T_ATT_INDEX[a->card]]++;
            }
            for (int i = 0; i < nslots; i++) r[PAWN_HEAD + i] = sc((float)acounts[i], 3.0f);
        }
        /* the Mystick Cross */
        for (int j = 0; j < CROSS_SPACES; j++) {
            int c = s->cross[q][j];
            if (c < 0) continue;
            float *r = b + L.o_cross + j * CROSS_FEATURES;
            r[0] = 1.0f;
            if (IS_MAJOR(c)) {
                r[5] = 1.0f;
                r[7] = sc((float)(T_NUMBER[c] + 1), 22.0f);
            } else {
                r[1 + T_SUIT[c]] = 1.0f;
                r[6] = sc((float)T_RANK[c], 14.0f);
            }
            if (q == s->mover && (s->fate >> j & 1u)) {
                r[8] = 1.0f;
                if (s->marked >> j & 1u) r[9] = 1.0f;
            }
        }
        /* effects waiting for the next initiative draw */
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < s->delayed_n; i++)
            if (s->delayed[i].owner == q) counts[T_DELAYED_INDEX[s->delayed[i].card]]++;
        for (int e = 0; e < N_DELAYED; e++)
            if (counts[e]) b[L.o_delayed + e] = (float)saturated(counts[e], T_CONSTS[C_DELAYED_CAP]);
    }
}

#define HIDDEN_PER_SEAT (NUM_CARDS + DECK_SIZE)

static void privileged(const void *sv, float *out) {
    const st_t *s = (const st_t *)sv;
    layout_t L;
    layout_for(s->n, &L);
    for (int p = 0; p < s->n; p++) observe(sv, p, out + p * L.size);
    float *h = out + s->n * L.size;
    memset(h, 0, sizeof(float) * (size_t)(s->n * HIDDEN_PER_SEAT));
    for (int p = 0; p < s->n; p++) {
        float *b = h + p * HIDDEN_PER_SEAT;
        for (int c = 0; c < NUM_CARDS; c++) b[c] = (float)s->hand[p][c] / 3.0f;
        for (int k = 0; k < s->deck_n[p]; k++)
            b[NUM_CARDS + k] = (float)(s->deck[p][s->deck_n[p] - 1 - k] + 1) / (float)NUM_CARDS;
    }
}

/* ---- the interface -------------------------------------------------------------------------------- */
static int current_player(const void *sv) { return ((const st_t *)sv)->player; }

static void returns(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    int n = s->n;
    for (int q = 0; q < n; q++) {
        out[q] = 0.0;
        if (s->phase == PH_GAME_OVER) {
            int beat = 0, lost = 0;
            for (int r = 0; r < n; r++) {
                beat += s->placement[r] > s->placement[q];
                lost += s->placement[r] < s->placement[q];
            }
            out[q] = (double)(beat - lost) / (n - 1);
        } else if (!s->alive[q]) {
            int t = s->out_time[q], beat = 0, tied = 0;
            for (int r = 0; r < n; r++) {
                if (s->alive[r]) continue;
                beat += s->out_time[r] < t;
                tied += r != q && s->out_time[r] == t;
            }
            out[q] = (double)(beat - (n - 1 - beat - tied)) / (n - 1);
        }
    }
}

static int player_done(const void *sv, int seat) {
    const st_t *s = (const st_t *)sv;
    return s->phase == PH_GAME_OVER || !s->alive[seat];
}

static void info(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    int n = s->n, k = 0;
    out[k++] = s->phase;
    for (int q = 0; q < n; q++) out[k++] = s->score[q];
    out[k++] = s->round;
    out[k++] = s->pool;
    out[k++] = s->draw_count;
    for (int q = 0; q < n; q++) out[k++] = s->deck_n[q];
    for (int q = 0; q < n; q++) out[k++] = !s->alive[q];
}

/* A basic deck: two suits whole and MAJORS_PER_DECK Majors (numbered from 0), in id order as
 * decks.random_decks sorts it. */
static void basic_deck(int suit_a, int suit_b, const int *majors, uint8_t *out) {
    uint8_t in[NUM_CARDS] = {0};
    for (int r = 0; r < NUM_RANKS; r++) in[suit_a * NUM_RANKS + r] = in[suit_b * NUM_RANKS + r] = 1;
    for (int i = 0; i < MAJORS_PER_DECK; i++) in[NUM_MINORS + majors[i]] = 1;
    int k = 0;
    for (int c = 0; c < NUM_CARDS; c++)
        if (in[c]) out[k++] = (uint8_t)c;
}

/* decks.validate_deck on a seat's listed deck: NULL, or the rule it breaks. Python refuses a bad
 * list first; this keeps options made by hand from overrunning the tables sized for legal decks
 * (ATT_MAX, ENVS_MAX, the hand's counts). */
static const char *deck_problem(const int *deck, int advanced) {
    int count[NUM_CARDS] = {0}, per_suit[4] = {0}, majors = 0, suits = 0;
    for (int i = 0; i < DECK_SIZE; i++) {
        int c = deck[i];
        if (c < 0 || c >= NUM_CARDS) return "a card id is not in 0-77";
        count[c]++;
        if (c >= NUM_MINORS)
            majors++;
        else
            per_suit[c / NUM_RANKS]++;
    }
    if (majors != MAJORS_PER_DECK) return "a deck has 11 Major Arcana";
    for (int suit = 0; suit < 4; suit++) {
        if (per_suit[suit] && per_suit[suit] != SUIT_CARDS_PER_DECK) return "a deck has 14 cards from each of 2 suits";
        suits += per_suit[suit] > 0;
    }
    if (suits != 2) return "a deck has 14 cards from each of 2 suits";
    for (int c = 0; c < NUM_CARDS; c++)
        if (count[c] > (advanced ? MAX_COPIES_ADVANCED : 1))
            return advanced ? "advanced decks allow up to 3 copies" : "basic decks allow no duplicates";
    return NULL;
}

/* decks.random_decks */
static void random_decks(st_t *s, uint8_t lists[MAXP][DECK_SIZE]) {
    int n = s->n;
    if (n == 2) {
        int suits[4], majors[NUM_MAJORS];
        me_rng_permutation(&s->rng, suits, 4);
        me_rng_permutation(&s->rng, majors, NUM_MAJORS);
        for (int h = 0; h < 2; h++) basic_deck(suits[2 * h], suits[2 * h + 1], majors + h * MAJORS_PER_DECK, lists[h]);
        return;
    }
    for (int q = 0; q < n; q++) {
        int scratch[NUM_MAJORS], suits[2], majors[MAJORS_PER_DECK];
        me_rng_sample(&s->rng, 4, 2, scratch, suits);
        me_rng_sample(&s->rng, NUM_MAJORS, MAJORS_PER_DECK, scratch, majors);
        basic_deck(suits[0], suits[1], majors, lists[q]);
    }
}

static void init(void *sv, const me_config *cfg, uint64_t seed) {
    st_t *s = (st_t *)sv;
    memset(s, 0, sizeof *s);
    me_rng_seed(&s->rng, seed);
    int n = cfg->num_players;
    s->n = (int8_t)n;
    s->advanced = (int8_t)cfg->options[0];
    int reshuffle = cfg->options[1], any_random = 0, all_random = 1;
    for (int q = 0; q < n; q++) {
        if (cfg->options[OPT_DECKS + q * DECK_SIZE] == RANDOM_DECK)
            any_random = 1;
        else
            all_random = 0;
    }
    s->lists_public = (int8_t)(n == 2 && all_random);
    uint8_t lists[MAXP][DECK_SIZE];
    if (any_random) random_decks(s, lists);
    for (int q = 0; q < n; q++) {
        const int *listed = cfg->options + OPT_DECKS + q * DECK_SIZE;
        if (listed[0] != RANDOM_DECK)
            for (int i = 0; i < DECK_SIZE; i++) lists[q][i] = (uint8_t)listed[i];
        memcpy(s->deck[q], lists[q], DECK_SIZE);
        s->deck_n[q] = DECK_SIZE;
    }
    for (int q = 0; q < n; q++) shuffle_deck(s, q);
    memset(s->cross, -1, sizeof s->cross);
    memset(s->pawn, -1, sizeof s->pawn);
    for (int q = 0; q < n; q++) s->alive[q] = 1, s->out_time[q] = -1;
    s->pool = s->pool_start = T_POOL_BY_PLAYERS[n];
    s->phase = PH_MOVE;
    s->cont = CONT_START_MOVES;
    s->resolving = s->pending_card = -1;
    clear_challenge(s);
    for (int q = 0; q < n; q++) {
        draw_to_hand(s, q, OPENING_HAND);
        if (reshuffle && s->discard_n[q]) {
            for (int i = 0; i < s->discard_n[q]; i++) {
                recall(s, q, s->discard[q][i]);
                s->deck[q][s->deck_n[q]++] = s->discard[q][i];
            }
            s->discard_n[q] = 0;
            shuffle_deck(s, q);
        }
    }
    start_round(s);
    run(s);
}

/* knowledge.KnowledgeMixin._sample_unseen: fills the deck counts of seat q */
static void sample_unseen(const st_t *s, int p, int q, me_rng *r, int *deck, int *visible) {
    int seen[NUM_CARDS];
    memset(visible, 0, sizeof(int) * NUM_CARDS);
    for (int i = 0; i < s->discard_n[q]; i++) visible[s->discard[q][i]]++;
    for (int j = 0; j < CROSS_SPACES; j++)
        if (s->cross[q][j] >= 0) visible[s->cross[q][j]]++;
    for (int e = 0; e < s->envs_n[q]; e++) visible[s->envs[q][e]]++;
    for (int slot = 0; slot < MAX_PAWNS; slot++)
        if (s->pawn[q][slot] >= 0) visible[s->pawn[q][slot]]++;
    for (int i = 0; i < s->att_n; i++)
        if (s->att[i].owner == q) visible[s->att[i].card]++;
    if (s->resolving >= 0 && s->mover == q) visible[s->resolving]++;
    for (int c = 0; c < NUM_CARDS; c++) visible[c] += s->shown[q][c];
    for (int i = s->deck_n[q] - s->looked[p][q]; i < s->deck_n[q]; i++) visible[s->deck[q][i]]++;
    memcpy(seen, visible, sizeof seen);
    if (s->notes) {
        int known[NUM_CARDS];
        for (int c = 0; c < NUM_CARDS; c++) known[c] = s->recalled[q][c];
        for (int i = s->deck_n[q] - s->looked[p][q]; i < s->deck_n[q]; i++)
            if (known[s->deck[q][i]]) known[s->deck[q][i]]--;
        for (int c = 0; c < NUM_CARDS; c++) {
            if (s->noted[p][q][c] > known[c]) known[c] = s->noted[p][q][c];
            seen[c] += known[c];
        }
    }
    int suits[4], nsuits = 0, others[4], nothers = 0;
    for (int suit = 0; suit < 4; suit++) {
        int any = 0;
        for (int rk = 0; rk < NUM_RANKS; rk++)
            if (seen[suit * NUM_RANKS + rk]) any = 1;
        if (any)
            suits[nsuits++] = suit;
        else
            others[nothers++] = suit;
    }
    if (nsuits < 2) {
        int scratch[4], picked[2];
        me_rng_sample(r, nothers, 2 - nsuits, scratch, picked);
        for (int i = 0; i < 2 - nsuits; i++) suits[nsuits + i] = others[picked[i]];
        nsuits = 2;
        if (suits[0] > suits[1]) {
            int t = suits[0];
            suits[0] = suits[1];
            suits[1] = t;
        }
    }
    int copies = s->advanced ? MAX_COPIES_ADVANCED : 1;
    memset(deck, 0, sizeof(int) * NUM_CARDS);
    for (int g = 0; g < 3; g++) {
        int first = g < 2 ? suits[g] * NUM_RANKS : NUM_MINORS, count = g < 2 ? NUM_RANKS : NUM_MAJORS;
        int need = g < 2 ? SUIT_CARDS_PER_DECK : MAJORS_PER_DECK;
        int slots[NUM_CARDS * MAX_COPIES_ADVANCED], ns = 0;
        for (int c = first; c < first + count; c++) {
            int k = seen[c];
            deck[c] = k;
            need -= k;
            for (int i = k; i < copies; i++) slots[ns++] = c;
        }
        if (need == ns) {
            for (int i = 0; i < ns; i++) deck[slots[i]]++;
        } else if (need > 0) {
            int scratch[NUM_CARDS * MAX_COPIES_ADVANCED], picked[NUM_CARDS * MAX_COPIES_ADVANCED];
            me_rng_sample(r, ns, need, scratch, picked);
            for (int i = 0; i < need; i++) deck[slots[picked[i]]]++;
        }
    }
}

/* knowledge.KnowledgeMixin.determinize given Rng(seed) */
static void determinize(void *sv, int player, uint64_t seed) {
    st_t *s = (st_t *)sv;
    const st_t before = *s; /* what the seat saw, read while the copy is re-dealt */
    me_rng r;
    me_rng_seed(&r, seed);
    int n = s->n;
    for (int q = 0; q < n; q++) {
        int split = before.deck_n[q] - before.looked[player][q], hand_slots = 0;
        int unseen[DECK_SIZE + NUM_CARDS], nu = 0;
        if (q == player) {
            /* sorted by insertion: a deck is a few dozen cards, and qsort's generic merge sort was
             * 3% of a search (callgrind) */
            for (; nu < split; nu++) {
                int x = before.deck[q][nu], j = nu;
                for (; j > 0 && unseen[j - 1] > x; j--) unseen[j] = unseen[j - 1];
                unseen[j] = x;
            }
        } else {
            int face_down[NUM_CARDS];
            for (int c = 0; c < NUM_CARDS; c++) {
                face_down[c] = before.hand[q][c] - before.shown[q][c];
                hand_slots += face_down[c];
            }
            if (hand_slots) {
                for (int c = 0; c < NUM_CARDS; c++) s->hand[q][c] = before.shown[q][c];
                s->hand_size[q] = (uint8_t)(s->hand_size[q] - hand_slots);
            }
            int counts[NUM_CARDS];
            if (s->lists_public) {
                memset(counts, 0, sizeof counts);
                for (int i = 0; i < split; i++) counts[before.deck[q][i]]++;
                for (int c = 0; c < NUM_CARDS; c++) counts[c] += face_down[c];
            } else {
                int deck[NUM_CARDS], visible[NUM_CARDS];
                sample_unseen(&before, player, q, &r, deck, visible);
                for (int c = 0; c < NUM_CARDS; c++) counts[c] = deck[c] > visible[c] ? deck[c] - visible[c] : 0;
            }
            for (int c = 0; c < NUM_CARDS; c++)
                for (int i = 0; i < counts[c]; i++) unseen[nu++] = c;
        }
        if (hand_slots) {
            int minors[DECK_SIZE + NUM_CARDS], nm = 0, take[DECK_SIZE + NUM_CARDS];
            for (int k = 0; k < nu; k++)
                if (!IS_MAJOR(unseen[k])) minors[nm++] = k;
            int scratch[DECK_SIZE + NUM_CARDS], picked[DECK_SIZE + NUM_CARDS];
            me_rng_sample(&r, nm, hand_slots, scratch, picked);
            memset(take, 0, sizeof(int) * (size_t)nu);
            for (int i = 0; i < hand_slots; i++) take[minors[picked[i]]] = 1;
            int kept = 0;
            for (int k = 0; k < nu; k++) {
                if (take[k]) {
                    s->hand[q][unseen[k]]++;
                    s->hand_size[q]++;
                } else {
                    unseen[kept++] = unseen[k];
                }
            }
            nu = kept;
        }
        me_rng_shuffle_int(&r, unseen, nu);
        int looked = before.deck_n[q] - split;
        for (int i = 0; i < nu; i++) s->deck[q][i] = (uint8_t)unseen[i];
        for (int i = 0; i < looked; i++) s->deck[q][nu + i] = before.deck[q][split + i];
        s->deck_n[q] = (uint8_t)(nu + looked);
    }
    int notes = 0;
    for (int a = 0; a < n; a++) {
        for (int q = 0; q < n; q++) {
            if (a != player) memset(s->noted[a][q], 0, NUM_CARDS);
        }
        for (int c = 0; c < NUM_CARDS; c++) {
            notes += s->recalled[a][c];
            for (int q = 0; q < n; q++) notes += a == player ? s->noted[a][q][c] : 0;
        }
    }
    s->notes = notes;
    s->rng = r;
}

static int dims(const me_config *cfg, me_dims *d, char *err, size_t errlen) {
    for (int i = 0; i < C_N_ENV; i++) {
        if (T_CONSTS[i] != EXPECTED[i]) {
            snprintf(err, errlen, "mystick_domination: table 'consts' item %d is %d, the twin expects %d", i,
                     (int)T_CONSTS[i], (int)EXPECTED[i]);
            return -1;
        }
    }
    if (N_ATT > 32 || N_ENV > NUM_CARDS || N_DELAYED > NUM_CARDS || N_SPECIAL > NUM_CARDS) {
        snprintf(err, errlen, "mystick_domination: more card kinds than the twin has room for");
        return -1;
    }
    int n = cfg->num_players;
    if (n < 2 || n > 5) {
        snprintf(err, errlen, "Mystick Domination is a game for 2-5 players, got num_players=%d", n);
        return -1;
    }
    if ((cfg->options[0] != 0 && cfg->options[0] != 1) || (cfg->options[1] != 0 && cfg->options[1] != 1)) {
        snprintf(err, errlen, "mystick_domination: construction and reshuffle options are 0 or 1");
        return -1;
    }
    for (int q = 0; q < n; q++) {
        const int *listed = cfg->options + OPT_DECKS + q * DECK_SIZE;
        int random = 0;
        for (int i = 0; i < DECK_SIZE; i++) random += listed[i] == RANDOM_DECK;
        const char *problem = NULL;
        if (!random)
            problem = deck_problem(listed, cfg->options[0]);
        else if (random < DECK_SIZE)
            problem = "a deck is 39 card ids, or 39 times -1 for a random one";
        if (problem) {
            snprintf(err, errlen, "mystick_domination: the deck of seat %d is not legal (%s)", q, problem);
            return -1;
        }
    }
    for (int k = OPT_DECKS + n * DECK_SIZE; k < ME_MAX_OPTIONS; k++) {
        if (cfg->options[k] != 0) {
            snprintf(err, errlen, "mystick_domination: %d players take %d options, got option %d = %d", n,
                     OPT_DECKS + n * DECK_SIZE, k, cfg->options[k]);
            return -1;
        }
    }
    layout_t L;
    layout_for(n, &L);
    if (L.size != T_OBS_SIZE[n]) {
        snprintf(err, errlen, "mystick_domination: the twin's observation has %d values, Python's %d", L.size,
                 (int)T_OBS_SIZE[n]);
        return -1;
    }
    d->num_actions = NUM_ACTIONS(n);
    d->obs_size = L.size;
    d->privileged_size = n * L.size + n * HIDDEN_PER_SEAT;
    d->info_size = 1 + n + 3 + 2 * n;
    d->state_size = sizeof(st_t);
    return 0;
}

const me_game me_mystick_domination = {
    "mystick_domination",
    TABLES,
    (int)(sizeof TABLES / sizeof TABLES[0]),
    dims,
    init,
    current_player,
    legal_mask,
    apply,
    observe,
    privileged,
    returns,
    player_done,
    info,
    determinize,
};
