/* Mystria's compiled twin: exactly the game of mystic_envs/mystria/rules.py, both rule sets
 * (CONVENTIONS section 8; the interface is mystic_envs/core/c/game.h).
 *
 * The state is one flat struct (a stack is its code, as in rules.py: a byte; a Magician board is
 * one 12-bit mask per colour; the standing triangles are a bit set kept up to date from the few
 * triangles through the spaces an action changes), so a clone is a memcpy. Chance is drawn from
 * the core generator in the order of MystriaState.new: the first player (below(2)), the bag
 * (permutation(64), again while a stack of three identical tokens is dealt), then the four
 * Objective tiles (sample(8, 4)) with the full rules.
 *
 * Every component table (stack codes, board lines and triangles, the largest-group table, the
 * Objective tiles, the rule numbers) comes from Python at start through the me_table list
 * (twin.py core_tables()); the sizes, action offsets, phases and the observation's layout below
 * are checked against Python's in dims() through the "consts" table. The observation is built
 * the way observation.py builds it: every 1.0 set in a zero vector, and each scalar divided in
 * double, then rounded to float, as numpy does when it stores a Python float. */
#include <stdio.h>
#include <string.h>

#include "game.h"

#define NUM_PLAYERS 2
#define NUM_COLOURS 4
#define STACK_HEIGHT 3
#define NUM_SPACES 24
#define NUM_STACK_SPACES 20
#define TOKENS_PER_COLOUR 16
#define NUM_TOKENS (NUM_COLOURS * TOKENS_PER_COLOUR)
#define NUM_PLACES 12
#define TURNS 12
#define NUM_OBJECTIVES 8
#define OBJECTIVES_DRAWN 2
#define NUM_STACKS 85
#define NUM_PAIRS 55
#define NUM_TRIANGLES 26
#define TRIANGLES_AT 6 /* triangles through one space, at most (the lattice's six) */
#define LINES_AT 6     /* lines at one space, at most */
#define NUM_GROUP_MASKS (1 << NUM_PLACES)
#define FULL_BOARD ((1u << NUM_PLACES) - 1u)

enum {
    A_KEEP = 0,
    A_ASSIGN = A_KEEP + NUM_OBJECTIVES,
    A_MOVE = A_ASSIGN + NUM_COLOURS,
    A_FLIP = A_MOVE + NUM_PAIRS,
    A_TAKE = A_FLIP + NUM_SPACES,
    A_PLACE = A_TAKE + NUM_SPACES,
    NUM_ACTIONS = A_PLACE + NUM_PLACES,
};
enum { KEEP_PHASE, SCORE_BOARD, TAKE_PHASE, PLACE_PHASE, GAME_OVER, NUM_PHASES };
enum { NOT_OVER, SCORED, OUT_OF_ENERGY, NO_ACTION };

/* observation.LAYOUT, part by part. */
enum {
    AT_STACKS = 0,
    AT_TRIANGLE_SPACES = AT_STACKS + NUM_SPACES * STACK_HEIGHT * NUM_COLOURS,
    AT_OWN_BOARD = AT_TRIANGLE_SPACES + NUM_SPACES,
    AT_OPP_BOARD = AT_OWN_BOARD + NUM_PLACES * NUM_COLOURS,
    AT_DROPS = AT_OPP_BOARD + NUM_PLACES * NUM_COLOURS,
    AT_TOKENS_PLACED = AT_DROPS + 2,
    AT_SCORE_VALUES = AT_TOKENS_PLACED + 2,
    AT_PHASE = AT_SCORE_VALUES + NUM_COLOURS,
    AT_TO_MOVE = AT_PHASE + NUM_PHASES,
    AT_FIRST_PLAYER = AT_TO_MOVE + 1,
    AT_TOKEN_IN_HAND = AT_FIRST_PLAYER + 2,
    AT_FULL_RULES = AT_TOKEN_IN_HAND + NUM_COLOURS,
    AT_OWN_DRAWN = AT_FULL_RULES + 1,
    AT_OWN_KEPT = AT_OWN_DRAWN + NUM_OBJECTIVES,
    AT_OPP_REVEALED = AT_OWN_KEPT + NUM_OBJECTIVES,
    AT_MOVE_FORMS = AT_OPP_REVEALED + NUM_OBJECTIVES,
    AT_FLIP_FORMS = AT_MOVE_FORMS + NUM_PAIRS * NUM_COLOURS,
    AT_COMPLETES = AT_FLIP_FORMS + NUM_SPACES * NUM_COLOURS,
    AT_TAKE_LEAVES = AT_COMPLETES + NUM_SPACES * NUM_COLOURS,
    OBS_SIZE = AT_TAKE_LEAVES + NUM_SPACES,
    /* The privileged view: both seats' observations, then per seat its drawn and kept tiles. */
    HIDDEN_PER_SEAT = 2 * NUM_OBJECTIVES,
    PRIVILEGED_SIZE = NUM_PLAYERS * OBS_SIZE + NUM_PLAYERS * HIDDEN_PER_SEAT,
    /* info(): phase, scores[2], drops[2], tokens_placed[2], game_end. */
    INFO_SIZE = 1 + 3 * NUM_PLAYERS + 1,
};

