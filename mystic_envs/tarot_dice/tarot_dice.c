/* Tarot Dice, compiled: the twin of mystic_envs/tarot_dice/rules.py (with dice.py, arcana.py,
 * decisions.py and observation.py), equal to it step for step (CONVENTIONS section 8).
 *
 * The state is one flat struct without pointers: dice are bitmasks and small values, cards small
 * ints (Minor c: suit c / 14, rank c % 14, owner c / 28; Major m in a hand or graveyard: 56 + m),
 * the turn a stack of tasks, the card being played a stack of at most two plays (The Devil's card
 * stacks on the one that set it off). Every function below carries the name of the Python method
 * it mirrors, and draws from the generator in the same order with the same calls, so a seed gives
 * the same game. Component data (die sizes, ranks, Major effects, the draft order, the
 * observation's layout) come from Python at start through the me_table list (twin.py
 * core_tables()); the ids below (phases, faces, Majors, actions) are checked against Python's in
 * dims() through the "consts" table. */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* ---- sizes and ids (checked against twin.py's "consts" in dims) ------------------------------- */
#define NUM_SIZES 6
#define NUM_NUMBERED 12
#define PLANET_DIE 12
#define ZODIAC_DIE 13
#define NUM_DICE 14
#define DECK_SIZE 28
#define NUM_MINORS 56
#define RANKS_PER_SUIT 14
#define NUMBERED_RANKS 10
#define NUM_MAJORS 22
#define MAJOR_CARD 56
#define WELLS 3
#define DRAFT_LEN 6
#define NUM_FACE_KINDS 4

#define A_MAJOR 0
#define A_WELL 22
#define A_CAPTURE 25
#define A_DIE 61
#define A_CARD 75
#define A_PLAY_STRENGTH 103
#define A_PLAY_DEATH 104
#define A_FACE 105
#define A_NUMBER 109
#define A_PASS 121
#define NUM_ACTIONS 122

enum {
    PH_DRAFT, PH_MAGICIAN, PH_DEVIL, PH_ACTION, PH_HANGED, PH_FACE, PH_VALUE, PH_TARGET, PH_QUEEN,
    PH_TRIGGERS, PH_ROLL_ANY, PH_TOWER, PH_LOVERS, PH_JUSTICE, PH_WORLD, PH_CHARIOT_CARD,
    PH_CHARIOT_WELL, PH_PLANET_SYMBOL, PH_ZODIAC_SYMBOL, PH_URANUS, PH_AQUARIUS, PH_NEPTUNE, PH_MARS,
    PH_VENUS, PH_GAME_OVER, NUM_PHASES
};
enum { OP_DECIDE, OP_ROLL, OP_PLANET_PHASE, OP_END_TURN, OP_PLAY_EFFECT, OP_TRIGGERS, OP_END_PLAY, OP_ROUND_START };
enum { MARS = 1, VENUS, MERCURY, MOON, SUN, SOUTH_NODE, NORTH_NODE, PLUTO, JUPITER, SATURN, URANUS, NEPTUNE };
enum { ARIES = 1, TAURUS, GEMINI, CANCER, LEO, VIRGO, LIBRA, SCORPIO, SAGITTARIUS, CAPRICORN, AQUARIUS, PISCES };
enum {
    FOOL, MAGICIAN, PRIESTESS, EMPRESS, EMPEROR, HIEROPHANT, LOVERS, CHARIOT, STRENGTH, HERMIT, WHEEL,
    JUSTICE, HANGED_MAN, DEATH, TEMPERANCE, DEVIL, TOWER, STAR, MOON_CARD, SUN_CARD, JUDGEMENT, WORLD
};
enum { K_NUMBER, K_PAGE, K_KNIGHT, K_QUEEN, K_KING, K_NO_EFFECT };
enum {
    E_WELL_TO_HAND, E_ROLL_ANY, E_SET_MAX, E_PLANET_SYMBOL, E_SECOND_OWN, E_CHARIOT, E_ANY_FACE,
    E_BANISH_TARGET, E_ENEMY_TARGET, E_SUBSTITUTE, E_TO_HAND, E_PLUS_MINUS_ONE, E_SACRIFICE,
    E_REROLL_NUMBERED, E_ZODIAC_SYMBOL, E_BETWEEN, E_NUMBERED_TARGET
};
/* The observation layout's parts, in observation.LAYOUT order (their starts come from Python). */
enum {
    L_DICE, L_PLANET, L_ZODIAC, L_EFFECTS, L_OWN_MAJORS, L_OPP_MAJORS, L_PILE, L_PLAYED_MAJORS,
    L_TOP_MAJOR, L_CARDS, L_WELLS, L_HAND_SIZE, L_POINTS, L_ROUNDS, L_STARTER, L_DRAFT_FIRST, L_PICKS,
    L_TURN, L_CAPTURED, L_PLANET_PENDING, L_PHASE, L_TO_MOVE, L_PLAY_CARD, L_SOURCE, L_KIND, L_VALUE,
    L_TARGET, L_SUBSTITUTED, L_PREV_TOP, L_TRIGGERS, L_QUEEN, L_CHARIOT, L_OUTER, L_RESOLVING,
    NUM_LAYOUT
};

/* The ids above, in twin.py CONSTS order: a table that disagrees stops dims() with its name. */
enum {
    C_NUM_SIZES, C_NUM_NUMBERED, C_PLANET_DIE, C_ZODIAC_DIE, C_DECK_SIZE, C_NUM_MINORS,
    C_RANKS_PER_SUIT, C_NUMBERED_RANKS, C_NUM_MAJORS, C_MAJOR_CARD, C_WELLS, C_A_MAJOR, C_A_WELL,
    C_A_CAPTURE, C_A_DIE, C_A_CARD, C_A_PLAY_STRENGTH, C_A_PLAY_DEATH, C_A_FACE, C_A_NUMBER, C_A_PASS,
    C_NUM_ACTIONS, C_NUM_PHASES, C_PH_ACTION, C_PH_GAME_OVER, C_PH_VENUS, C_OP_ROUND_START, C_NEPTUNE,
    C_PISCES, C_TAURUS, C_WORLD, C_STRENGTH, C_DEATH, C_K_NO_EFFECT, C_E_NUMBERED_TARGET,
    /* component numbers, used from here */
    C_START_PLANET, C_START_ZODIAC, C_MAJOR_TRUMP, C_PRIME_MASK, C_MANDATORY_MASK, C_VALUE_SCALE,
    C_POINTS_SCALE, C_HAND_SCALE, NUM_CONSTS
};
static const int32_t EXPECTED[C_START_PLANET] = {
    NUM_SIZES, NUM_NUMBERED, PLANET_DIE, ZODIAC_DIE, DECK_SIZE, NUM_MINORS, RANKS_PER_SUIT,
    NUMBERED_RANKS, NUM_MAJORS, MAJOR_CARD, WELLS, A_MAJOR, A_WELL, A_CAPTURE, A_DIE, A_CARD,
    A_PLAY_STRENGTH, A_PLAY_DEATH, A_FACE, A_NUMBER, A_PASS, NUM_ACTIONS, NUM_PHASES, PH_ACTION,
    PH_GAME_OVER, PH_VENUS, OP_ROUND_START, NEPTUNE, PISCES, TAURUS, WORLD, STRENGTH, DEATH,
    K_NO_EFFECT, E_NUMBERED_TARGET,
};

/* ---- component tables, filled from twin.py core_tables() --------------------------------------- */
static int32_t T_SIZE[NUM_DICE];          /* faces of each die (dice.SIZE) */
static int32_t T_RANK_KIND[RANKS_PER_SUIT];   /* cards.RANK_KIND */
static int32_t T_RANK_VALUES[RANKS_PER_SUIT]; /* cards.RANK_VALUES as bit masks over 1-12 */
static int32_t T_RANK_TRUMP[RANKS_PER_SUIT];  /* cards.RANK_TRUMP */
static int32_t T_MAJOR_EFFECT[NUM_MAJORS];    /* cards.MAJORS[m].effect */
static int32_t T_DRAFT_ORDER[DRAFT_LEN];      /* cards.DRAFT_ORDER */
static int32_t T_FACE_KINDS[NUM_FACE_KINDS];  /* cards.FACE_KINDS */
static int32_t T_CONSTS[NUM_CONSTS];
static int32_t T_OBS_AT[NUM_LAYOUT + 1]; /* observation.LAYOUT starts, then OBS_SIZE */

static const me_table TABLES[] = {
    {"size", T_SIZE, NUM_DICE},
    {"rank_kind", T_RANK_KIND, RANKS_PER_SUIT},
    {"rank_values", T_RANK_VALUES, RANKS_PER_SUIT},
    {"rank_trump", T_RANK_TRUMP, RANKS_PER_SUIT},
    {"major_effect", T_MAJOR_EFFECT, NUM_MAJORS},
    {"draft_order", T_DRAFT_ORDER, DRAFT_LEN},
    {"face_kinds", T_FACE_KINDS, NUM_FACE_KINDS},
    {"consts", T_CONSTS, NUM_CONSTS},
    {"obs_at", T_OBS_AT, NUM_LAYOUT + 1},
};

#define ALL_NUMBERED 0xFFFu
#define PLANET_BIT (1u << PLANET_DIE)
#define ZODIAC_BIT (1u << ZODIAC_DIE)
#define SYMBOL_BITS (PLANET_BIT | ZODIAC_BIT)
#define ALL_MAJORS ((1u << NUM_MAJORS) - 1)
#define ALL_SYMBOLS 0x1FFEu /* the faces 1-12 as bits */
#define OWN_DICE(p) (0x3Fu << (NUM_SIZES * (p)))
#define DEATH_CARD (MAJOR_CARD + DEATH)
#define STRENGTH_CARD (MAJOR_CARD + STRENGTH)

/* Room for every card a place can hold: a well takes what The Chariot puts back on it. */
#define HAND_MAX 4
#define PILE_MAX 32
#define TASKS_MAX 64
#define PLAYS_MAX 2
#define HIDDEN_PER_SEAT (DECK_SIZE + WELLS * DECK_SIZE + DECK_SIZE)

typedef struct {
    uint8_t op, a; /* OP_DECIDE: a = phase; OP_ROLL: a = primary */
    uint16_t b;    /* OP_DECIDE: the player; OP_ROLL: the dice */
} task_t;

typedef struct { /* arcana.Play */
    int8_t card, effect_card, prev_top, returning, target, kind, value;
    uint8_t hidden, from_devil, matched, triggered;
    uint16_t free_values;
    uint32_t pending;
} play_t;

typedef struct {
    me_rng rng;
    int32_t num_rounds, turn_limit;
    int32_t points[2], rounds_done;
    int32_t last_winner, last_points, last_how; /* -1, 0, -1 before any round ended */
    int32_t turn_in_round;
    uint64_t choice;
    uint32_t pile, owned[2], major_hand[2];
    uint16_t board, knight_ban[2], neptune_ban;
    int8_t value[NUM_DICE];
    int8_t round_starter, draft_first, draft_pos, phase, player, resolving, captured;
    int8_t sacrificed[2];
    uint8_t hidden_well[2], open_wells[2];
    int8_t hand_n[2], unused_n[2], grave_n[2], wells_n[2][WELLS];
    int8_t hand[2][HAND_MAX];
    int8_t unused[2][DECK_SIZE];
    int8_t grave[2][PILE_MAX];
    int8_t wells[2][WELLS][PILE_MAX];
    int8_t ntasks, nplays;
    task_t tasks[TASKS_MAX];
    play_t plays[PLAYS_MAX];
} st_t;

/* ---- small helpers ----------------------------------------------------------------------------- */
static inline int ctz32(uint32_t x) {
#if defined(__GNUC__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1u)) x >>= 1, n++;
    return n;
#endif
}
static inline int popcount32(uint32_t x) {
#if defined(__GNUC__)
    return __builtin_popcount(x);
#else
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}
#define FOR_BITS(var, mask) \
    for (uint32_t var##_m = (mask), var = 0; var##_m && ((var = (uint32_t)ctz32(var##_m)), 1); var##_m &= var##_m - 1)

static inline int size_of(int d) { return T_SIZE[d]; }

/* dice.SIZE_AT_LEAST[v]: the numbered dice that can show v. */
static inline uint32_t size_at_least(int v) {
    uint32_t out = 0;
    for (int d = 0; d < NUM_NUMBERED; d++)
        if (T_SIZE[d] >= v) out |= 1u << d;
    return out;
}

/* actions.DIE_OF[p][t] and TARGET_OF[p][d] */
static inline int die_of(int p, int t) {
    if (t < NUM_SIZES) return p * NUM_SIZES + t;
    if (t < NUM_NUMBERED) return (1 - p) * NUM_SIZES + t - NUM_SIZES;
    return t;
}
/* The dice of a bit set over die ids as a bit set over the die actions (bit t for die_of(p, t)):
 * the same set for player 0, the two players' dice swapped for player 1. A bit twiddle, as the
 * die-by-die loop with die_of was 15% of a Tarot Dice search (callgrind). */
static inline uint32_t dice_by_action(int p, uint32_t dice) {
    dice &= (1u << NUM_DICE) - 1u;
    if (!p) return dice;
    const uint32_t own = 0x3Fu, rest = ~((own << NUM_SIZES) | own);
    return (dice & rest) | (dice >> NUM_SIZES & own) | ((dice & own) << NUM_SIZES);
}
static inline int target_of(int p, int d) {
    if (d >= NUM_NUMBERED) return d;
    return (d / NUM_SIZES == p ? 0 : NUM_SIZES) + d % NUM_SIZES;
}

static inline void push(st_t *s, int op, int a, int b) {
    task_t *t = &s->tasks[s->ntasks++];
    t->op = (uint8_t)op;
    t->a = (uint8_t)a;
    t->b = (uint16_t)b;
}

static inline play_t *top_play(st_t *s) { return &s->plays[s->nplays - 1]; }

static void sorted_insert(int8_t *arr, int8_t *n, int card) {
    int i = *n;
    while (i > 0 && arr[i - 1] > card) {
        arr[i] = arr[i - 1];
        i--;
    }
    arr[i] = (int8_t)card;
    (*n)++;
}

/* Slots past a count are kept zero, so that equal tables are equal bytes (pickles, search keys). */
static void remove_at(int8_t *arr, int8_t *n, int i) {
    for (int j = i; j < *n - 1; j++) arr[j] = arr[j + 1];
    (*n)--;
    arr[*n] = 0;
}

static int index_of(const int8_t *arr, int n, int card) {
    for (int i = 0; i < n; i++)
        if (arr[i] == card) return i;
    return -1;
}

/* ---- dice.py ----------------------------------------------------------------------------------- */
static inline int zodiac_active(const st_t *s) { return s->value[PLANET_DIE] != SUN; }
static inline int planet_active(const st_t *s) {
    return s->value[ZODIAC_DIE] != TAURUS || s->value[PLANET_DIE] == SUN;
}
static inline int zodiac_is(const st_t *s, int face) {
    return s->value[ZODIAC_DIE] == face && s->value[PLANET_DIE] != SUN;
}
static inline uint32_t active_dice(const st_t *s) {
    return s->board & ~(uint32_t)(s->knight_ban[0] | s->knight_ban[1] | s->neptune_ban);
}
static uint32_t locked(const st_t *s) {
    if (!zodiac_is(s, LEO)) return 0;
    int top = 0;
    uint32_t out = 0;
    FOR_BITS(d, s->board) {
        int v = s->value[d];
        if (v > top) {
            top = v;
            out = 1u << d;
        } else if (v == top) {
            out |= 1u << d;
        }
    }
    return out;
}
static inline uint32_t changeable(const st_t *s) { return active_dice(s) & ~locked(s); }
static inline uint32_t rollable(const st_t *s) { return changeable(s) | SYMBOL_BITS; }
static inline uint32_t number_targets(const st_t *s, int v) {
    return (changeable(s) & size_at_least(v)) | SYMBOL_BITS;
}
static int shows(const st_t *s, int die, int value) {
    int v = s->value[die];
    if (v == value) return 1;
    return die < NUM_NUMBERED && ((v == 6 && value == 9) || (v == 9 && value == 6)) && zodiac_is(s, CANCER);
}
static int can_capture(const st_t *s, int mine, int theirs) {
    int a = s->value[mine], b = s->value[theirs];
    if (a >= b) return 1;
    if (zodiac_is(s, CANCER)) return (a == 6 ? 9 : a) >= (b == 9 ? 6 : b);
    return 0;
}

static void set_planet(st_t *s, int face, int rolled) {
    if (face == s->value[PLANET_DIE] && !rolled) return;
    s->neptune_ban = 0;
    s->value[PLANET_DIE] = (int8_t)face;
    if (s->value[ZODIAC_DIE] == TAURUS && face != SUN) return;
    if (face == URANUS)
        push(s, OP_DECIDE, PH_URANUS, s->player);
    else if (face == NEPTUNE)
        push(s, OP_DECIDE, PH_NEPTUNE, s->player);
}

static void set_zodiac(st_t *s, int face, int rolled) {
    s->value[ZODIAC_DIE] = (int8_t)face;
    if (face == TAURUS && s->value[PLANET_DIE] != SUN) s->neptune_ban = 0;
    if (rolled && face == AQUARIUS && s->value[PLANET_DIE] != SUN) push(s, OP_DECIDE, PH_AQUARIUS, s->player);
}

static void set_die(st_t *s, int die, int value) {
    if (die == PLANET_DIE)
        set_planet(s, value, 0);
    else if (die == ZODIAC_DIE)
        set_zodiac(s, value, 0);
    else
        s->value[die] = (int8_t)value;
}

/* DiceMixin.roll */
static void roll(st_t *s, uint32_t dice, int primary) {
    me_rng *rng = &s->rng;
    if (dice == ZODIAC_BIT) {
        set_zodiac(s, 1 + (int)me_rng_below(rng, 12), 1);
        return;
    }
    int face = s->value[PLANET_DIE] != SUN ? s->value[ZODIAC_DIE] : 0;
    if (dice == PLANET_BIT) {
        int nw = 1 + (int)me_rng_below(rng, 12);
        if (face == LIBRA && nw == s->value[PLANET_DIE]) nw = 1 + (int)me_rng_below(rng, 12);
        set_planet(s, nw, 1);
        return;
    }
    uint32_t rolled = dice & changeable(s);
    int p = s->player;
    for (int side = 0; side < 2; side++) {
        uint32_t mine = rolled & OWN_DICE(side == 0 ? p : 1 - p);
        FOR_BITS(die, mine) {
            int size = size_of((int)die);
            int nw = 1 + (int)me_rng_below(rng, (uint64_t)size);
            if (face == LIBRA) {
                if (nw == s->value[die]) nw = 1 + (int)me_rng_below(rng, (uint64_t)size);
            } else if (face == SCORPIO) {
                nw = nw - 1 > 1 ? nw - 1 : 1;
            } else if (face == CAPRICORN) {
                nw = nw + 1 < size ? nw + 1 : size;
            }
            s->value[die] = (int8_t)nw;
        }
    }
    if (!primary || !rolled) return;
    if (face == GEMINI) {
        uint32_t twins = 0;
        FOR_BITS(d, rolled) twins |= 1u << ((d + NUM_SIZES) % NUM_NUMBERED);
        twins &= ~rolled;
        if (twins) push(s, OP_ROLL, 0, (int)twins);
    } else if (face == PISCES) {
        uint32_t shown = 0; /* values as bits: every value is at most 20 */
        FOR_BITS(d, rolled) shown |= 1u << s->value[d];
        uint32_t same = 0;
        FOR_BITS(d, active_dice(s) & ~rolled) {
            if (shown >> s->value[d] & 1u) same |= 1u << d;
        }
        if (same) push(s, OP_ROLL, 0, (int)same);
    } else if (face == SAGITTARIUS) {
        push(s, OP_ROLL, 0, (int)ZODIAC_BIT);
        push(s, OP_ROLL, 0, (int)PLANET_BIT);
    }
}

static int planet_phase_pending(const st_t *s) {
    if (s->phase == PH_ACTION) return 1;
    for (int i = 0; i < s->ntasks; i++)
        if (s->tasks[i].op == OP_PLANET_PHASE) return 1;
    return 0;
}

/* DiceMixin.planet_phase */
static void planet_phase(st_t *s) {
    if (!planet_active(s)) return;
    if (zodiac_is(s, ARIES) && !s->captured) return;
    int face = s->value[PLANET_DIE];
    int p = s->player;
    if (face == MARS) {
        push(s, OP_DECIDE, PH_MARS, p);
    } else if (face == VENUS) {
        push(s, OP_DECIDE, PH_VENUS, p);
    } else if (face == MOON) {
        push(s, OP_ROLL, 1, (int)ZODIAC_BIT);
        push(s, OP_ROLL, 1, (int)PLANET_BIT);
    } else if (face == MERCURY || face == JUPITER || face == SOUTH_NODE || face == NORTH_NODE) {
        uint32_t dice = 0;
        if (face == MERCURY || face == JUPITER) {
            uint32_t board = s->board;
            if (!board) return;
            int wanted = face == MERCURY ? 1000 : 0;
            FOR_BITS(d, board) {
                int z = size_of((int)d);
                if (face == MERCURY ? z < wanted : z > wanted) wanted = z;
            }
            FOR_BITS(d, board) {
                if (size_of((int)d) == wanted) dice |= 1u << d;
            }
        } else if (face == SOUTH_NODE) {
            FOR_BITS(d, active_dice(s)) {
                if (s->value[d] <= 2) dice |= 1u << d;
            }
        } else {
            FOR_BITS(d, active_dice(s)) {
                if (s->value[d] == size_of((int)d)) dice |= 1u << d;
            }
        }
        if (dice) push(s, OP_ROLL, 1, (int)dice);
    } else if (face == PLUTO || face == SATURN) {
        FOR_BITS(d, s->board & ~locked(s)) {
            int v = s->value[d];
            if (face == PLUTO && v % 2 == 0)
                s->value[d] = (int8_t)(v / 2);
            else if (face == SATURN && v % 2 == 1)
                s->value[d] = (int8_t)(v + 1);
        }
    }
}

/* DiceMixin.nightfall: the winner; *points gets the pair's maximum values. */
static int nightfall(const st_t *s, int *points) {
    int lines[2][NUM_SIZES], n[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        FOR_BITS(d, s->board & OWN_DICE(p)) {
            /* insertion by (value, size) descending; no two of a seat's dice share a size */
            int i = n[p]++;
            int v = s->value[d], z = size_of((int)d);
            while (i > 0) {
                int e = lines[p][i - 1];
                int ve = s->value[e], ze = size_of(e);
                if (ve > v || (ve == v && ze > z)) break;
                lines[p][i] = e;
                i--;
            }
            lines[p][i] = (int)d;
        }
    }
    for (int i = 0; i < n[0]; i++) {
        int a = lines[0][i], b = lines[1][i];
        if (s->value[a] != s->value[b]) {
            *points = size_of(a) + size_of(b);
            return s->value[a] > s->value[b] ? 0 : 1;
        }
    }
    *points = size_of(lines[0][0]) + size_of(lines[1][0]);
    return 1 - s->round_starter;
}

/* ---- arcana.py --------------------------------------------------------------------------------- */
static inline int owns(const st_t *s, int p, int major) { return (int)(s->owned[p] >> major & 1u); }
static inline int grave_top(const st_t *s, int p) { return s->grave_n[p] ? s->grave[p][s->grave_n[p] - 1] : -1; }

static inline int trump_rank(int card) {
    if (card >= NUM_MINORS) return T_CONSTS[C_MAJOR_TRUMP] + card - MAJOR_CARD;
    return T_RANK_TRUMP[card % RANKS_PER_SUIT];
}
static inline int effect_kind(int card) {
    if (card >= NUM_MINORS) return card == STRENGTH_CARD ? -1 : K_NO_EFFECT;
    return T_RANK_KIND[card % RANKS_PER_SUIT];
}
/* card_values as a bit mask over 1-12 (0: not a numbered card) */
static inline uint32_t card_values(int card) {
    if (card >= NUM_MINORS) return 0;
    return (uint32_t)T_RANK_VALUES[card % RANKS_PER_SUIT];
}

static int effect_playable(const st_t *s, int card) {
    int kind = effect_kind(card);
    if (kind == K_KNIGHT) return active_dice(s) != 0;
    if (kind == K_PAGE || kind == K_KING) return changeable(s) != 0;
    return 1;
}
static int hanged_man_possible(const st_t *s, int p, int prev_top) {
    return prev_top >= 0 && owns(s, p, HANGED_MAN) && effect_playable(s, prev_top);
}
static int card_playable(const st_t *s, int p, int card) {
    return effect_playable(s, card) || hanged_man_possible(s, p, grave_top(s, p));
}

static int pose(st_t *s, int phase, int p);

static void start_play(st_t *s, int p, int card, int hidden, int from_devil) {
    int prev_top = grave_top(s, p);
    s->grave[p][s->grave_n[p]++] = (int8_t)card;
    play_t *pl = &s->plays[s->nplays++];
    pl->card = (int8_t)card;
    pl->hidden = (uint8_t)hidden;
    pl->from_devil = (uint8_t)from_devil;
    pl->prev_top = (int8_t)prev_top;
    pl->effect_card = (int8_t)card;
    pl->kind = -1;
    pl->value = 0;
    pl->target = -1;
    pl->matched = 0;
    pl->free_values = 0;
    pl->pending = 0;
    pl->triggered = 0;
    pl->returning = -1;
    push(s, OP_END_PLAY, 0, 0);
    push(s, OP_TRIGGERS, 0, 0);
    push(s, OP_PLAY_EFFECT, 0, 0);
    if (hanged_man_possible(s, p, prev_top)) push(s, OP_DECIDE, PH_HANGED, p);
}

static void set_kind(st_t *s, play_t *pl, int kind) {
    pl->kind = (int8_t)kind;
    int p = s->player;
    if (kind == K_NUMBER) {
        push(s, OP_DECIDE, PH_VALUE, p);
    } else if (kind == K_QUEEN) {
        push(s, OP_DECIDE, PH_QUEEN, p);
        push(s, OP_DECIDE, PH_QUEEN, p);
    } else if (kind != K_NO_EFFECT) {
        push(s, OP_DECIDE, PH_TARGET, p);
    }
}

static int play_effect(st_t *s) {
    play_t *pl = top_play(s);
    int kind = effect_kind(pl->effect_card);
    if (kind < 0) return pose(s, PH_FACE, s->player);
    set_kind(s, pl, kind);
    return 0;
}

/* ArcanaMixin.value_options: (options, free) */
static uint32_t value_options(const st_t *s, int p, const play_t *pl, uint32_t *free_out) {
    uint32_t base = card_values(pl->effect_card);
    uint32_t free = 0;
    int temperance = owns(s, p, TEMPERANCE);
    FOR_BITS(v, base) {
        free |= 1u << v;
        if (temperance) free |= (1u << (v - 1)) | (1u << (v + 1));
    }
    uint32_t options = free;
    int top = pl->prev_top;
    if (owns(s, p, JUDGEMENT) && top >= 0 && card_values(top)) {
        FOR_BITS(v, base) {
            FOR_BITS(t, card_values(top)) {
                uint32_t lo = v < t ? v : t, hi = v < t ? t : v;
                options |= ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
            }
        }
    }
    *free_out = free & 0x1FFEu;
    return options & 0x1FFEu;
}

static uint32_t triggered_majors(const st_t *s, int p, const play_t *pl) {
    uint32_t owned = s->owned[p];
    if (!owned) return 0;
    int kind = pl->kind;
    int number = kind == K_NUMBER;
    int face = !number;
    int target = pl->target;
    int matched = number && pl->matched;
    int own_die = number && target >= 0 && target < NUM_NUMBERED && target / NUM_SIZES == p;
    uint32_t out = 0;
    if (matched) {
        out |= (1u << FOOL) | (1u << EMPEROR) | (1u << STAR);
        if (target < NUM_NUMBERED) out |= 1u << HERMIT;
    }
    if (target == ZODIAC_DIE) out |= 1u << PRIESTESS;
    if (face) out |= (1u << EMPRESS) | (1u << CHARIOT) | (1u << SUN_CARD);
    if (number && pl->value >= 0 && ((uint32_t)T_CONSTS[C_PRIME_MASK] >> pl->value & 1u)) out |= 1u << HIEROPHANT;
    if (own_die) out |= (1u << LOVERS) | (1u << JUSTICE);
    if (pl->hidden) {
        out |= (1u << WHEEL) | (1u << MOON_CARD);
        if (!pl->from_devil) out |= 1u << DEVIL;
    }
    if (pl->prev_top >= 0 && trump_rank(pl->card) > trump_rank(pl->prev_top)) out |= 1u << TOWER;
    if (number && target >= NUM_NUMBERED) out |= 1u << WORLD;
    return out & owned;
}

static uint32_t extra_targets(const st_t *s, int p, int major, const play_t *pl) {
    uint32_t fits = changeable(s) & size_at_least(pl->value);
    if (major == LOVERS) return fits & OWN_DICE(p) & ~(1u << pl->target);
    if (major == JUSTICE) return fits & OWN_DICE(1 - p);
    return fits;
}

static int major_possible(const st_t *s, int p, int major, const play_t *pl) {
    int effect = T_MAJOR_EFFECT[major];
    if (effect == E_ROLL_ANY || effect == E_PLANET_SYMBOL || effect == E_ZODIAC_SYMBOL) return 1;
    if (effect == E_SET_MAX)
        return pl->target != PLANET_DIE && pl->target >= 0 && (rollable(s) >> pl->target & 1u);
    if (effect == E_BANISH_TARGET) return pl->target >= 0 && (active_dice(s) >> pl->target & 1u);
    if (effect == E_REROLL_NUMBERED) return changeable(s) != 0;
    if (effect == E_CHARIOT) {
        for (int i = 0; i < s->grave_n[p]; i++)
            if (card_values(s->grave[p][i])) return 1;
        return 0;
    }
    if (effect == E_SACRIFICE) {
        int card = s->sacrificed[p];
        return card >= 0 && card_playable(s, p, card);
    }
    return extra_targets(s, p, major, pl) != 0;
}

static void activate_major(st_t *s, int p, int major, play_t *pl) {
    int effect = T_MAJOR_EFFECT[major];
    s->resolving = (int8_t)major;
    if (effect == E_ROLL_ANY) {
        push(s, OP_DECIDE, PH_ROLL_ANY, p);
    } else if (effect == E_SET_MAX) {
        set_die(s, pl->target, size_of(pl->target));
    } else if (effect == E_PLANET_SYMBOL) {
        push(s, OP_DECIDE, PH_PLANET_SYMBOL, p);
    } else if (effect == E_ZODIAC_SYMBOL) {
        push(s, OP_DECIDE, PH_ZODIAC_SYMBOL, p);
    } else if (effect == E_BANISH_TARGET) {
        s->knight_ban[p] |= (uint16_t)(1u << pl->target);
    } else if (effect == E_REROLL_NUMBERED) {
        push(s, OP_DECIDE, PH_TOWER, p);
    } else if (effect == E_CHARIOT) {
        push(s, OP_DECIDE, PH_CHARIOT_CARD, p);
    } else if (effect == E_SACRIFICE) {
        int card = s->sacrificed[p];
        s->sacrificed[p] = -1;
        start_play(s, p, card, 0, 1);
    } else if (effect == E_SECOND_OWN) {
        push(s, OP_DECIDE, PH_LOVERS, p);
    } else if (effect == E_ENEMY_TARGET) {
        push(s, OP_DECIDE, PH_JUSTICE, p);
    } else {
        push(s, OP_DECIDE, PH_WORLD, p);
    }
}

static void death_to_hand(st_t *s, int p) {
    if (!owns(s, p, DEATH) || (s->major_hand[p] >> DEATH & 1u)) return;
    int i = index_of(s->grave[p], s->grave_n[p], DEATH_CARD);
    if (i >= 0) remove_at(s->grave[p], &s->grave_n[p], i);
    s->major_hand[p] |= 1u << DEATH;
}

static int offer_triggers(st_t *s) {
    play_t *pl = top_play(s);
    int p = s->player;
    if (!pl->triggered) {
        pl->pending = triggered_majors(s, p, pl);
        pl->triggered = 1;
    }
    uint32_t offer = 0;
    FOR_BITS(m, pl->pending) {
        if (major_possible(s, p, (int)m, pl)) offer |= 1u << m;
    }
    if (!offer) return 0;
    s->phase = PH_TRIGGERS;
    s->choice = offer;
    s->resolving = -1;
    return 1;
}

/* ---- decisions.py ------------------------------------------------------------------------------ */
static int pose(st_t *s, int phase, int p) {
    uint64_t choice = 0;
    switch (phase) {
    case PH_TARGET: {
        play_t *pl = top_play(s);
        if (pl->kind == K_NUMBER)
            choice = number_targets(s, pl->value);
        else if (pl->kind == K_KNIGHT)
            choice = active_dice(s);
        else
            choice = changeable(s);
        break;
    }
    case PH_QUEEN:
    case PH_ROLL_ANY: choice = rollable(s); break;
    case PH_TOWER: choice = changeable(s); break;
    case PH_MARS: choice = changeable(s) & OWN_DICE(1 - p); break;
    case PH_VENUS: choice = changeable(s) & OWN_DICE(p); break;
    case PH_NEPTUNE: choice = s->board; break;
    case PH_LOVERS: choice = extra_targets(s, p, LOVERS, top_play(s)); break;
    case PH_JUSTICE: choice = extra_targets(s, p, JUSTICE, top_play(s)); break;
    case PH_WORLD: choice = extra_targets(s, p, WORLD, top_play(s)); break;
    case PH_VALUE: {
        play_t *pl = top_play(s);
        uint32_t free;
        uint32_t options = value_options(s, p, pl, &free);
        pl->free_values = (uint16_t)free;
        if ((options & (options - 1)) == 0) {
            int v = -1;
            for (uint32_t o = options; o; o >>= 1) v++;
            pl->value = (int8_t)v;
            push(s, OP_DECIDE, PH_TARGET, p);
            return 0;
        }
        choice = options;
        break;
    }
    case PH_HANGED: {
        play_t *pl = top_play(s);
        choice = (uint64_t)(hanged_man_possible(s, p, pl->prev_top) ? 1 : 0) |
                 (uint64_t)(effect_playable(s, pl->card) ? 2 : 0);
        break;
    }
    case PH_FACE: {
        uint64_t page_king = changeable(s) ? 0x9u : 0u;
        choice = 0x4u | page_king | (active_dice(s) ? 0x2u : 0u);
        break;
    }
    case PH_PLANET_SYMBOL:
    case PH_ZODIAC_SYMBOL: choice = ALL_SYMBOLS; break;
    case PH_URANUS: choice = ALL_SYMBOLS & ~(1u << URANUS); break;
    case PH_AQUARIUS: choice = ALL_SYMBOLS & ~(1u << AQUARIUS); break;
    case PH_CHARIOT_CARD:
        for (int i = 0; i < s->grave_n[p]; i++) {
            int c = s->grave[p][i];
            if (c < NUM_MINORS && c % RANKS_PER_SUIT < NUMBERED_RANKS) choice |= UINT64_C(1) << c;
        }
        break;
    case PH_MAGICIAN:
    case PH_DEVIL:
        for (int k = 0; k < WELLS; k++)
            if (s->wells_n[p][k]) choice |= 1u << k;
        break;
    default: /* PH_CHARIOT_WELL */ choice = s->open_wells[p]; break;
    }
    if (!choice) return 0;
    s->phase = (int8_t)phase;
    s->player = (int8_t)p;
    s->choice = choice;
    return 1;
}

static int legal_mask(const void *sv, uint8_t *mask) {
    const st_t *s = (const st_t *)sv;
    memset(mask, 0, NUM_ACTIONS);
    int phase = s->phase, p = s->player;
    uint64_t choice = s->choice;
    int n = 0;
    switch (phase) {
    case PH_ACTION: {
        uint32_t active = active_dice(s);
        uint32_t lock = locked(s);
        if (!zodiac_is(s, VIRGO)) {
            int base = p * NUM_SIZES, other = (1 - p) * NUM_SIZES;
            FOR_BITS(a, active & OWN_DICE(p)) {
                int row = A_CAPTURE + ((int)a - base) * NUM_SIZES - other;
                FOR_BITS(b, active & OWN_DICE(1 - p)) {
                    if (can_capture(s, (int)a, (int)b)) mask[row + (int)b] = 1, n++;
                }
            }
        }
        uint32_t roll_ok = (active & ~lock) | SYMBOL_BITS;
        FOR_BITS(t, dice_by_action(p, roll_ok)) mask[A_DIE + t] = 1, n++;
        /* card_playable's two halves, worked out once for every card */
        int knight_ok = active != 0, page_ok = (active & ~lock) != 0;
        int top = grave_top(s, p);
        int hanged = 0;
        if (top >= 0 && owns(s, p, HANGED_MAN)) {
            int k = effect_kind(top);
            hanged = k == K_KNIGHT ? knight_ok : (k == K_PAGE || k == K_KING) ? page_ok : 1;
        }
        int offset = p * DECK_SIZE;
        for (int i = 0; i < s->hand_n[p]; i++) {
            int c = s->hand[p][i];
            int k = effect_kind(c);
            int ok = hanged || (k == K_KNIGHT ? knight_ok : (k == K_PAGE || k == K_KING) ? page_ok : 1);
            if (ok) mask[A_CARD + c - offset] = 1, n++;
        }
        for (int w = 0; w < WELLS; w++) {
            if (!s->wells_n[p][w]) continue;
            int c = s->wells[p][w][s->wells_n[p][w] - 1];
            int k = effect_kind(c);
            int ok = hanged || (k == K_KNIGHT ? knight_ok : (k == K_PAGE || k == K_KING) ? page_ok : 1);
            if (ok) mask[A_CARD + c - offset] = 1, n++;
        }
        if (s->major_hand[p] >> STRENGTH & 1u) mask[A_PLAY_STRENGTH] = 1, n++;
        if (s->major_hand[p] >> DEATH & 1u) mask[A_PLAY_DEATH] = 1, n++;
        break;
    }
    case PH_TARGET:
    case PH_QUEEN:
    case PH_ROLL_ANY:
    case PH_TOWER:
    case PH_LOVERS:
    case PH_JUSTICE:
    case PH_WORLD:
    case PH_NEPTUNE:
    case PH_MARS:
    case PH_VENUS:
        FOR_BITS(t, dice_by_action(p, (uint32_t)choice)) mask[A_DIE + t] = 1, n++;
        break;
    case PH_TRIGGERS:
        FOR_BITS(m, (uint32_t)choice) mask[A_MAJOR + m] = 1, n++;
        if (!(choice & s->plays[s->nplays - 1].pending & (uint32_t)T_CONSTS[C_MANDATORY_MASK]))
            mask[A_PASS] = 1, n++;
        break;
    case PH_DRAFT:
        FOR_BITS(m, s->pile) mask[A_MAJOR + m] = 1, n++;
        break;
    case PH_VALUE:
    case PH_PLANET_SYMBOL:
    case PH_URANUS:
    case PH_ZODIAC_SYMBOL:
    case PH_AQUARIUS:
        FOR_BITS(v, (uint32_t)choice) mask[A_NUMBER + v - 1] = 1, n++;
        break;
    case PH_HANGED:
        if (choice & 1u) mask[A_MAJOR + HANGED_MAN] = 1, n++;
        if (choice & 2u) mask[A_PASS] = 1, n++;
        break;
    case PH_FACE:
        FOR_BITS(f, (uint32_t)choice) mask[A_FACE + f] = 1, n++;
        break;
    case PH_CHARIOT_CARD:
        for (uint64_t c = choice; c; c &= c - 1) {
            int card = 0;
            while (!(c >> card & 1u)) card++;
            mask[A_CARD + card - p * DECK_SIZE] = 1, n++;
        }
        break;
    case PH_MAGICIAN:
    case PH_DEVIL:
    case PH_CHARIOT_WELL:
        FOR_BITS(k, (uint32_t)choice) mask[A_WELL + k] = 1, n++;
        break;
    default: break; /* game over */
    }
    return n;
}

/* ---- rules.py ---------------------------------------------------------------------------------- */
static void begin_round(st_t *s) {
    me_rng *rng = &s->rng;
    for (int d = 0; d < NUM_NUMBERED; d++) s->value[d] = 0;
    s->value[PLANET_DIE] = (int8_t)T_CONSTS[C_START_PLANET];
    s->value[ZODIAC_DIE] = (int8_t)T_CONSTS[C_START_ZODIAC];
    s->board = ALL_NUMBERED;
    memset(s->hand, 0, sizeof s->hand);
    memset(s->grave, 0, sizeof s->grave);
    memset(s->wells, 0, sizeof s->wells);
    memset(s->tasks, 0, sizeof s->tasks);
    memset(s->plays, 0, sizeof s->plays);
    s->knight_ban[0] = s->knight_ban[1] = 0;
    s->neptune_ban = 0;
    for (int p = 0; p < 2; p++) {
        int deck[DECK_SIZE];
        me_rng_permutation(rng, deck, DECK_SIZE);
        for (int k = 0; k < WELLS; k++) {
            s->wells[p][k][0] = (int8_t)(deck[2 * k] + p * DECK_SIZE);
            s->wells[p][k][1] = (int8_t)(deck[2 * k + 1] + p * DECK_SIZE);
            s->wells_n[p][k] = 2;
        }
        s->hand[p][0] = (int8_t)(deck[2 * WELLS] + p * DECK_SIZE);
        s->hand_n[p] = 1;
        uint32_t rest = 0;
        for (int i = 2 * WELLS + 1; i < DECK_SIZE; i++) rest |= 1u << deck[i];
        int n = 0;
        FOR_BITS(c, rest) s->unused[p][n++] = (int8_t)(c + (uint32_t)(p * DECK_SIZE));
        s->unused_n[p] = (int8_t)n;
        s->grave_n[p] = 0;
        s->sacrificed[p] = -1;
        s->owned[p] = 0;
        s->major_hand[p] = 0;
        s->hidden_well[p] = s->open_wells[p] = (1u << WELLS) - 1;
    }
    s->pile = ALL_MAJORS;
    s->draft_pos = 0;
    s->turn_in_round = 0;
    s->captured = 0;
    s->ntasks = 0;
    s->nplays = 0;
    s->choice = 0;
    s->resolving = -1;
    s->phase = PH_DRAFT;
    s->player = s->draft_first;
}

static void begin_turn(st_t *s, int p) {
    s->player = (int8_t)p;
    s->phase = PH_ACTION;
    s->knight_ban[p] = 0;
    s->captured = 0;
    s->resolving = -1;
    s->choice = 0;
}

static void round_start(st_t *s) {
    for (int d = 0; d < NUM_NUMBERED; d++) s->value[d] = (int8_t)(1 + (int)me_rng_below(&s->rng, (uint64_t)size_of(d)));
    begin_turn(s, s->round_starter);
}

static void end_match(st_t *s) {
    s->phase = PH_GAME_OVER;
    s->player = -1;
    s->ntasks = 0;
    s->nplays = 0;
    memset(s->tasks, 0, sizeof s->tasks);
    memset(s->plays, 0, sizeof s->plays);
    s->choice = 0;
    s->resolving = -1;
    s->captured = 0;
}

static void next_round(st_t *s) {
    s->draft_first = (int8_t)(1 - s->draft_first);
    s->round_starter = (int8_t)(1 - s->draft_first);
    begin_round(s);
}

static void end_round(st_t *s, int winner, int points, int how) {
    s->points[winner] += points;
    s->rounds_done++;
    s->last_winner = winner;
    s->last_points = points;
    s->last_how = how;
    if (s->rounds_done >= s->num_rounds && s->points[0] != s->points[1])
        end_match(s);
    else
        next_round(s);
}

static void end_turn(st_t *s) {
    s->turn_in_round++;
    if (s->turn_in_round >= s->turn_limit) {
        int points;
        int winner = nightfall(s, &points);
        end_round(s, winner, points, 1);
    } else {
        begin_turn(s, 1 - s->player);
    }
}

static void run(st_t *s) {
    while (s->ntasks) {
        task_t t = s->tasks[--s->ntasks];
        s->tasks[s->ntasks] = (task_t){0, 0, 0};
        switch (t.op) {
        case OP_DECIDE:
            if (pose(s, t.a, t.b)) return;
            break;
        case OP_ROLL: roll(s, t.b, t.a); break;
        case OP_TRIGGERS:
            if (offer_triggers(s)) return;
            break;
        case OP_PLAY_EFFECT:
            if (play_effect(s)) return;
            break;
        case OP_END_PLAY:
            memset(&s->plays[--s->nplays], 0, sizeof(play_t));
            s->resolving = -1;
            break;
        case OP_PLANET_PHASE: planet_phase(s); break;
        case OP_END_TURN: end_turn(s); return;
        default: round_start(s); return;
        }
    }
}

static int take_well_top(st_t *s, int p, int k) {
    int card = s->wells[p][k][--s->wells_n[p][k]];
    s->wells[p][k][s->wells_n[p][k]] = 0;
    if (s->wells_n[p][k] == 1) s->hidden_well[p] &= (uint8_t)~(1u << k);
    return card;
}

static void draft(st_t *s, int p, int major) {
    s->pile &= ~(1u << major);
    s->owned[p] |= 1u << major;
    if (major == STRENGTH) s->major_hand[p] |= 1u << STRENGTH;
    s->draft_pos++;
    if (s->draft_pos < DRAFT_LEN) {
        s->player = (int8_t)(T_DRAFT_ORDER[s->draft_pos] == 0 ? s->draft_first : 1 - s->draft_first);
        return;
    }
    task_t order[4];
    int n = 0;
    for (int i = 0; i < 2; i++) {
        int q = i == 0 ? s->draft_first : 1 - s->draft_first;
        if (owns(s, q, MAGICIAN)) order[n++] = (task_t){OP_DECIDE, PH_MAGICIAN, (uint16_t)q};
        if (owns(s, q, DEVIL)) order[n++] = (task_t){OP_DECIDE, PH_DEVIL, (uint16_t)q};
    }
    s->ntasks = 0;
    push(s, OP_ROUND_START, 0, 0);
    while (n) s->tasks[s->ntasks++] = order[--n];
    run(s);
}

static void magician(st_t *s, int p, int k) {
    for (int i = 0; i < s->wells_n[p][k]; i++) {
        sorted_insert(s->hand[p], &s->hand_n[p], s->wells[p][k][i]);
        s->wells[p][k][i] = 0;
    }
    s->wells_n[p][k] = 0;
    s->hidden_well[p] &= (uint8_t)~(1u << k);
    s->open_wells[p] &= (uint8_t)~(1u << k);
}

static void die_chosen(st_t *s, int phase, int p, int die) {
    if (phase == PH_TARGET) {
        play_t *pl = top_play(s);
        pl->target = (int8_t)die;
        int kind = pl->kind;
        if (kind == K_NUMBER) {
            pl->matched = (uint8_t)shows(s, die, pl->value);
            set_die(s, die, pl->value);
        } else if (kind == K_PAGE) {
            set_die(s, die, 1);
        } else if (kind == K_KING) {
            set_die(s, die, size_of(die));
        } else {
            s->knight_ban[p] |= (uint16_t)(1u << die);
        }
    } else if (phase == PH_QUEEN || phase == PH_ROLL_ANY || phase == PH_TOWER || phase == PH_MARS ||
               phase == PH_VENUS) {
        push(s, OP_ROLL, 1, 1 << die);
    } else if (phase == PH_NEPTUNE) {
        s->neptune_ban = (uint16_t)(1u << die);
    } else {
        set_die(s, die, top_play(s)->value);
    }
}

static void action(st_t *s, int p, int a) {
    if (a < A_DIE) {
        int x = (a - A_CAPTURE) / NUM_SIZES, y = (a - A_CAPTURE) % NUM_SIZES;
        int mine = p * NUM_SIZES + x, theirs = (1 - p) * NUM_SIZES + y;
        uint16_t gone = (uint16_t)((1u << mine) | (1u << theirs));
        s->board &= (uint16_t)~gone;
        s->value[mine] = s->value[theirs] = 0;
        s->knight_ban[0] &= (uint16_t)~gone;
        s->knight_ban[1] &= (uint16_t)~gone;
        s->neptune_ban &= (uint16_t)~gone;
        s->captured = 1;
        death_to_hand(s, p);
        if (!s->board) {
            end_round(s, p, size_of(mine) + size_of(theirs), 0);
            return;
        }
        push(s, OP_END_TURN, 0, 0);
        push(s, OP_PLANET_PHASE, 0, 0);
    } else if (a < A_CARD) {
        push(s, OP_END_TURN, 0, 0);
        push(s, OP_PLANET_PHASE, 0, 0);
        push(s, OP_ROLL, 1, 1 << die_of(p, a - A_DIE));
    } else {
        push(s, OP_END_TURN, 0, 0);
        push(s, OP_PLANET_PHASE, 0, 0);
        if (a == A_PLAY_STRENGTH || a == A_PLAY_DEATH) {
            int major = a == A_PLAY_STRENGTH ? STRENGTH : DEATH;
            s->major_hand[p] &= ~(1u << major);
            start_play(s, p, MAJOR_CARD + major, 0, 0);
        } else {
            int card = p * DECK_SIZE + a - A_CARD;
            int i = index_of(s->hand[p], s->hand_n[p], card);
            if (i >= 0) {
                remove_at(s->hand[p], &s->hand_n[p], i);
                start_play(s, p, card, 1, 0);
            } else {
                int k = 0;
                while (!(s->wells_n[p][k] && s->wells[p][k][s->wells_n[p][k] - 1] == card)) k++;
                take_well_top(s, p, k);
                start_play(s, p, card, 0, 0);
            }
        }
    }
    run(s);
}

static void apply(void *sv, int a) {
    st_t *s = (st_t *)sv;
    int phase = s->phase, p = s->player;
    switch (phase) {
    case PH_ACTION: action(s, p, a); return;
    case PH_TARGET:
    case PH_QUEEN:
    case PH_ROLL_ANY:
    case PH_TOWER:
    case PH_LOVERS:
    case PH_JUSTICE:
    case PH_WORLD:
    case PH_NEPTUNE:
    case PH_MARS:
    case PH_VENUS: die_chosen(s, phase, p, die_of(p, a - A_DIE)); break;
    case PH_TRIGGERS: {
        play_t *pl = top_play(s);
        if (a == A_PASS) {
            pl->pending = 0;
        } else {
            int m = a - A_MAJOR;
            pl->pending &= ~(1u << m);
            push(s, OP_TRIGGERS, 0, 0);
            activate_major(s, p, m, pl);
        }
        break;
    }
    case PH_VALUE: {
        play_t *pl = top_play(s);
        int v = a - A_NUMBER + 1;
        pl->value = (int8_t)v;
        if (!(pl->free_values >> v & 1u)) s->resolving = JUDGEMENT;
        push(s, OP_DECIDE, PH_TARGET, p);
        break;
    }
    case PH_HANGED:
        if (a != A_PASS) {
            play_t *pl = top_play(s);
            s->resolving = HANGED_MAN;
            pl->effect_card = pl->prev_top;
        }
        break;
    case PH_FACE: set_kind(s, top_play(s), T_FACE_KINDS[a - A_FACE]); break;
    case PH_PLANET_SYMBOL:
    case PH_URANUS: set_planet(s, a - A_NUMBER + 1, 0); break;
    case PH_ZODIAC_SYMBOL:
    case PH_AQUARIUS: set_zodiac(s, a - A_NUMBER + 1, 0); break;
    case PH_CHARIOT_CARD:
        top_play(s)->returning = (int8_t)(p * DECK_SIZE + a - A_CARD);
        push(s, OP_DECIDE, PH_CHARIOT_WELL, p);
        break;
    case PH_CHARIOT_WELL: {
        play_t *pl = top_play(s);
        int i = index_of(s->grave[p], s->grave_n[p], pl->returning);
        remove_at(s->grave[p], &s->grave_n[p], i);
        int k = a - A_WELL;
        s->wells[p][k][s->wells_n[p][k]++] = pl->returning;
        pl->returning = -1;
        break;
    }
    case PH_DRAFT: draft(s, p, a - A_MAJOR); return;
    case PH_MAGICIAN: magician(s, p, a - A_WELL); break;
    default: /* PH_DEVIL */ s->sacrificed[p] = (int8_t)take_well_top(s, p, a - A_WELL); break;
    }
    run(s);
}

/* ---- observation.py ---------------------------------------------------------------------------- */
static inline int ego_card(int v, int c) { return (c / DECK_SIZE != v) * DECK_SIZE + c % DECK_SIZE; }
static inline int card_row(int v, int c) { return T_OBS_AT[L_CARDS] + ego_card(v, c) * 10; }
static inline int played_card_index(int owner, int viewer, int card, int block) {
    int base = block + (owner != viewer) * (DECK_SIZE + 2);
    if (card >= NUM_MINORS) return base + DECK_SIZE + (card == DEATH_CARD);
    return base + card % DECK_SIZE;
}

/* observation's CARD_PLACES: hand, tops of wells 1-3, under the tops 1-3, graveyard, its top, sacrificed */
enum { PL_HAND = 0, PL_TOP = 1, PL_UNDER = 4, PL_GRAVE = 7, PL_GRAVE_TOP = 8, PL_SACRIFICED = 9 };

static void observe(const void *sv, int me, float *o) {
    const st_t *s = (const st_t *)sv;
    const int32_t *at = T_OBS_AT;
    int opp = 1 - me;
    memset(o, 0, sizeof(float) * (size_t)at[NUM_LAYOUT]);
    const double value_scale = T_CONSTS[C_VALUE_SCALE], points_scale = T_CONSTS[C_POINTS_SCALE];
    const double hand_scale = T_CONSTS[C_HAND_SCALE];
    /* Dice */
    uint32_t bans[3] = {s->knight_ban[me], s->knight_ban[opp], s->neptune_ban};
    uint32_t banned = bans[0] | bans[1] | bans[2];
    uint32_t lock = locked(s);
    FOR_BITS(d, s->board) {
        int r = at[L_DICE] + target_of(me, (int)d) * 7;
        int v = s->value[d];
        o[r] = 1.0f;
        o[r + 1] = (float)(v / value_scale);
        if (v == size_of((int)d)) o[r + 2] = 1.0f;
        if (banned >> d & 1u)
            for (int k = 0; k < 3; k++)
                if (bans[k] >> d & 1u) o[r + 3 + k] = 1.0f;
        if (lock >> d & 1u) o[r + 6] = 1.0f;
    }
    o[at[L_PLANET] + s->value[PLANET_DIE] - 1] = 1.0f;
    o[at[L_ZODIAC] + s->value[ZODIAC_DIE] - 1] = 1.0f;
    if (planet_active(s)) o[at[L_EFFECTS]] = 1.0f;
    if (zodiac_active(s)) o[at[L_EFFECTS] + 1] = 1.0f;
    /* Majors */
    FOR_BITS(m, s->owned[me]) o[at[L_OWN_MAJORS] + (int)m] = 1.0f;
    FOR_BITS(m, s->owned[opp]) o[at[L_OPP_MAJORS] + (int)m] = 1.0f;
    FOR_BITS(m, s->pile) o[at[L_PILE] + (int)m] = 1.0f;
    /* Cards */
    for (int side = 0; side < 2; side++) {
        int q = side ? opp : me;
        uint32_t hm = s->major_hand[q];
        if (hm >> STRENGTH & 1u) o[at[L_PLAYED_MAJORS] + 2 * side] = 1.0f;
        if (hm >> DEATH & 1u) o[at[L_PLAYED_MAJORS] + 2 * side + 1] = 1.0f;
        if (q == me)
            for (int i = 0; i < s->hand_n[q]; i++) o[card_row(me, s->hand[q][i]) + PL_HAND] = 1.0f;
        int well_at = at[L_WELLS] + 9 * side;
        for (int k = 0; k < WELLS; k++) {
            int n = s->wells_n[q][k];
            if (s->open_wells[q] >> k & 1u) o[well_at + 3 * k] = 1.0f;
            if (n) {
                const int8_t *well = s->wells[q][k];
                o[well_at + 3 * k + 1] = (float)(n / 4.0);
                o[card_row(me, well[n - 1]) + PL_TOP + k] = 1.0f;
                int first = s->hidden_well[q] >> k & 1u;
                for (int i = first; i < n - 1; i++) o[card_row(me, well[i]) + PL_UNDER + k] = 1.0f;
                if (first) o[well_at + 3 * k + 2] = 1.0f;
            }
        }
        int gn = s->grave_n[q];
        const int8_t *g = s->grave[q];
        for (int i = 0; i < gn; i++) {
            int c = g[i];
            if (c >= NUM_MINORS)
                o[at[L_PLAYED_MAJORS] + 4 + 2 * side + (c == DEATH_CARD)] = 1.0f;
            else if (i != gn - 1)
                o[card_row(me, c) + PL_GRAVE] = 1.0f;
        }
        if (gn) {
            int top = g[gn - 1];
            if (top >= NUM_MINORS)
                o[at[L_TOP_MAJOR] + 2 * side + (top == DEATH_CARD)] = 1.0f;
            else
                o[card_row(me, top) + PL_GRAVE_TOP] = 1.0f;
        }
        if (s->sacrificed[q] >= 0) o[card_row(me, s->sacrificed[q]) + PL_SACRIFICED] = 1.0f;
    }
    o[at[L_HAND_SIZE]] = (float)((s->hand_n[me] + popcount32(s->major_hand[me])) / hand_scale);
    o[at[L_HAND_SIZE] + 1] = (float)((s->hand_n[opp] + popcount32(s->major_hand[opp])) / hand_scale);
    /* Round and match */
    o[at[L_STARTER] + (s->round_starter != me)] = 1.0f;
    o[at[L_DRAFT_FIRST] + (s->draft_first != me)] = 1.0f;
    if (s->captured) o[at[L_CAPTURED]] = 1.0f;
    if (planet_phase_pending(s)) o[at[L_PLANET_PENDING]] = 1.0f;
    o[at[L_PHASE] + s->phase] = 1.0f;
    if (s->player == me) o[at[L_TO_MOVE]] = 1.0f;
    o[at[L_POINTS]] = (float)(s->points[me] / points_scale);
    o[at[L_POINTS] + 1] = (float)(s->points[opp] / points_scale);
    o[at[L_ROUNDS]] = (float)((double)s->rounds_done / (double)s->num_rounds);
    o[at[L_PICKS]] = (float)(s->draft_pos / 6.0);
    o[at[L_TURN]] = (float)((double)s->turn_in_round / (double)s->turn_limit);
    /* The decision at hand */
    if (s->nplays) {
        const play_t *pl = &s->plays[s->nplays - 1];
        int actor = s->player;
        o[played_card_index(actor, me, pl->card, at[L_PLAY_CARD])] = 1.0f;
        int from_hand = pl->hidden || pl->card >= NUM_MINORS;
        o[at[L_SOURCE] + (pl->from_devil ? 2 : from_hand ? 0 : 1)] = 1.0f;
        if (pl->kind >= 0) o[at[L_KIND] + pl->kind] = 1.0f;
        o[at[L_VALUE]] = (float)(pl->value / 12.0);
        if (pl->target >= 0) o[at[L_TARGET] + target_of(me, pl->target)] = 1.0f;
        if (pl->effect_card != pl->card) o[at[L_SUBSTITUTED]] = 1.0f;
        if (pl->prev_top >= 0) o[played_card_index(actor, me, pl->prev_top, at[L_PREV_TOP])] = 1.0f;
        FOR_BITS(m, pl->pending) o[at[L_TRIGGERS] + (int)m] = 1.0f;
        if (pl->returning >= 0) o[at[L_CHARIOT] + ego_card(me, pl->returning)] = 1.0f;
        if (s->nplays > 1) {
            o[at[L_OUTER]] = 1.0f;
            FOR_BITS(m, s->plays[s->nplays - 2].pending) o[at[L_OUTER] + 1 + (int)m] = 1.0f;
        }
        int queen = 0;
        for (int i = 0; i < s->ntasks; i++)
            if (s->tasks[i].op == OP_DECIDE && s->tasks[i].a == PH_QUEEN) queen++;
        if (queen || s->phase == PH_QUEEN) o[at[L_QUEEN]] = (float)((queen + (s->phase == PH_QUEEN)) / 2.0);
    }
    if (s->resolving >= 0) o[at[L_RESOLVING] + s->resolving] = 1.0f;
}

/* Every seat's observation in seat order, then per seat (absolute, 0 then 1): the Minors of its
 * deck in its hand, under each face-down well card, and never dealt (twin.py privileged_layout). */
static void privileged(const void *sv, float *out) {
    const st_t *s = (const st_t *)sv;
    int n = T_OBS_AT[NUM_LAYOUT];
    observe(sv, 0, out);
    observe(sv, 1, out + n);
    float *h = out + 2 * n;
    memset(h, 0, sizeof(float) * 2 * HIDDEN_PER_SEAT);
    for (int p = 0; p < 2; p++) {
        float *b = h + p * HIDDEN_PER_SEAT;
        for (int i = 0; i < s->hand_n[p]; i++) b[s->hand[p][i] % DECK_SIZE] = 1.0f;
        for (int k = 0; k < WELLS; k++)
            if (s->hidden_well[p] >> k & 1u) b[DECK_SIZE + k * DECK_SIZE + s->wells[p][k][0] % DECK_SIZE] = 1.0f;
        for (int i = 0; i < s->unused_n[p]; i++) b[DECK_SIZE + WELLS * DECK_SIZE + s->unused[p][i] % DECK_SIZE] = 1.0f;
    }
}

/* ---- the interface ----------------------------------------------------------------------------- */
static int current_player(const void *sv) { return ((const st_t *)sv)->player; }

static void returns(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    if (s->phase != PH_GAME_OVER) {
        out[0] = out[1] = 0.0;
        return;
    }
    /* zero_sum_returns of the placements; a match never ends level */
    int w = s->points[0] > s->points[1] ? 0 : 1;
    out[w] = 1.0;
    out[1 - w] = -1.0;
}

static int player_done(const void *sv, int seat) {
    (void)seat;
    return ((const st_t *)sv)->phase == PH_GAME_OVER;
}

static void info(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    out[0] = s->phase;
    out[1] = s->points[0];
    out[2] = s->points[1];
    out[3] = s->rounds_done + (s->phase != PH_GAME_OVER);
    out[4] = s->turn_in_round;
    out[5] = s->last_winner;
    out[6] = s->last_points;
    out[7] = s->last_how + 1;
}

static void init(void *sv, const me_config *cfg, uint64_t seed) {
    st_t *s = (st_t *)sv;
    memset(s, 0, sizeof *s);
    me_rng_seed(&s->rng, seed);
    s->num_rounds = cfg->options[0];
    s->turn_limit = cfg->options[1];
    s->last_winner = -1;
    s->last_points = 0;
    s->last_how = -1;
    s->round_starter = (int8_t)me_rng_below(&s->rng, 2);
    s->draft_first = (int8_t)(1 - s->round_starter);
    begin_round(s);
}

/* TarotDiceState.determinize given Rng(seed) */
static void determinize(void *sv, int player, uint64_t seed) {
    st_t *s = (st_t *)sv;
    me_rng r;
    me_rng_seed(&r, seed);
    for (int owner = 0; owner < 2; owner++) {
        uint32_t bottoms = s->hidden_well[owner];
        int secret = owner != player ? s->hand_n[owner] : 0;
        uint32_t in_pool = 0; /* the pool as bits over the owner's deck: sorted for free */
        for (int i = 0; i < s->unused_n[owner]; i++) in_pool |= 1u << (s->unused[owner][i] % DECK_SIZE);
        FOR_BITS(k, bottoms) in_pool |= 1u << (s->wells[owner][k][0] % DECK_SIZE);
        for (int i = 0; i < secret; i++) in_pool |= 1u << (s->hand[owner][i] % DECK_SIZE);
        int pool[DECK_SIZE], perm[DECK_SIZE], n = 0;
        FOR_BITS(c, in_pool) pool[n++] = (int)c + owner * DECK_SIZE;
        me_rng_permutation(&r, perm, n);
        int i = 0;
        FOR_BITS(k, bottoms) s->wells[owner][k][0] = (int8_t)pool[perm[i++]];
        if (owner != player) {
            uint32_t hand = 0;
            for (int j = 0; j < secret; j++) hand |= 1u << (pool[perm[i++]] % DECK_SIZE);
            int h = 0;
            FOR_BITS(c, hand) s->hand[owner][h++] = (int8_t)((int)c + owner * DECK_SIZE);
        }
        uint32_t rest = 0;
        for (; i < n; i++) rest |= 1u << (pool[perm[i]] % DECK_SIZE);
        int u = 0;
        FOR_BITS(c, rest) s->unused[owner][u++] = (int8_t)((int)c + owner * DECK_SIZE);
        s->unused_n[owner] = (int8_t)u;
    }
    s->rng = r;
}

static int dims(const me_config *cfg, me_dims *d, char *err, size_t errlen) {
    for (int i = 0; i < C_START_PLANET; i++) {
        if (T_CONSTS[i] != EXPECTED[i]) {
            snprintf(err, errlen, "tarot_dice: table 'consts' item %d is %d, the twin expects %d", i,
                     (int)T_CONSTS[i], (int)EXPECTED[i]);
            return -1;
        }
    }
    if (cfg->num_players != 2) {
        snprintf(err, errlen, "Tarot Dice is a game for exactly 2 players, got num_players=%d", cfg->num_players);
        return -1;
    }
    if (cfg->options[0] < 1 || cfg->options[1] < 1) {
        snprintf(err, errlen, "tarot_dice: num_rounds and round_turn_limit must be at least 1, got %d and %d",
                 cfg->options[0], cfg->options[1]);
        return -1;
    }
    d->num_actions = NUM_ACTIONS;
    d->obs_size = T_OBS_AT[NUM_LAYOUT];
    d->privileged_size = 2 * T_OBS_AT[NUM_LAYOUT] + 2 * HIDDEN_PER_SEAT;
    d->info_size = 8;
    d->state_size = sizeof(st_t);
    return 0;
}

const me_game me_tarot_dice = {
    "tarot_dice",
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
