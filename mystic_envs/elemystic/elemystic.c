/* Elemystic's compiled twin: mystic_envs/elemystic/rules.py and observation.py in C (game.h).
 *
 * The Python engine is the reference and this file follows it function by function (new,
 * _setup_round, _apply, _finish_play_phase, _resolve, _ability, totals, _attack, _end_round,
 * determinize, observe), drawing from the shared generator in the same order, so that a seed
 * plays the same game on both (tests/core/test_exact.py). The state is plain data: element sets
 * are 9-bit masks as in Python, small ints elsewhere, the generator inside; clone is a memcpy.
 *
 * Every number of the components (element stats, which element has which ability, the rule
 * constants, the draft order, the observation's layout and scales) arrives from twin.py's
 * core_tables() through the me_table list below; dims() refuses tables that do not fit. */
#include <stdio.h>
#include <string.h>

#include "game.h"

#define NE 9 /* elements */
#define ALL_ELEMENTS ((1 << NE) - 1)
#define DRAFT_PICKS 5
#define NUM_PHASES 5
#define DRAFT_PHASE 0
#define PLAY_PHASE 1
#define AIR_TURN 2
#define SHADOW_CHOICE 3
#define GAME_OVER 4

/* Actions (rules.py): draft e, play e to the front, play e to the back, then the tokens. */
#define A_DRAFT 0
#define A_FRONT (A_DRAFT + NE)
#define A_BACK (A_FRONT + NE)
#define A_AIR_STRENGTH (A_BACK + NE)
#define A_AIR_DEFENSE (A_AIR_STRENGTH + 1)
#define A_SHADOW_SELF_BEFORE (A_AIR_DEFENSE + 1)
#define A_SHADOW_OPP_BEFORE (A_SHADOW_SELF_BEFORE + 1)
#define A_SHADOW_SELF_AFTER (A_SHADOW_SELF_BEFORE + 2)
#define A_SHADOW_OPP_AFTER (A_SHADOW_SELF_BEFORE + 3)
#define NUM_ACTIONS (A_SHADOW_SELF_BEFORE + 4)

#define AIR_NONE 0
#define AIR_AS_STRENGTH 1
#define AIR_AS_DEFENSE 2

/* Ability codes: the order of twin.ABILITIES; table "ability" gives each element's code. */
enum { AB_NONE, AB_LIGHT, AB_AIR, AB_STORM, AB_WATER, AB_FIRE, AB_SHADOW, AB_THUNDER, AB_LIFE, NUM_ABILITIES };

/* Rule constants: the order of twin.RULES. */
enum {
    R_STARTING_ENERGY,
    R_WATER_INVOCATION_STRENGTH,
    R_LIFE_RESTORE,
    R_AIR_TOKEN_STRENGTH,
    R_AIR_TOKEN_DEFENSE,
    R_THUNDER_CHARGE_STRENGTH,
    R_COLUMN_SIZE,
    R_HAND_SIZE,
    NUM_RULES
};

/* Observation parts: the order of observation.LAYOUT (twin.OBS_PARTS checks the names). */
enum {
    O_ENERGY,
    O_ROUND,
    O_PHASE,
    O_TO_MOVE,
    O_DRAFT_FIRST,
    O_PLAY_FIRST,
    O_DRAFT_POOL,
    O_OWN_SECRET,
    O_OWN_HAND,
    O_OPP_FACEUP_HAND,
    O_OPP_SECRET_REVEALED,
    O_OPP_SECRET_PLAYED,
    O_OWN_FRONT,
    O_OWN_SUPPORT,
    O_OPP_FRONT,
    O_OPP_SUPPORT,
    O_CARDS_PLAYED,
    O_COLUMN_TOTALS,
    O_INVOCATION_STRENGTH,
    O_SPEED_ORDER,
    O_ATTACKED,
    O_AIR_TOKEN,
    O_AIR_BONUS,
    O_LIGHT_TOKEN,
    O_SHADOW_TOKEN,
    O_THUNDER_TOKEN,
    O_THUNDER_CHARGED,
    O_STORM_FORCED,
    NUM_PARTS
};
/* How many floats each part takes: the C side writes exactly these. */
static const int PART_SIZE[NUM_PARTS] = {2,  1,  NUM_PHASES, 1,  2,  2, NE, NE, NE, NE, NE, 1, NE, NE,
                                         NE, NE, 2,          4,  2,  2, 2,  4,  4,  2,  2,  2, 2,  2};