/* The ids above, in twin.py CONSTS order: a table that disagrees stops dims() with its name. */
static const int EXPECTED[] = {
    NUM_COLOURS, STACK_HEIGHT, NUM_SPACES, NUM_STACK_SPACES, NUM_TOKENS, TOKENS_PER_COLOUR, NUM_PLACES,
    TURNS, NUM_OBJECTIVES, OBJECTIVES_DRAWN, NUM_STACKS, NUM_PAIRS, NUM_TRIANGLES, A_KEEP, A_ASSIGN,
    A_MOVE, A_FLIP, A_TAKE, A_PLACE, NUM_ACTIONS, KEEP_PHASE, SCORE_BOARD, TAKE_PHASE, PLACE_PHASE,
    GAME_OVER, NUM_PHASES, SCORED, OUT_OF_ENERGY, NO_ACTION, OBS_SIZE, AT_STACKS, AT_TRIANGLE_SPACES,
    AT_OWN_BOARD, AT_OPP_BOARD, AT_DROPS, AT_TOKENS_PLACED, AT_SCORE_VALUES, AT_PHASE, AT_TO_MOVE,
    AT_FIRST_PLAYER, AT_TOKEN_IN_HAND, AT_FULL_RULES, AT_OWN_DRAWN, AT_OWN_KEPT, AT_OPP_REVEALED,
    AT_MOVE_FORMS, AT_FLIP_FORMS, AT_COMPLETES, AT_TAKE_LEAVES,
};
#define NUM_CONSTS ((int)(sizeof EXPECTED / sizeof EXPECTED[0]))

/* The "numbers" table: rule numbers, the score values of each rule set (introductory, full). */
enum {
    N_TOTAL_DROPS,
    N_FIRST_PLAYER_DROPS,
    N_SCORE_VALUES,                                /* [full * 4 + k], highest first */
    N_MAJORITY = N_SCORE_VALUES + 2 * NUM_COLOURS, /* [full] */
    N_VALUE_SCALE = N_MAJORITY + 2,
    NUM_NUMBERS,
};

static int32_t T_CONSTS[NUM_CONSTS];
static int32_t T_NUMBERS[NUM_NUMBERS];
static int32_t T_STACK_TOKENS[NUM_STACKS * STACK_HEIGHT];
static int32_t T_TOP[NUM_STACKS];
static int32_t T_FLIPPED[NUM_STACKS];
static int32_t T_TAKEN[NUM_STACKS];
static int32_t T_FLIPPABLE[NUM_STACKS];
static int32_t T_FULL_STACK_CODE[NUM_COLOURS * NUM_COLOURS * NUM_COLOURS];
static int32_t T_STACK_SPACES[NUM_STACK_SPACES];
static int32_t T_MOVE_PAIRS[NUM_PAIRS * 2];
static int32_t T_TRIANGLES[NUM_TRIANGLES * 3];
static int32_t T_TRIANGLES_AT[NUM_SPACES * TRIANGLES_AT];
static int32_t T_LINES_AT[NUM_SPACES * LINES_AT];
static int32_t T_LARGEST_GROUP[NUM_GROUP_MASKS];
static int32_t T_OBJECTIVE_MASKS[NUM_OBJECTIVES];
static int32_t T_OBJECTIVE_POINTS[NUM_OBJECTIVES];

static const me_table TABLES[] = {
    {"consts", T_CONSTS, NUM_CONSTS},
    {"numbers", T_NUMBERS, NUM_NUMBERS},
    {"stack_tokens", T_STACK_TOKENS, NUM_STACKS * STACK_HEIGHT},
    {"stack_top", T_TOP, NUM_STACKS},
    {"stack_flipped", T_FLIPPED, NUM_STACKS},
    {"stack_taken", T_TAKEN, NUM_STACKS},
    {"stack_flippable", T_FLIPPABLE, NUM_STACKS},
    {"full_stack_code", T_FULL_STACK_CODE, NUM_COLOURS * NUM_COLOURS * NUM_COLOURS},
    {"stack_spaces", T_STACK_SPACES, NUM_STACK_SPACES},
    {"move_pairs", T_MOVE_PAIRS, NUM_PAIRS * 2},
    {"triangles", T_TRIANGLES, NUM_TRIANGLES * 3},
    {"triangles_at", T_TRIANGLES_AT, NUM_SPACES * TRIANGLES_AT},
    {"lines_at", T_LINES_AT, NUM_SPACES * LINES_AT},
    {"largest_group", T_LARGEST_GROUP, NUM_GROUP_MASKS},
    {"objective_masks", T_OBJECTIVE_MASKS, NUM_OBJECTIVES},
    {"objective_points", T_OBJECTIVE_POINTS, NUM_OBJECTIVES},
};

/* MystriaState's fields, as small ints; drawn and kept are -1 where rules.py has () or -1. */
typedef struct {
    me_rng rng;
    uint32_t formed;    /* bit k: TRIANGLES[k] stands */
    uint32_t triangles; /* bit s: the stack on space s is in a standing triangle */
    uint16_t masks[NUM_PLAYERS][NUM_COLOURS];
    int16_t points[NUM_PLAYERS]; /* colour and Majority points (no Objective), as rules.py keeps */
    uint8_t stacks[NUM_SPACES];
    int8_t full, phase, player, first, held, winner, end_reason, assigned;
    int8_t drops[NUM_PLAYERS];
    int8_t kept[NUM_PLAYERS];
    int8_t drawn[NUM_PLAYERS][OBJECTIVES_DRAWN];
    int8_t values[NUM_COLOURS];
} state_t;

static inline int popcount16(unsigned m) { return __builtin_popcount(m); }

static inline int lowest_bit(uint32_t m) { return __builtin_ctz(m); }

static inline unsigned occupied(const state_t *s, int p) {
    return (unsigned)(s->masks[p][0] | s->masks[p][1] | s->masks[p][2] | s->masks[p][3]);
}

/* -- board ------------------------------------------------------------------------------------ */

static inline uint32_t triangle_spaces(int k) {
    const int32_t *t = &T_TRIANGLES[3 * k];
    return (1u << t[0]) | (1u << t[1]) | (1u << t[2]);
}

static void refresh_triangle_spaces(state_t *s) {
    uint32_t found = 0;
    for (uint32_t f = s->formed; f; f &= f - 1) found |= triangle_spaces(lowest_bit(f));
    s->triangles = found;
}

/* rules.py _look_again: re-test the triangles through `space`. */
static void look_again(state_t *s, int space) {
    const int32_t *at = &T_TRIANGLES_AT[space * TRIANGLES_AT];
    for (int i = 0; i < TRIANGLES_AT && at[i] >= 0; i++) {
        int k = at[i];
        const int32_t *t = &T_TRIANGLES[3 * k];
        int top = T_TOP[s->stacks[t[0]]];
        if (top >= 0 && top == T_TOP[s->stacks[t[1]]] && top == T_TOP[s->stacks[t[2]]])
            s->formed |= 1u << k;
        else
            s->formed &= ~(1u << k);
    }
}

static void find_triangles(state_t *s) {
    s->formed = 0;
    for (int space = 0; space < NUM_SPACES; space++) look_again(s, space);
    refresh_triangle_spaces(s);
}

static inline uint32_t empty_spaces(const state_t *s) {
    uint32_t empty = 0;
    for (int sp = 0; sp < NUM_SPACES; sp++) empty |= (uint32_t)(s->stacks[sp] == 0) << sp;
    return empty;
}

/* The other end of line k from space sp. */
static inline int other_end(int k, int sp) {
    int a = T_MOVE_PAIRS[2 * k];
    return a == sp ? T_MOVE_PAIRS[2 * k + 1] : a;
}

/* Whether some move or flip is possible (whatever the drops). */
static int can_act(const state_t *s) {
    for (int sp = 0; sp < NUM_SPACES; sp++)
        if (T_FLIPPABLE[s->stacks[sp]]) return 1;
    for (uint32_t e = empty_spaces(s); e; e &= e - 1) {
        int sp = lowest_bit(e);
        const int32_t *at = &T_LINES_AT[sp * LINES_AT];
        for (int i = 0; i < LINES_AT && at[i] >= 0; i++)
            if (s->stacks[other_end(at[i], sp)]) return 1;
    }
    return 0;
}