/* -- the tables, filled from twin.core_tables() -------------------------------------------------- */
static int32_t T_strength[NE], T_defense[NE], T_inv_strength[NE], T_inv_defense[NE], T_speed[NE];
static int32_t T_ability[NE];
static int32_t T_rules[NUM_RULES];
static int32_t T_draft_order[DRAFT_PICKS];
static int32_t T_obs_start[NUM_PARTS], T_obs_size[NUM_PARTS + 1]; /* last: the whole observation */
static int32_t T_obs_scale[2];                                    /* column totals, invocation strength */

/* The numbers this file names itself, in the order of twin.IDS: dims() compares them. */
static const int32_t IDS[] = {NE,
                              A_DRAFT,
                              A_FRONT,
                              A_BACK,
                              A_AIR_STRENGTH,
                              A_AIR_DEFENSE,
                              A_SHADOW_SELF_BEFORE,
                              A_SHADOW_OPP_BEFORE,
                              A_SHADOW_SELF_AFTER,
                              A_SHADOW_OPP_AFTER,
                              NUM_ACTIONS,
                              DRAFT_PHASE,
                              PLAY_PHASE,
                              AIR_TURN,
                              SHADOW_CHOICE,
                              GAME_OVER,
                              NUM_PHASES,
                              AIR_NONE,
                              AIR_AS_STRENGTH,
                              AIR_AS_DEFENSE,
                              DRAFT_PICKS};
#define NUM_IDS ((int)(sizeof IDS / sizeof IDS[0]))
static int32_t T_ids[NUM_IDS];

static const me_table TABLES[] = {
    {"strength", T_strength, NE},
    {"defense", T_defense, NE},
    {"invocation_strength", T_inv_strength, NE},
    {"invocation_defense", T_inv_defense, NE},
    {"speed", T_speed, NE},
    {"ability", T_ability, NE},
    {"rules", T_rules, NUM_RULES},
    {"draft_order", T_draft_order, DRAFT_PICKS},
    {"ids", T_ids, NUM_IDS},
    {"obs_start", T_obs_start, NUM_PARTS},
    {"obs_size", T_obs_size, NUM_PARTS + 1},
    {"obs_scale", T_obs_scale, 2},
};

#define HIDDEN_SIZE (3 * NE) /* the Unknown Element, seat 0's secret, seat 1's secret */

/* -- the state ----------------------------------------------------------------------------------- */
typedef struct {
    me_rng rng;
    int32_t round;
    int16_t energy[2];
    int16_t col_strength[2], col_defense[2]; /* top halves of each column: MASK_STRENGTH/DEFENSE */
    uint16_t pool, hand[2], column[2];
    int8_t starting_player, draft_first, play_first;
    int8_t air_holder, air_taken, winner;
    int8_t unknown, secret[2];
    int8_t front[2], played[2], inv_strength[2], air_bonus[2];
    int8_t shadow_column, shadow_after;
    int8_t order[2], attack_index, draft_step, phase, player;
    uint8_t light_reveal[2], thunder_charged[2], storm_forced[2], silenced[2], ability_done[2];
} state;