static void end_game(state_t *s, int winner, int reason) {
    s->winner = (int8_t)winner;
    s->end_reason = (int8_t)reason;
    s->phase = GAME_OVER;
    s->player = -1;
}

static void check_can_take(state_t *s) {
    if (s->triangles) return;
    int p = s->player;
    if (s->drops[p] == 0)
        end_game(s, 1 - p, OUT_OF_ENERGY);
    else if (!can_act(s))
        end_game(s, 1 - p, NO_ACTION);
}

/* -- scoring ---------------------------------------------------------------------------------- */

static int objective_points(const state_t *s, int p) {
    if (s->kept[p] < 0) return 0;
    unsigned need = (unsigned)T_OBJECTIVE_MASKS[s->kept[p]];
    for (int c = 0; c < NUM_COLOURS; c++)
        if ((s->masks[p][c] & need) == need) return T_OBJECTIVE_POINTS[s->kept[p]];
    return 0;
}

/* rules.py _count_points: colours and Majority of each seat. */
static void count_points(state_t *s) {
    int groups[NUM_PLAYERS][NUM_COLOURS], most[NUM_PLAYERS];
    for (int p = 0; p < NUM_PLAYERS; p++) {
        most[p] = 0;
        for (int c = 0; c < NUM_COLOURS; c++) {
            groups[p][c] = T_LARGEST_GROUP[s->masks[p][c]];
            if (groups[p][c] > most[p]) most[p] = groups[p][c];
        }
    }
    int majority = T_NUMBERS[N_MAJORITY + s->full];
    for (int p = 0; p < NUM_PLAYERS; p++) {
        int points = 0;
        for (int c = 0; c < NUM_COLOURS; c++) {
            if (s->full)
                points += groups[p][c] > groups[1 - p][c] ? s->values[c] : 0;
            else
                points += groups[p][c] * s->values[c];
        }
        if (most[p] > most[1 - p]) points += majority;
        s->points[p] = (int16_t)points;
    }
}

/* A tie on points goes to the most drops left (they never split evenly). */
static void final_scoring(state_t *s) {
    int total[NUM_PLAYERS];
    for (int p = 0; p < NUM_PLAYERS; p++) total[p] = s->points[p] + objective_points(s, p) + s->drops[p];
    int zero_wins = total[0] > total[1] || (total[0] == total[1] && s->drops[0] > s->drops[1]);
    end_game(s, zero_wins ? 0 : 1, SCORED);
}

/* -- the interface ---------------------------------------------------------------------------- */

static int dims(const me_config *cfg, me_dims *d, char *err, size_t errlen) {
    for (int i = 0; i < NUM_CONSTS; i++) {
        if (T_CONSTS[i] != EXPECTED[i]) {
            snprintf(err, errlen, "mystria: table 'consts' item %d is %d, the twin expects %d", i,
                     (int)T_CONSTS[i], EXPECTED[i]);
            return -1;
        }
    }
    if (cfg->num_players != NUM_PLAYERS) {
        snprintf(err, errlen, "Mystria is a game for exactly 2 players, got num_players=%d",
                 cfg->num_players);
        return -1;
    }
    if (cfg->options[0] != 0 && cfg->options[0] != 1) {
        snprintf(err, errlen, "mystria: option 0 (full rules) must be 0 or 1, got %d", cfg->options[0]);
        return -1;
    }
    for (int k = 1; k < ME_MAX_OPTIONS; k++) {
        if (cfg->options[k] != 0) {
            snprintf(err, errlen, "mystria: takes one option (full rules), got option %d = %d", k,
                     cfg->options[k]);
            return -1;
        }
    }
    d->num_actions = NUM_ACTIONS;
    d->obs_size = OBS_SIZE;
    d->privileged_size = PRIVILEGED_SIZE;
    d->info_size = INFO_SIZE;
    d->state_size = sizeof(state_t);
    return 0;
}

static void init(void *st, const me_config *cfg, uint64_t seed) {
    state_t *s = st;
    memset(s, 0, sizeof *s);
    me_rng_seed(&s->rng, seed);
    s->full = (int8_t)(cfg->options[0] != 0);
    s->first = (int8_t)me_rng_below(&s->rng, 2);
    s->drops[s->first] = (int8_t)T_NUMBERS[N_FIRST_PLAYER_DROPS];
    s->drops[1 - s->first] = (int8_t)(T_NUMBERS[N_TOTAL_DROPS] - T_NUMBERS[N_FIRST_PLAYER_DROPS]);
    /* rules.py _deal_stacks: the whole bag again while a stack of three identical tokens is dealt. */
    int tokens[NUM_TOKENS];
    for (;;) {
        me_rng_permutation(&s->rng, tokens, NUM_TOKENS);
        int ok = 1;
        for (int i = 0; i < NUM_STACK_SPACES && ok; i++) {
            const int *t = &tokens[STACK_HEIGHT * i];
            ok = !(t[0] / TOKENS_PER_COLOUR == t[1] / TOKENS_PER_COLOUR &&
                   t[1] / TOKENS_PER_COLOUR == t[2] / TOKENS_PER_COLOUR);
        }
        if (ok) break;
    }
    for (int i = 0; i < NUM_STACK_SPACES; i++) {
        const int *t = &tokens[STACK_HEIGHT * i];
        int a = t[0] / TOKENS_PER_COLOUR, b = t[1] / TOKENS_PER_COLOUR, c = t[2] / TOKENS_PER_COLOUR;
        s->stacks[T_STACK_SPACES[i]] = (uint8_t)T_FULL_STACK_CODE[(a * NUM_COLOURS + b) * NUM_COLOURS + c];
    }
    s->held = -1;
    s->winner = -1;
    s->end_reason = NOT_OVER;
    for (int p = 0; p < NUM_PLAYERS; p++) {
        s->kept[p] = -1;
        s->drawn[p][0] = s->drawn[p][1] = -1;
    }
    if (s->full) {
        int scratch[NUM_OBJECTIVES], tiles[NUM_PLAYERS * OBJECTIVES_DRAWN];
        me_rng_sample(&s->rng, NUM_OBJECTIVES, NUM_PLAYERS * OBJECTIVES_DRAWN, scratch, tiles);
        for (int k = 0; k < NUM_PLAYERS; k++) {
            int seat = k == 0 ? s->first : 1 - s->first;
            int a = tiles[2 * k], b = tiles[2 * k + 1];
            s->drawn[seat][0] = (int8_t)(a < b ? a : b);
            s->drawn[seat][1] = (int8_t)(a < b ? b : a);
        }
        s->phase = KEEP_PHASE;
        s->player = s->first;
    } else {
        s->phase = SCORE_BOARD;
        s->player = (int8_t)(1 - s->first);
    }
    find_triangles(s);
    count_points(s);
}

static int current_player(const void *st) { return ((const state_t *)st)->player; }

static int legal_mask(const void *st, uint8_t *mask) {
    const state_t *s = st;
    memset(mask, 0, NUM_ACTIONS);
    int n = 0;
    switch (s->phase) {
    case TAKE_PHASE:
        for (uint32_t m = s->triangles; m; m &= m - 1, n++) mask[A_TAKE + lowest_bit(m)] = 1;
        if (!s->drops[s->player]) break;
        /* A move goes along a line into its empty end: the lines at the few empty spaces. */
        for (uint32_t e = empty_spaces(s); e; e &= e - 1) {
            int sp = lowest_bit(e);
            const int32_t *at = &T_LINES_AT[sp * LINES_AT];
            for (int i = 0; i < LINES_AT && at[i] >= 0; i++) {
                if (s->stacks[other_end(at[i], sp)]) {
                    mask[A_MOVE + at[i]] = 1;
                    n++;
                }
            }
        }
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            int flippable = T_FLIPPABLE[s->stacks[sp]];
            mask[A_FLIP + sp] = (uint8_t)flippable;
            n += flippable;
        }
        break;
    case PLACE_PHASE:
        for (unsigned m = FULL_BOARD & ~occupied(s, s->player); m; m &= m - 1, n++)
            mask[A_PLACE + lowest_bit(m)] = 1;
        break;
    case KEEP_PHASE:
        for (int i = 0; i < OBJECTIVES_DRAWN; i++, n++) mask[A_KEEP + s->drawn[s->player][i]] = 1;
        break;
    case SCORE_BOARD:
        for (int c = 0; c < NUM_COLOURS; c++) {
            if (!s->values[c]) {
                mask[A_ASSIGN + c] = 1;
                n++;
            }
        }
        break;
    default:
        break;
    }
    return n;
}