static inline int popcount9(unsigned m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* -- rules ---------------------------------------------------------------------------------------- */
static void setup_round(state *s) {
    int perm[NE];
    me_rng_permutation(&s->rng, perm, NE);
    s->round += 1;
    s->unknown = (int8_t)perm[0];
    s->secret[0] = (int8_t)perm[1];
    s->secret[1] = (int8_t)perm[2];
    unsigned pool = 0;
    for (int k = 3; k < NE; k++) pool |= 1u << perm[k];
    s->pool = (uint16_t)pool;
    s->hand[0] = (uint16_t)(1u << perm[1]);
    s->hand[1] = (uint16_t)(1u << perm[2]);
    for (int p = 0; p < 2; p++) {
        s->column[p] = 0;
        s->col_strength[p] = s->col_defense[p] = 0;
        s->front[p] = -1;
        s->played[p] = 0;
        s->inv_strength[p] = 0;
        s->storm_forced[p] = 0;
        s->air_bonus[p] = AIR_NONE;
        s->silenced[p] = 0;
        s->ability_done[p] = 0;
        s->order[p] = -1;
    }
    s->shadow_column = s->shadow_after = -1;
    s->attack_index = 0;
    s->draft_step = 0;
    s->phase = DRAFT_PHASE;
    s->player = s->draft_first;
}

/* (total Strength, total Defense) of p's column with every effect so far (rules.totals). */
static inline void totals(const state *s, int p, int *strength, int *defense) {
    int st = s->col_strength[p], d = s->col_defense[p];
    int f = s->front[p];
    if (f >= 0) {
        st += s->inv_strength[p];
        d += T_inv_defense[f];
        if (s->thunder_charged[p]) st += T_rules[R_THUNDER_CHARGE_STRENGTH];
    }
    if (s->air_bonus[p] == AIR_AS_STRENGTH)
        st += T_rules[R_AIR_TOKEN_STRENGTH];
    else if (s->air_bonus[p] == AIR_AS_DEFENSE)
        d += T_rules[R_AIR_TOKEN_DEFENSE];
    if (s->shadow_column == p) {
        *strength = d;
        *defense = st;
    } else {
        *strength = st;
        *defense = d;
    }
}

static void ability(state *s, int att) {
    int opp = 1 - att;
    switch (T_ability[s->front[att]]) {
    case AB_LIGHT: s->light_reveal[att] = 1; break;
    case AB_AIR: s->air_taken = (int8_t)att; break;
    case AB_WATER:
        if (s->energy[att] < s->energy[opp]) s->inv_strength[att] = (int8_t)T_rules[R_WATER_INVOCATION_STRENGTH];
        break;
    case AB_FIRE:
        if (s->attack_index == 0) s->inv_strength[opp] = 0;
        break;
    case AB_THUNDER:
        if (!s->ability_done[opp]) s->silenced[opp] = 1;
        break;
    case AB_LIFE: {
        int e = s->energy[att] + T_rules[R_LIFE_RESTORE];
        int cap = T_rules[R_STARTING_ENERGY];
        s->energy[att] = (int16_t)(e < cap ? e : cap);
        break;
    }
    default: break; /* Earth has none; Storm's happened during play; Shadow asks a choice */
    }
}

static void attack(state *s, int att) {
    int opp = 1 - att, strength, defense, unused;
    totals(s, att, &strength, &unused);
    totals(s, opp, &unused, &defense);
    int damage = strength - defense;
    if (damage > 0) {
        s->energy[opp] = (int16_t)(s->energy[opp] - damage);
        if (s->energy[opp] <= 0) s->winner = (int8_t)att;
    }
}

static void end_round(state *s) {
    s->draft_first = (int8_t)(1 - s->draft_first);
    int s0, s1, unused;
    totals(s, 0, &s0, &unused);
    totals(s, 1, &s1, &unused);
    if (s0 != s1) s->play_first = (int8_t)(s0 > s1 ? 0 : 1);
    s->air_holder = s->air_taken;
    s->air_taken = -1;
    for (int p = 0; p < 2; p++) s->thunder_charged[p] = (uint8_t)(s->silenced[p] && !s->thunder_charged[p]);
    setup_round(s);
}

static void resolve(state *s) {
    while (s->attack_index < 2) {
        int att = s->order[s->attack_index];
        if (!s->ability_done[att]) {
            if (T_ability[s->front[att]] == AB_SHADOW && !s->silenced[att]) {
                s->phase = SHADOW_CHOICE;
                s->player = (int8_t)att;
                return;
            }
            s->ability_done[att] = 1;
            if (!s->silenced[att]) ability(s, att);
        }
        attack(s, att);
        if (s->winner >= 0) {
            s->phase = GAME_OVER;
            s->player = -1;
            return;
        }
        if (s->shadow_after >= 0) {
            s->shadow_column = s->shadow_after;
            s->shadow_after = -1;
        }
        s->attack_index++;
    }
    end_round(s);
}

static void finish_play_phase(state *s) {
    s->light_reveal[0] = s->light_reveal[1] = 0;
    s->storm_forced[0] = s->storm_forced[1] = 0;
    int s0 = T_speed[s->front[0]], s1 = T_speed[s->front[1]];
    int first = s0 > s1 ? 0 : s1 > s0 ? 1 : s->play_first;
    s->order[0] = (int8_t)first;
    s->order[1] = (int8_t)(1 - first);
    s->attack_index = 0;
    resolve(s);
}

/* -- game.h --------------------------------------------------------------------------------------- */
static int table_error(char *err, size_t errlen, const char *what) {
    snprintf(err, errlen, "elemystic twin: %s (reload twin.core_tables())", what);
    return -1;
}

static int el_dims(const me_config *cfg, me_dims *dims, char *err, size_t errlen) {
    if (cfg->num_players != 2) {
        snprintf(err, errlen, "Elemystic is a game for exactly 2 players, got num_players=%d", cfg->num_players);
        return -1;
    }
    for (int k = 0; k < ME_MAX_OPTIONS; k++)
        if (cfg->options[k] != 0) {
            snprintf(err, errlen, "Elemystic takes no options, got option %d = %d", k, cfg->options[k]);
            return -1;
        }
    for (int k = 0; k < NUM_IDS; k++)
        if (T_ids[k] != IDS[k]) return table_error(err, errlen, "an action, phase or size differs from rules.py");
    for (int e = 0; e < NE; e++) {
        if (T_ability[e] < 0 || T_ability[e] >= NUM_ABILITIES) return table_error(err, errlen, "bad ability code");
        if (T_strength[e] < 0 || T_defense[e] < 0 || T_inv_strength[e] < 0 || T_inv_defense[e] < 0 ||
            T_strength[e] > 100 || T_defense[e] > 100 || T_inv_strength[e] > 100 || T_inv_defense[e] > 100)
            return table_error(err, errlen, "element stats out of range");
    }
    if (T_rules[R_COLUMN_SIZE] != 3 || T_rules[R_HAND_SIZE] != 4)
        return table_error(err, errlen, "the twin is written for columns of 3 and hands of 4");
    if (T_rules[R_STARTING_ENERGY] < 1 || T_rules[R_STARTING_ENERGY] > 1000)
        return table_error(err, errlen, "starting energy out of range");
    for (int r = 0; r < NUM_RULES; r++)
        if (T_rules[r] < 0 || T_rules[r] > 100 * T_rules[R_STARTING_ENERGY])
            return table_error(err, errlen, "a rule constant out of range");
    for (int k = 0; k < DRAFT_PICKS; k++)
        if (T_draft_order[k] != 0 && T_draft_order[k] != 1) return table_error(err, errlen, "bad draft order");
    int at = 0;
    for (int k = 0; k < NUM_PARTS; k++) {
        if (T_obs_start[k] != at || T_obs_size[k] != PART_SIZE[k])
            return table_error(err, errlen, "the observation layout is not the one this file writes");
        at += PART_SIZE[k];
    }
    if (T_obs_size[NUM_PARTS] != at) return table_error(err, errlen, "the observation size differs");
    if (T_obs_scale[0] <= 0 || T_obs_scale[1] <= 0) return table_error(err, errlen, "bad observation scales");
    dims->num_actions = NUM_ACTIONS;
    dims->obs_size = at;
    dims->privileged_size = 2 * at + HIDDEN_SIZE;
    dims->info_size = 1 + 2 + 1; /* phase, scores, round */
    dims->state_size = sizeof(state);
    return 0;
}

static void el_init(void *st, const me_config *cfg, uint64_t seed) {
    (void)cfg;
    state *s = st;
    memset(s, 0, sizeof *s);
    me_rng_seed(&s->rng, seed);
    s->energy[0] = s->energy[1] = (int16_t)T_rules[R_STARTING_ENERGY];
    s->round = 0;
    s->starting_player = (int8_t)me_rng_below(&s->rng, 2);
    s->draft_first = s->play_first = s->starting_player;
    s->air_holder = s->air_taken = -1;
    s->winner = -1;
    setup_round(s);
}

static int el_current_player(const void *st) { return ((const state *)st)->player; }

static int el_legal_mask(const void *st, uint8_t *mask) {
    const state *s = st;
    memset(mask, 0, NUM_ACTIONS);
    switch (s->phase) {
    case DRAFT_PHASE: {
        unsigned m = s->pool;
        for (int e = 0; e < NE; e++) mask[A_DRAFT + e] = (uint8_t)(m >> e & 1);
        return popcount9(m);
    }
    case PLAY_PHASE: {
        int p = s->player;
        unsigned m = s->hand[p];
        int back = s->played[p] > 0 && !s->storm_forced[p];
        for (int e = 0; e < NE; e++) {
            uint8_t b = (uint8_t)(m >> e & 1);
            mask[A_FRONT + e] = b;
            mask[A_BACK + e] = (uint8_t)(b & back);
        }
        return popcount9(m) * (1 + back);
    }
    case AIR_TURN: mask[A_AIR_STRENGTH] = mask[A_AIR_DEFENSE] = 1; return 2;
    case SHADOW_CHOICE:
        for (int a = A_SHADOW_SELF_BEFORE; a < NUM_ACTIONS; a++) mask[a] = 1;
        return 4;
    default: return 0;
    }
}

static void el_apply(void *st, int action) {
    state *s = st;
    int p = s->player;
    switch (s->phase) {
    case DRAFT_PHASE: {
        unsigned bit = 1u << (action - A_DRAFT);
        s->pool = (uint16_t)(s->pool ^ bit);
        s->hand[p] = (uint16_t)(s->hand[p] | bit);
        s->draft_step++;
        if (s->draft_step < DRAFT_PICKS) {
            s->player = (int8_t)(s->draft_first ^ T_draft_order[s->draft_step]);
        } else {
            s->hand[1 - s->draft_first] = (uint16_t)(s->hand[1 - s->draft_first] | s->pool);
            s->pool = 0;
            s->phase = PLAY_PHASE;
            s->player = s->play_first;
        }
        break;
    }
    case PLAY_PHASE: {
        int to_front = action < A_BACK;
        int e = action - (to_front ? A_FRONT : A_BACK);
        unsigned bit = 1u << e;
        s->hand[p] = (uint16_t)(s->hand[p] ^ bit);
        s->column[p] = (uint16_t)(s->column[p] | bit);
        s->col_strength[p] = (int16_t)(s->col_strength[p] + T_strength[e]);
        s->col_defense[p] = (int16_t)(s->col_defense[p] + T_defense[e]);
        s->played[p]++;
        s->storm_forced[p] = 0;
        if (to_front) {
            s->front[p] = (int8_t)e;
            s->inv_strength[p] = (int8_t)T_inv_strength[e];
            if (T_ability[e] == AB_STORM) s->storm_forced[1 - p] = s->played[1 - p] < T_rules[R_COLUMN_SIZE];
        }
        if (s->played[1 - p] < T_rules[R_COLUMN_SIZE]) {
            s->player = (int8_t)(1 - p);
        } else if (s->air_holder >= 0) {
            s->phase = AIR_TURN;
            s->player = s->air_holder;
        } else {
            finish_play_phase(s);
        }
        break;
    }
    case AIR_TURN:
        s->air_bonus[p] = action == A_AIR_STRENGTH ? AIR_AS_STRENGTH : AIR_AS_DEFENSE;
        finish_play_phase(s);
        break;
    default: { /* SHADOW_CHOICE */
        int self = action == A_SHADOW_SELF_BEFORE || action == A_SHADOW_SELF_AFTER;
        int target = self ? p : 1 - p;
        s->ability_done[p] = 1;
        if (action == A_SHADOW_SELF_BEFORE || action == A_SHADOW_OPP_BEFORE)
            s->shadow_column = (int8_t)target;
        else
            s->shadow_after = (int8_t)target;
        resolve(s);
        break;
    }
    }
}

static inline void mask_row(float *o, unsigned m) {
    for (int e = 0; e < NE; e++) o[e] = (float)(m >> e & 1);
}

/* observation.observe: numpy computes energy, round, cards played and invocation strength in
 * float64 and stores them as float32, and divides the float32 column totals in float32. */
static void el_observe(const void *st, int me, float *o) {
    const state *s = st;
    const int32_t *at = T_obs_start;
    int opp = 1 - me;
    memset(o, 0, sizeof(float) * (size_t)T_obs_size[NUM_PARTS]);
    double energy_scale = (double)T_rules[R_STARTING_ENERGY];
    o[at[O_ENERGY]] = (float)((double)s->energy[me] / energy_scale);
    o[at[O_ENERGY] + 1] = (float)((double)s->energy[opp] / energy_scale);
    double r = (double)s->round / 10.0;
    o[at[O_ROUND]] = (float)(r < 1.0 ? r : 1.0);
    o[at[O_PHASE] + s->phase] = 1.0f;
    o[at[O_TO_MOVE]] = (float)(s->player == me);
    o[at[O_DRAFT_FIRST] + (s->draft_first != me)] = 1.0f;
    o[at[O_PLAY_FIRST] + (s->play_first != me)] = 1.0f;
    mask_row(o + at[O_DRAFT_POOL], s->pool);
    o[at[O_OWN_SECRET] + s->secret[me]] = 1.0f;
    mask_row(o + at[O_OWN_HAND], s->hand[me]);
    unsigned opp_secret_bit = 1u << s->secret[opp];
    mask_row(o + at[O_OPP_FACEUP_HAND], s->hand[opp] & ~opp_secret_bit);
    if (s->light_reveal[me]) o[at[O_OPP_SECRET_REVEALED] + s->secret[opp]] = 1.0f;
    o[at[O_OPP_SECRET_PLAYED]] = (float)((s->column[opp] & opp_secret_bit) != 0);
    for (int k = 0; k < 2; k++) {
        int who = k == 0 ? me : opp;
        int f = s->front[who];
        if (f >= 0) {
            o[at[k == 0 ? O_OWN_FRONT : O_OPP_FRONT] + f] = 1.0f;
            mask_row(o + at[k == 0 ? O_OWN_SUPPORT : O_OPP_SUPPORT], s->column[who] & ~(1u << f));
        }
    }
    o[at[O_CARDS_PLAYED]] = (float)((double)s->played[me] / (double)T_rules[R_COLUMN_SIZE]);
    o[at[O_CARDS_PLAYED] + 1] = (float)((double)s->played[opp] / (double)T_rules[R_COLUMN_SIZE]);
    int t[4];
    totals(s, me, &t[0], &t[1]);
    totals(s, opp, &t[2], &t[3]);
    float total_scale = (float)T_obs_scale[0];
    for (int k = 0; k < 4; k++) o[at[O_COLUMN_TOTALS] + k] = (float)t[k] / total_scale;
    double inv_scale = (double)T_obs_scale[1];
    o[at[O_INVOCATION_STRENGTH]] = (float)((double)s->inv_strength[me] / inv_scale);
    o[at[O_INVOCATION_STRENGTH] + 1] = (float)((double)s->inv_strength[opp] / inv_scale);
    if (s->order[0] >= 0) {
        o[at[O_SPEED_ORDER] + (s->order[0] != me)] = 1.0f;
        /* A game won by the first attack stops with attack_index still on that attacker. */
        int n = s->attack_index + (s->phase == GAME_OVER);
        for (int k = 0; k < n; k++) o[at[O_ATTACKED] + (s->order[k] != me)] = 1.0f;
    }
    if (s->air_holder >= 0) o[at[O_AIR_TOKEN] + (s->air_holder != me)] = 1.0f;
    if (s->air_taken >= 0) o[at[O_AIR_TOKEN] + 2 + (s->air_taken != me)] = 1.0f;
    if (s->air_bonus[me]) o[at[O_AIR_BONUS] + s->air_bonus[me] - 1] = 1.0f;
    if (s->air_bonus[opp]) o[at[O_AIR_BONUS] + 1 + s->air_bonus[opp]] = 1.0f;
    o[at[O_LIGHT_TOKEN]] = (float)s->light_reveal[me];
    o[at[O_LIGHT_TOKEN] + 1] = (float)s->light_reveal[opp];
    if (s->shadow_column >= 0) o[at[O_SHADOW_TOKEN] + (s->shadow_column != me)] = 1.0f;
    o[at[O_THUNDER_TOKEN]] = (float)s->silenced[me];
    o[at[O_THUNDER_TOKEN] + 1] = (float)s->silenced[opp];
    o[at[O_THUNDER_CHARGED]] = (float)s->thunder_charged[me];
    o[at[O_THUNDER_CHARGED] + 1] = (float)s->thunder_charged[opp];
    o[at[O_STORM_FORCED]] = (float)s->storm_forced[me];
    o[at[O_STORM_FORCED] + 1] = (float)s->storm_forced[opp];
}

/* twin.privileged_observation: both seats' views, then the Unknown Element and both secrets. */
static void el_privileged(const void *st, float *out) {
    const state *s = st;
    int obs = T_obs_size[NUM_PARTS];
    el_observe(st, 0, out);
    el_observe(st, 1, out + obs);
    float *h = out + 2 * obs;
    memset(h, 0, sizeof(float) * HIDDEN_SIZE);
    h[s->unknown] = 1.0f;
    h[NE + s->secret[0]] = 1.0f;
    h[2 * NE + s->secret[1]] = 1.0f;
}

static void el_returns(const void *st, double *out) {
    const state *s = st;
    if (s->winner < 0) {
        out[0] = out[1] = 0.0;
    } else {
        out[s->winner] = 1.0;
        out[1 - s->winner] = -1.0;
    }
}

static int el_player_done(const void *st, int seat) {
    (void)seat;
    return ((const state *)st)->phase == GAME_OVER;
}

static void el_info(const void *st, double *out) {
    const state *s = st;
    out[0] = s->phase;
    out[1] = s->energy[0];
    out[2] = s->energy[1];
    out[3] = s->round;
}

/* rules.determinize: the Unknown Element and the opponent's unseen secret are a public pair;
 * which is which is a coin of the generator seeded `seed`, which then carries the copy's chance. */
static void el_determinize(void *st, int seat, uint64_t seed) {
    state *s = st;
    me_rng r;
    me_rng_seed(&r, seed);
    int opp = 1 - seat;
    int visible = s->light_reveal[seat] || (s->column[opp] >> s->secret[opp] & 1);
    if (!visible && s->phase != GAME_OVER) {
        int a = s->secret[opp], b = s->unknown;
        int low = a < b ? a : b, high = a < b ? b : a;
        if (me_rng_below(&r, 2)) {
            int t = low;
            low = high;
            high = t;
        }
        unsigned keep = s->hand[opp] & ~((1u << a) | (1u << b));
        s->hand[opp] = (uint16_t)(keep | 1u << low);
        s->secret[opp] = (int8_t)low;
        s->unknown = (int8_t)high;
    }
    s->rng = r;
}

const me_game me_elemystic = {
    .name = "elemystic",
    .tables = TABLES,
    .num_tables = (int)(sizeof TABLES / sizeof TABLES[0]),
    .dims = el_dims,
    .init = el_init,
    .current_player = el_current_player,
    .legal_mask = el_legal_mask,
    .apply = el_apply,
    .observe = el_observe,
    .privileged = el_privileged,
    .returns = el_returns,
    .player_done = el_player_done,
    .info = el_info,
    .determinize = el_determinize,
};