static void apply(void *st, int action) {
    state_t *s = st;
    int p = s->player;
    const int32_t *score_values = &T_NUMBERS[N_SCORE_VALUES + NUM_COLOURS * s->full];
    switch (s->phase) {
    case TAKE_PHASE:
        if (action >= A_TAKE) {
            int sp = action - A_TAKE, code = s->stacks[sp];
            s->held = (int8_t)T_TOP[code];
            s->stacks[sp] = (uint8_t)T_TAKEN[code];
            look_again(s, sp);
            refresh_triangle_spaces(s);
            s->phase = PLACE_PHASE;
            return;
        }
        if (action >= A_FLIP) {
            int sp = action - A_FLIP;
            s->stacks[sp] = (uint8_t)T_FLIPPED[s->stacks[sp]];
            look_again(s, sp);
        } else {
            /* Exactly one end is empty (legality): the stack swaps places with the empty space. */
            int a = T_MOVE_PAIRS[2 * (action - A_MOVE)], b = T_MOVE_PAIRS[2 * (action - A_MOVE) + 1];
            uint8_t t = s->stacks[a];
            s->stacks[a] = s->stacks[b];
            s->stacks[b] = t;
            look_again(s, a);
            look_again(s, b);
        }
        s->drops[p]--;
        s->drops[1 - p]++;
        refresh_triangle_spaces(s);
        check_can_take(s);
        return;
    case PLACE_PHASE:
        s->masks[p][s->held] |= (uint16_t)(1u << (action - A_PLACE));
        s->held = -1;
        count_points(s);
        if (popcount16(occupied(s, p)) == TURNS && popcount16(occupied(s, 1 - p)) == TURNS) {
            final_scoring(s);
            return;
        }
        s->phase = TAKE_PHASE;
        s->player = (int8_t)(1 - p);
        check_can_take(s);
        return;
    case KEEP_PHASE:
        s->kept[p] = (int8_t)(action - A_KEEP);
        if (p == s->first)
            s->player = (int8_t)(1 - p);
        else
            s->phase = SCORE_BOARD;
        return;
    case SCORE_BOARD:
        s->values[action - A_ASSIGN] = (int8_t)score_values[s->assigned];
        s->assigned++;
        if (s->assigned == NUM_COLOURS - 1) {
            /* The last score token has one free value left: no decision. */
            int last = 0;
            while (s->values[last]) last++;
            s->values[last] = (int8_t)score_values[s->assigned];
            s->assigned++;
            count_points(s);
            s->phase = TAKE_PHASE;
            s->player = s->first;
            check_can_take(s);
        }
        return;
    default:
        return;
    }
}

/* ONE_HOT[set]: the four floats of a 4-bit colour set, one-hot (observation.py's _ONE_HOT). */
#define ONE_HOT_ROW(b) {(float)((b) & 1), (float)((b) >> 1 & 1), (float)((b) >> 2 & 1), (float)((b) >> 3 & 1)}
static const float ONE_HOT[16][NUM_COLOURS] = {
    ONE_HOT_ROW(0),  ONE_HOT_ROW(1),  ONE_HOT_ROW(2),  ONE_HOT_ROW(3), ONE_HOT_ROW(4),  ONE_HOT_ROW(5),
    ONE_HOT_ROW(6),  ONE_HOT_ROW(7),  ONE_HOT_ROW(8),  ONE_HOT_ROW(9), ONE_HOT_ROW(10), ONE_HOT_ROW(11),
    ONE_HOT_ROW(12), ONE_HOT_ROW(13), ONE_HOT_ROW(14), ONE_HOT_ROW(15),
};

/* Writes the colour set `set` one-hot at out (all four values: no memset needed under it). */
static inline void colour_set(float *out, unsigned set) { memcpy(out, ONE_HOT[set], sizeof ONE_HOT[0]); }

/* 1 << colour, 0 for -1 (no token). */
static inline unsigned colour_bit(int colour) { return (1u << (colour + 1)) >> 1; }

/* observation.py _make_board_view: the parts of every seat's view that are the board's alone.
 * The stacks, flip_forms and completes parts are written whole; the rest must be zero before. */
static void board_view(const state_t *s, float *out) {
    int top[NUM_SPACES];
    unsigned bit[NUM_SPACES]; /* 1 << top, 0 where empty */
    unsigned completes[NUM_SPACES];
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        int code = s->stacks[sp];
        const int32_t *tokens = &T_STACK_TOKENS[STACK_HEIGHT * code];
        float *at = out + AT_STACKS + sp * STACK_HEIGHT * NUM_COLOURS;
        for (int level = 0; level < STACK_HEIGHT; level++)
            colour_set(at + level * NUM_COLOURS, colour_bit(tokens[level]));
        top[sp] = T_TOP[code];
        bit[sp] = colour_bit(T_TOP[code]);
        completes[sp] = 0;
    }
    /* A top of colour c on a corner completes a triangle whose two other corners show c. */
    for (int k = 0; k < NUM_TRIANGLES; k++) {
        const int32_t *t = &T_TRIANGLES[3 * k];
        int ta = top[t[0]], tb = top[t[1]], tc = top[t[2]];
        completes[t[0]] |= bit[t[1]] & -(unsigned)(tb == tc);
        completes[t[1]] |= bit[t[0]] & -(unsigned)(ta == tc);
        completes[t[2]] |= bit[t[0]] & -(unsigned)(ta == tb);
    }
    /* A move into an empty space forms its colour there through a triangle not through where it
     * came from (that space is empty after the move): only a colour the space completes can. */
    for (uint32_t e = empty_spaces(s); e; e &= e - 1) {
        int dst = lowest_bit(e);
        if (!completes[dst]) continue;
        const int32_t *lines = &T_LINES_AT[dst * LINES_AT];
        const int32_t *at = &T_TRIANGLES_AT[dst * TRIANGLES_AT];
        for (int j = 0; j < LINES_AT && lines[j] >= 0; j++) {
            int src = other_end(lines[j], dst), colour = top[src];
            if (colour < 0 || !(completes[dst] >> colour & 1u)) continue;
            for (int i = 0; i < TRIANGLES_AT && at[i] >= 0; i++) {
                const int32_t *t = &T_TRIANGLES[3 * at[i]];
                if (t[0] == src || t[1] == src || t[2] == src) continue;
                int u = t[0] == dst ? t[1] : t[0], v = t[2] == dst ? t[1] : t[2];
                if (top[u] == colour && top[v] == colour) {
                    out[AT_MOVE_FORMS + lines[j] * NUM_COLOURS + colour] = 1.0f;
                    break;
                }
            }
        }
    }
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        int code = s->stacks[sp];
        /* A flip that changes nothing is no action: its set stays empty. */
        unsigned flip_bit = colour_bit(T_TOP[T_FLIPPED[code]]) & -(unsigned)T_FLIPPABLE[code];
        colour_set(out + AT_FLIP_FORMS + sp * NUM_COLOURS, completes[sp] & flip_bit);
        colour_set(out + AT_COMPLETES + sp * NUM_COLOURS, completes[sp]);
    }
    /* A take leaves a triangle if one not through the space stands, or the new top forms one. */
    for (uint32_t m = s->triangles; m; m &= m - 1) {
        int sp = lowest_bit(m);
        out[AT_TRIANGLE_SPACES + sp] = 1.0f;
        uint32_t through = 0;
        const int32_t *at = &T_TRIANGLES_AT[sp * TRIANGLES_AT];
        for (int i = 0; i < TRIANGLES_AT && at[i] >= 0; i++) through |= 1u << at[i];
        int left = T_TOP[T_TAKEN[s->stacks[sp]]];
        if ((s->formed & ~through) || (left >= 0 && (completes[sp] >> left & 1u)))
            out[AT_TAKE_LEAVES + sp] = 1.0f;
    }
}

static void board_part(float *out, int base, const uint16_t *masks) {
    for (int c = 0; c < NUM_COLOURS; c++)
        for (unsigned m = masks[c]; m; m &= m - 1) out[base + lowest_bit(m) * NUM_COLOURS + c] = 1.0f;
}

/* observation.py observe(). */
static void observe(const void *st, int seat, float *out) {
    const state_t *s = st;
    int me = seat, opp = 1 - seat;
    /* board_view writes the stacks, flip_forms and completes parts whole: zero the rest. */
    memset(out + AT_TRIANGLE_SPACES, 0, (AT_FLIP_FORMS - AT_TRIANGLE_SPACES) * sizeof(float));
    memset(out + AT_TAKE_LEAVES, 0, (OBS_SIZE - AT_TAKE_LEAVES) * sizeof(float));
    board_view(s, out);
    board_part(out, AT_OWN_BOARD, s->masks[me]);
    board_part(out, AT_OPP_BOARD, s->masks[opp]);
    out[AT_PHASE + s->phase] = 1.0f;
    out[AT_FIRST_PLAYER + (s->first != me)] = 1.0f;
    if (s->player == me) out[AT_TO_MOVE] = 1.0f;
    if (s->held >= 0) out[AT_TOKEN_IN_HAND + s->held] = 1.0f;
    if (s->full) {
        out[AT_FULL_RULES] = 1.0f;
        for (int i = 0; i < OBJECTIVES_DRAWN; i++) out[AT_OWN_DRAWN + s->drawn[me][i]] = 1.0f;
        if (s->kept[me] >= 0) out[AT_OWN_KEPT + s->kept[me]] = 1.0f;
        if (s->phase == GAME_OVER && s->kept[opp] >= 0) out[AT_OPP_REVEALED + s->kept[opp]] = 1.0f;
    }
    /* Python divides ints in double; numpy rounds the quotient to float32 when it stores it. */
    double drops = (double)T_NUMBERS[N_TOTAL_DROPS], scale = (double)T_NUMBERS[N_VALUE_SCALE];
    out[AT_DROPS] = (float)((double)s->drops[me] / drops);
    out[AT_DROPS + 1] = (float)((double)s->drops[opp] / drops);
    out[AT_TOKENS_PLACED] = (float)((double)popcount16(occupied(s, me)) / (double)TURNS);
    out[AT_TOKENS_PLACED + 1] = (float)((double)popcount16(occupied(s, opp)) / (double)TURNS);
    for (int c = 0; c < NUM_COLOURS; c++) out[AT_SCORE_VALUES + c] = (float)((double)s->values[c] / scale);
}

/* twin.py privileged_observation(). */
static void privileged(const void *st, float *out) {
    const state_t *s = st;
    for (int p = 0; p < NUM_PLAYERS; p++) observe(s, p, out + p * OBS_SIZE);
    float *hidden = out + NUM_PLAYERS * OBS_SIZE;
    memset(hidden, 0, NUM_PLAYERS * HIDDEN_PER_SEAT * sizeof(float));
    for (int p = 0; p < NUM_PLAYERS; p++) {
        float *h = hidden + p * HIDDEN_PER_SEAT;
        for (int i = 0; i < OBJECTIVES_DRAWN; i++)
            if (s->drawn[p][i] >= 0) h[s->drawn[p][i]] = 1.0f;
        if (s->kept[p] >= 0) h[NUM_OBJECTIVES + s->kept[p]] = 1.0f;
    }
}

static void returns(const void *st, double *out) {
    const state_t *s = st;
    out[0] = out[1] = 0.0;
    if (s->winner >= 0) {
        out[s->winner] = 1.0;
        out[1 - s->winner] = -1.0;
    }
}

static int player_done(const void *st, int seat) {
    (void)seat;
    return ((const state_t *)st)->phase == GAME_OVER;
}

static void info(const void *st, double *out) {
    const state_t *s = st;
    int over = s->phase == GAME_OVER;
    out[0] = s->phase;
    for (int p = 0; p < NUM_PLAYERS; p++) {
        /* A secret objective counts only once the game is over (infos go to every seat). */
        out[1 + p] = s->points[p] + s->drops[p] + (over ? objective_points(s, p) : 0);
        out[1 + NUM_PLAYERS + p] = s->drops[p];
        out[1 + 2 * NUM_PLAYERS + p] = popcount16(occupied(s, p));
    }
    out[1 + 3 * NUM_PLAYERS] = s->end_reason;
}

/* rules.py determinize: the opponent's tiles re-dealt from the generator seeded `seed`, drawn
 * from the sorted candidates `seat` cannot rule out; that generator becomes the chance stream. */
static void determinize(void *st, int seat, uint64_t seed) {
    state_t *s = st;
    me_rng r;
    me_rng_seed(&r, seed);
    int opp = 1 - seat;
    if (s->full) {
        int unseen[NUM_OBJECTIVES], n = 0;
        for (int t = 0; t < NUM_OBJECTIVES; t++)
            if (t != s->drawn[seat][0] && t != s->drawn[seat][1]) unseen[n++] = t;
        if (s->phase == GAME_OVER) {
            /* The kept tile is revealed: only the discarded one is unseen. */
            int k = 0;
            while (unseen[k] != s->kept[opp]) k++;
            for (; k + 1 < n; k++) unseen[k] = unseen[k + 1];
            n--;
            int other = unseen[me_rng_below(&r, (uint64_t)n)], kept = s->kept[opp];
            s->drawn[opp][0] = (int8_t)(kept < other ? kept : other);
            s->drawn[opp][1] = (int8_t)(kept < other ? other : kept);
        } else {
            int scratch[NUM_OBJECTIVES], pick[OBJECTIVES_DRAWN];
            me_rng_sample(&r, n, OBJECTIVES_DRAWN, scratch, pick);
            int a = unseen[pick[0]], b = unseen[pick[1]];
            s->drawn[opp][0] = (int8_t)(a < b ? a : b);
            s->drawn[opp][1] = (int8_t)(a < b ? b : a);
            if (s->kept[opp] >= 0) s->kept[opp] = s->drawn[opp][me_rng_below(&r, OBJECTIVES_DRAWN)];
        }
    }
    s->rng = r;
}

const me_game me_mystria = {
    "mystria",
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
