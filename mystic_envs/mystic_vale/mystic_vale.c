/* Mystic Vale, compiled: the twin of mystic_envs/mystic_vale/rules.py (with decisions.py,
 * harvest.py, sleeves.py and observation.py), equal to it step for step (CONVENTIONS section 8).
 *
 * The state is one flat struct without pointers: a seat's 20 cards are indices 0-19 with three
 * slots each (an advancement id or -1) and the reading of each card (prof_t, sleeves.Profile)
 * kept beside it and redone when an advancement is sleeved; piles are arrays with the top card
 * last, as the Python lists. Every function carries the name of the Python method it mirrors and
 * draws from the generator in the same order with the same calls, so a seed gives the same game.
 * No card is named here: every advancement's and vale's numbers and ability rows come from
 * Python at start through the me_table list (twin.py core_tables()), as do the setup numbers and
 * the observation's layout; the ids below (actions, phases, stages, triggers, ops, multipliers)
 * are checked against Python's in dims() through the "consts" table. */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* ---- sizes and ids (checked against twin.py's "consts" in dims) ------------------------------- */
#define NC 20 /* a seat's cards */
enum { A_PASS, A_PUSH, A_DONE, A_CARD };
#define A_DISCARD_PEEKED (A_CARD + NC)
#define A_REDRAW_DRUID (A_DISCARD_PEEKED + 1)
#define A_REDRAW_VALE (A_REDRAW_DRUID + 1)
#define A_SACRIFICE (A_REDRAW_VALE + 1)
#define A_CONCLAVE (A_SACRIFICE + 1)
#define A_BUY_COMMONS (A_CONCLAVE + 1)
#define A_BUY_FERTILE (A_BUY_COMMONS + 9)
#define A_BUY_VALE (A_BUY_FERTILE + 3)
#define A_SUNSTONE (A_BUY_VALE + 8)
#define NUM_ACTIONS (A_SUNSTONE + 3)

enum {
    PH_PLANT, PH_WP_DISCARD, PH_PEEK, PH_SEARCH, PH_WOULD_SPOIL, PH_CONCLAVE_TARGET, PH_HARVEST,
    PH_DECLARE, PH_SLEEVE, PH_GAME_OVER, NUM_PHASES
};
enum { ST_PLANTING, ST_HARVESTING, ST_DISCARDING, ST_PREPPING, ST_OVER, NUM_STAGES };
enum { K_COMMONS, K_FERTILE, K_PRINTED };
enum { WILD = 3 };
enum { T_NONE, T_WHEN_PLAYED, T_HARVEST, T_ONGOING, T_IN_FIELD, T_WOULD_SPOIL, T_ANY_TIME, T_END_GAME };
enum {
    OP_GAIN_MANA, OP_LOSE_MANA, OP_GAIN_SPIRIT, OP_GAIN_VP, OP_END_VP, OP_GROWTH, OP_DECAY_CAP,
    OP_DISCARD_FROM_FIELD, OP_PEEK_TOP, OP_SEARCH_DECK, OP_REDRAW_ON_DECK, OP_SACRIFICE_FOR_GROWTH,
    OP_ADD_GUARDIAN, OP_WILD_FOR_MANA, OP_DISCOUNT_SAME_CARD
};
enum { PER_ONE, PER_GUARDIAN_ON_CARD, PER_OTHER_FIELD_CARD, PER_TWO_FIELD_CARDS, PER_SYMBOL_ON_CARD };
#define COMMONS_FACE_UP 3
#define VALES_FACE_UP 4
#define NUM_ZONES 4
#define CARD_STATS 15
#define SEAT_SCALARS 11
/* decisions.py: what the engine does next when no decision is open, how long a bonus lasts */
enum { NO_CONT, C_REVEAL, C_CHECK, C_SLEEVE_NEXT, C_PREP_NEXT, C_END_TURN };
enum { UNTIL_TURN_END, UNTIL_PLANTING_END, UNTIL_NEXT_PREP };

/* The ids above, in twin.py CONSTS order: a table that disagrees stops dims() with its name. */
enum {
    C_NUM_CARDS, C_A_PASS, C_A_PUSH, C_A_DONE, C_A_CARD, C_A_DISCARD_PEEKED, C_A_REDRAW_DRUID,
    C_A_REDRAW_VALE, C_A_SACRIFICE, C_A_CONCLAVE, C_A_BUY_COMMONS, C_A_BUY_FERTILE, C_A_BUY_VALE,
    C_A_SUNSTONE, C_NUM_ACTIONS, C_PH_PLANT, C_PH_WP_DISCARD, C_PH_PEEK, C_PH_SEARCH, C_PH_WOULD_SPOIL,
    C_PH_CONCLAVE_TARGET, C_PH_HARVEST, C_PH_DECLARE, C_PH_SLEEVE, C_PH_GAME_OVER, C_NUM_PHASES,
    C_ST_PLANTING, C_ST_HARVESTING, C_ST_DISCARDING, C_ST_PREPPING, C_ST_OVER, C_NUM_STAGES,
    C_K_COMMONS, C_K_PRINTED, C_WILD, C_T_WHEN_PLAYED, C_T_HARVEST, C_T_ONGOING, C_T_IN_FIELD, C_T_WOULD_SPOIL,
    C_T_END_GAME, C_OP_GAIN_MANA, C_OP_LOSE_MANA, C_OP_GAIN_SPIRIT, C_OP_GAIN_VP, C_OP_GROWTH,
    C_OP_DECAY_CAP, C_OP_DISCARD_FROM_FIELD, C_OP_PEEK_TOP, C_OP_SEARCH_DECK, C_OP_DISCOUNT_SAME_CARD,
    C_PER_ONE, C_PER_GUARDIAN_ON_CARD, C_PER_OTHER_FIELD_CARD, C_PER_TWO_FIELD_CARDS,
    C_PER_SYMBOL_ON_CARD, C_COMMONS_FACE_UP, C_VALES_FACE_UP, C_NUM_ZONES, C_CARD_STATS,
    C_SEAT_SCALARS,
    /* setup numbers, used from here */
    C_NUM_ADV, C_NUM_VALES, C_NUM_COMMONS, C_LEVEL1_CUT, C_VP_POOL = C_LEVEL1_CUT + 3,
    C_FERTILE_PER_SLOT = C_VP_POOL + 3, C_FERTILE_SOIL, C_ADVANCEMENT_BUYS = C_FERTILE_SOIL + 3,
    C_VALE_BUYS, C_SPOIL_DECAY, C_PREP_DECAY, NUM_CONSTS
};
static const int32_t EXPECTED[C_NUM_ADV] = {
    NC, A_PASS, A_PUSH, A_DONE, A_CARD, A_DISCARD_PEEKED, A_REDRAW_DRUID, A_REDRAW_VALE, A_SACRIFICE,
    A_CONCLAVE, A_BUY_COMMONS, A_BUY_FERTILE, A_BUY_VALE, A_SUNSTONE, NUM_ACTIONS, PH_PLANT,
    PH_WP_DISCARD, PH_PEEK, PH_SEARCH, PH_WOULD_SPOIL, PH_CONCLAVE_TARGET, PH_HARVEST, PH_DECLARE,
    PH_SLEEVE, PH_GAME_OVER, NUM_PHASES, ST_PLANTING, ST_HARVESTING, ST_DISCARDING, ST_PREPPING,
    ST_OVER, NUM_STAGES, K_COMMONS, K_PRINTED, WILD, T_WHEN_PLAYED, T_HARVEST, T_ONGOING, T_IN_FIELD,
    T_WOULD_SPOIL, T_END_GAME, OP_GAIN_MANA, OP_LOSE_MANA, OP_GAIN_SPIRIT, OP_GAIN_VP, OP_GROWTH,
    OP_DECAY_CAP, OP_DISCARD_FROM_FIELD, OP_PEEK_TOP, OP_SEARCH_DECK, OP_DISCOUNT_SAME_CARD, PER_ONE,
    PER_GUARDIAN_ON_CARD, PER_OTHER_FIELD_CARD, PER_TWO_FIELD_CARDS, PER_SYMBOL_ON_CARD,
    COMMONS_FACE_UP, VALES_FACE_UP, NUM_ZONES, CARD_STATS, SEAT_SCALARS,
};

/* Room for the data (twin.py pads its tables to these; dims() checks the data fits). */
#define MAXP 4
#define MAX_ADV 64
#define MAX_VALES 48
#define MAX_EFFECTS 3
#define ADV_W (19 + 4 * MAX_EFFECTS)
#define VALE_W (15 + 3 * MAX_EFFECTS)
#define LAYOUT_PARTS (13 + 3 * MAXP)
#define MAX_PILE 64   /* cards of one advancement level */
#define MAX_VPILE 32  /* cards of one vale level */
#define MAX_OWN 64    /* vales one seat owns */
#define MAX_WP 12     /* When Played rows of one card */
#define MAX_BONUS 16  /* Conclave guardians or Blooming Arbor growths in effect */
#define MAX_BUYS 8
#define MAX_SUN 16

/* ---- component tables, filled from twin.py core_tables() --------------------------------------- */
static int32_t T_CONSTS[NUM_CONSTS];
static int32_t T_ADV[MAX_ADV * ADV_W];
static int32_t T_VALE[MAX_VALES * VALE_W];
static int32_t T_COMMONS_INDEX[MAX_ADV];
static int32_t T_START_PRINTED[NC];
static int32_t T_OBS_AT[3 * (LAYOUT_PARTS + 1)];

static const me_table TABLES[] = {
    {"consts", T_CONSTS, NUM_CONSTS},
    {"adv", T_ADV, MAX_ADV * ADV_W},
    {"vale", T_VALE, MAX_VALES * VALE_W},
    {"commons_index", T_COMMONS_INDEX, MAX_ADV},
    {"start_printed", T_START_PRINTED, NC},
    {"obs_at", T_OBS_AT, 3 * (LAYOUT_PARTS + 1)},
};

/* An advancement's row (twin._adv_row) and a vale's (twin._vale_row). */
enum { AD_KIND, AD_LEVEL, AD_COPIES, AD_COST, AD_SLOT, AD_BAND, AD_SYM, AD_HVP = AD_SYM + 8, AD_EVP, AD_TRIGGER,
       AD_OPTIONAL, AD_NEFF, AD_EFF };
enum { VA_LEVEL, VA_COPIES, VA_COST, VA_EVP = VA_COST + 4, VA_GROWTH, VA_ONE_PER_PLAYER, VA_REDRAW, VA_SACRIFICE,
       VA_ADD_GUARDIAN, VA_BUY_LIMIT, VA_WILD_FOR_MANA, VA_NHARVEST, VA_HARVEST };
#define ADV(a, f) T_ADV[(a) * ADV_W + (f)]
#define VALE(v, f) T_VALE[(v) * VALE_W + (f)]
#define CONST(k) T_CONSTS[k]

/* The observation layout's parts, in observation.build_layout_for order. */
enum {
    L_PHASE, L_STAGE, L_POOL, L_COMMONS, L_SUPPLY, L_VALE_ROWS, L_VALE_DECKS, L_HARVEST, L_BOUGHT,
    L_BOUGHT_VALES, L_PENDING, L_WP_CARD, L_PEEKED, L_SEATS
};

typedef struct { /* sleeves.Profile */
    int8_t decay, growth, gpg, guardians, mana, spirits[4], harvest_vp;
    int8_t guardian_harvest, lose_mana, discount, redraw, level3;
    /* the active parts whose Harvest and When Played rows act, in slot order (their rows are read
     * from the table when they act, which keeps a profile, and so a state, small) */
    int8_t n_harvest, n_wp, harvest[3], wp[3];
    int16_t symbols, end_vp;
    /* the card's totals as the observation shows them (observation._content), made when it is
     * sleeved rather than on every step: decay, growth ... end VP, then the open slots */
    float shown[CARD_STATS - 1];
} prof_t;

typedef struct {
    int8_t a, b; /* guard: (card, kind); growth: (amount, kind) */
} bonus_t;

typedef struct {
    int8_t adv, declared, src;
} buy_t;

typedef struct {
    me_rng rng;
    int8_t n, start_player, active, player, stage, phase, cont, end_triggered;
    int32_t turn;
    int16_t pool, pool_start, overflow;
    int8_t placement[MAXP];
    int8_t slots[MAXP][NC][3];
    int8_t band[MAXP][NC];
    int8_t deck[MAXP][NC], deck_n[MAXP];
    int8_t field[MAXP][NC], field_n[MAXP];
    int8_t discard[MAXP][NC], discard_n[MAXP];
    int8_t on_deck[MAXP];
    int8_t vales[MAXP][MAX_OWN], vales_n[MAXP];
    int16_t tokens[MAXP];
    int8_t token_active[MAXP], skip_harvest[MAXP];
    int8_t rb_cards[MAXP][NC], rb_cards_n[MAXP], rb_vales[MAXP]; /* redraw_blocked */
    bonus_t carry_guard[MAXP][MAX_BONUS], carry_growth[MAXP][MAX_BONUS];
    int8_t carry_guard_n[MAXP], carry_growth_n[MAXP];
    int8_t l1_box[MAX_PILE], l1_box_n;
    int8_t level_deck[3][MAX_PILE], level_n[3];
    int8_t commons[3 * COMMONS_FACE_UP], fertile[3];
    int8_t vale_deck[2][MAX_VPILE], vale_deck_n[2];
    int8_t vale_up[2 * VALES_FACE_UP];
    int8_t boxed[2 * MAX_VPILE], boxed_n;
    /* the turn (ValeState._reset_turn) */
    int8_t wp_queue[MAX_WP], wp_n, wp_card, peeked;
    buy_t bought[MAX_BUYS];
    int8_t bought_n, bought_vales[MAX_BUYS], bought_vales_n;
    int16_t spent;
    int8_t token_used, sunstone[MAX_SUN], sunstone_n, conclave_used, conclave_from;
    int8_t earthchant_used[NC], earthchant_n;
    int8_t has_pending, pending_src, pending_adv, sleeve_index;
    int8_t redraw_cards[NC], redraw_cards_n, redraw_vales;
    bonus_t guard_bonus[MAX_BONUS], growth_bonus[MAX_BONUS];
    int8_t guard_n, growth_n;
    int16_t h_mana, h_vp, h_spirits[4];
    int16_t cards_end_vp[MAXP]; /* sums over the seat's 20 profiles, kept as they change */
    int8_t cards_level3[MAXP];
    int8_t card_net[MAXP][NC]; /* each profile's decay - growth, read on every spoil check */
    prof_t prof[MAXP][NC];
} st_t;

/* ---- small helpers ----------------------------------------------------------------------------- */
static inline int find8(const int8_t *xs, int n, int x) {
    for (int i = 0; i < n; i++)
        if (xs[i] == x) return i;
    return -1;
}
static inline void remove_at(int8_t *xs, int8_t *n, int i) {
    memmove(xs + i, xs + i + 1, (size_t)(*n - i - 1));
    (*n)--;
}
/* rules.IS_CURSED: the starting card carries a printed part (a Cursed Land) */
static inline int is_cursed(int c) {
    int p = T_START_PRINTED[c];
    return p >= 0 && ADV(p, AD_KIND) == K_PRINTED;
}
static inline int fertile_soil(int s) { return CONST(C_FERTILE_SOIL + s); }
static inline int num_adv(void) { return CONST(C_NUM_ADV); }
static inline int num_vales(void) { return CONST(C_NUM_VALES); }

/* ---- sleeves.profile: the reading of a card holding slots with band ----------------------------- */
static void read_profile(prof_t *p, const int8_t *slots, int band) {
    int sym[8] = {0};
    int hvp = 0, evp = 0, level3 = 0;
    for (int k = 0; k < 3; k++) {
        int a = slots[k];
        if (a < 0) continue;
        for (int j = 0; j < 8; j++) sym[j] += ADV(a, AD_SYM + j);
        hvp += ADV(a, AD_HVP);
        evp += ADV(a, AD_EVP);
        level3 += ADV(a, AD_LEVEL) == 3 && ADV(a, AD_KIND) == K_COMMONS;
    }
    int symbols = 0;
    for (int j = 0; j < 8; j++) symbols += sym[j];
    int decay = sym[1], growth = sym[2], guardians = sym[3];
    int cap = decay, gpg = 0, lose = 0, discount = 0, redraw = 0;
    memset(p, 0, sizeof *p);
    for (int k = 0; k < 3; k++) {
        int a = slots[k];
        if (a < 0 || (ADV(a, AD_BAND) && ADV(a, AD_SLOT) != band)) continue; /* sleeves.active_parts */
        int t = ADV(a, AD_TRIGGER);
        for (int e = 0; e < ADV(a, AD_NEFF); e++) {
            int op = ADV(a, AD_EFF + 4 * e), amount = ADV(a, AD_EFF + 4 * e + 1);
            int per = ADV(a, AD_EFF + 4 * e + 2);
            if (t == T_ONGOING && op == OP_GROWTH) {
                if (per == PER_GUARDIAN_ON_CARD)
                    gpg += amount;
                else
                    growth += amount;
            } else if (t == T_ONGOING && op == OP_DECAY_CAP) {
                if (amount < cap) cap = amount;
            } else if (t == T_HARVEST) {
                if (!p->n_harvest || p->harvest[p->n_harvest - 1] != a) p->harvest[p->n_harvest++] = (int8_t)a;
                if (per == PER_GUARDIAN_ON_CARD) p->guardian_harvest = 1;
            } else if (t == T_IN_FIELD && op == OP_LOSE_MANA) {
                lose += amount;
            } else if (t == T_IN_FIELD && op == OP_DISCOUNT_SAME_CARD) {
                if (amount > discount) discount = amount;
            } else if (t == T_WOULD_SPOIL) {
                redraw += amount;
            } else if (t == T_WHEN_PLAYED) {
                if (!p->n_wp || p->wp[p->n_wp - 1] != a) p->wp[p->n_wp++] = (int8_t)a;
            } else if (t == T_END_GAME) {
                evp += amount * (per == PER_SYMBOL_ON_CARD ? symbols : 1);
            }
        }
    }
    p->decay = (int8_t)(decay < cap ? decay : cap);
    p->growth = (int8_t)(growth + gpg * guardians);
    p->gpg = (int8_t)gpg;
    p->guardians = (int8_t)guardians;
    p->mana = (int8_t)sym[0];
    for (int j = 0; j < 4; j++) p->spirits[j] = (int8_t)sym[4 + j];
    p->harvest_vp = (int8_t)hvp;
    p->lose_mana = (int8_t)lose;
    p->discount = (int8_t)discount;
    p->redraw = (int8_t)redraw;
    p->symbols = (int16_t)symbols;
    p->end_vp = (int16_t)evp;
    p->level3 = (int8_t)level3;
    float *x = p->shown;
    x[0] = (float)(p->decay / 3.0);
    x[1] = (float)(p->growth / 3.0);
    x[2] = (float)(p->gpg / 2.0);
    x[3] = (float)(p->guardians / 4.0);
    x[4] = (float)(p->mana / 3.0);
    for (int k = 0; k < 4; k++) x[5 + k] = (float)(p->spirits[k] / 3.0);
    x[9] = (float)(p->harvest_vp / 3.0);
    x[10] = (float)(p->end_vp / 10.0);
    for (int k = 0; k < 3; k++) x[11 + k] = (float)(slots[k] < 0);
}

static inline int multiplier(int per, int guardians, int field_cards) {
    if (per == PER_ONE) return 1;
    if (per == PER_GUARDIAN_ON_CARD) return guardians;
    if (per == PER_OTHER_FIELD_CARD) return field_cards - 1;
    if (per == PER_TWO_FIELD_CARDS) return field_cards / 2;
    return 0; /* sleeves.multiplier raises: the data never asks (dims checks) */
}

/* ---- moving cards ------------------------------------------------------------------------------ */
static void refill_deck(st_t *s, int q) {
    if (!s->deck_n[q] && s->discard_n[q]) {
        memcpy(s->deck[q], s->discard[q], (size_t)s->discard_n[q]);
        s->deck_n[q] = s->discard_n[q];
        s->discard_n[q] = 0;
        me_rng_shuffle_i8(&s->rng, s->deck[q], s->deck_n[q]);
    }
}

static void reveal(st_t *s, int q) {
    refill_deck(s, q);
    s->on_deck[q] = s->deck_n[q] ? s->deck[q][--s->deck_n[q]] : -1;
}

static void play_on_deck(st_t *s) {
    int q = s->active, c = s->on_deck[q];
    s->on_deck[q] = -1;
    s->field[q][s->field_n[q]++] = (int8_t)c;
    s->wp_card = (int8_t)c;
    const prof_t *p = &s->prof[q][c];
    s->wp_n = 0;
    for (int i = 0; i < p->n_wp; i++) { /* profile.when_played: each row, amount times */
        int a = p->wp[i];
        for (int e = 0; e < ADV(a, AD_NEFF); e++)
            for (int k = 0; k < ADV(a, AD_EFF + 4 * e + 1); k++) s->wp_queue[s->wp_n++] = (int8_t)ADV(a, AD_EFF + 4 * e);
    }
    s->cont = C_REVEAL;
}

/* ---- decay, growth, guardians ------------------------------------------------------------------ */
static int guardians(const st_t *s, int c) {
    int g = s->prof[s->active][c].guardians;
    for (int i = 0; i < s->guard_n; i++) g += s->guard_bonus[i].a == c;
    return g;
}

/* active_vales(q): the seat's vales less the first copy of each bought this turn (active seat). */
static int active_vales(const st_t *s, int q, int8_t *out) {
    int n = s->vales_n[q];
    memcpy(out, s->vales[q], (size_t)n);
    if (q != s->active) return n;
    for (int i = 0; i < s->bought_vales_n; i++) {
        int8_t nn = (int8_t)n;
        int k = find8(out, n, s->bought_vales[i]);
        if (k >= 0) remove_at(out, &nn, k);
        n = nn;
    }
    return n;
}

static int net_decay(const st_t *s, int q) {
    const prof_t *prof = s->prof[q];
    const int8_t *card_net = s->card_net[q];
    int net = 0, c = s->on_deck[q];
    for (int i = 0; i < s->field_n[q]; i++) net += card_net[s->field[q][i]];
    if (c >= 0) net += card_net[c];
    const bonus_t *guard, *growth;
    int ng, nw;
    if (q == s->active) {
        guard = s->guard_bonus, ng = s->guard_n, growth = s->growth_bonus, nw = s->growth_n;
    } else {
        guard = s->carry_guard[q], ng = s->carry_guard_n[q], growth = s->carry_growth[q], nw = s->carry_growth_n[q];
    }
    for (int i = 0; i < ng; i++) {
        int b = guard[i].a;
        if (b == c || find8(s->field[q], s->field_n[q], b) >= 0) net -= prof[b].gpg;
    }
    for (int i = 0; i < nw; i++) net -= growth[i].a;
    if (s->vales_n[q]) {
        int8_t av[MAX_OWN];
        int na = active_vales(s, q, av);
        for (int i = 0; i < na; i++) net -= VALE(av[i], VA_GROWTH);
    }
    return net;
}

/* ---- the Harvest (harvest.py) ------------------------------------------------------------------- */
static void refresh_harvest(st_t *s) {
    int q = s->active, n = s->field_n[q];
    int mana = 0, lose = 0, vp = 0, spirits[4] = {0};
    for (int i = 0; i < n; i++) {
        int c = s->field[q][i];
        const prof_t *p = &s->prof[q][c];
        mana += p->mana;
        lose += p->lose_mana;
        vp += p->harvest_vp;
        for (int k = 0; k < 4; k++) spirits[k] += p->spirits[k];
        if (p->n_harvest) {
            int g = guardians(s, c);
            for (int j = 0; j < p->n_harvest; j++) {
                int a = p->harvest[j];
                for (int e = 0; e < ADV(a, AD_NEFF); e++) {
                    const int32_t *row = &ADV(a, AD_EFF + 4 * e);
                    int x = row[1] * multiplier(row[2], g, n);
                    if (row[0] == OP_GAIN_MANA)
                        mana += x;
                    else if (row[0] == OP_GAIN_VP)
                        vp += x;
                    else if (row[0] == OP_GAIN_SPIRIT)
                        spirits[row[3]] += x;
                }
            }
        }
    }
    int8_t av[MAX_OWN];
    int na = active_vales(s, q, av);
    for (int i = 0; i < na; i++) {
        int v = av[i];
        for (int j = 0; j < VALE(v, VA_NHARVEST); j++) {
            int op = VALE(v, VA_HARVEST + 3 * j), amount = VALE(v, VA_HARVEST + 3 * j + 1);
            if (op == OP_GAIN_MANA)
                mana += amount;
            else if (op == OP_GAIN_VP)
                vp += amount;
            else
                spirits[VALE(v, VA_HARVEST + 3 * j + 2)] += amount;
        }
    }
    s->h_mana = (int16_t)(mana - lose > 0 ? mana - lose : 0);
    for (int k = 0; k < 4; k++) s->h_spirits[k] = (int16_t)spirits[k];
    s->h_vp = (int16_t)vp;
}

static int buy_limit(const st_t *s) {
    int8_t av[MAX_OWN];
    int na = active_vales(s, s->active, av), extra = 0;
    for (int i = 0; i < na; i++)
        if (VALE(av[i], VA_BUY_LIMIT) > extra) extra = VALE(av[i], VA_BUY_LIMIT);
    return CONST(C_ADVANCEMENT_BUYS) + extra;
}

static inline int mana_left(const st_t *s) { return s->h_mana + s->token_used - s->spent; }

static inline int token_at_hand(const st_t *s) { return s->token_active[s->active] && !s->token_used; }

static inline int affordable(const st_t *s, int cost) { return cost <= mana_left(s) + token_at_hand(s); }

static void pay(st_t *s, int cost) {
    s->spent = (int16_t)(s->spent + cost);
    if (mana_left(s) < 0) {
        s->token_active[s->active] = 0;
        s->token_used = 1;
    }
}

static void spirits_now(const st_t *s, int *out) {
    for (int k = 0; k < 4; k++) out[k] = s->h_spirits[k];
    for (int i = 0; i < s->sunstone_n; i++) out[s->sunstone[i]]--, out[WILD]++;
}

static int sunstone_left(const st_t *s) {
    int8_t av[MAX_OWN];
    int na = active_vales(s, s->active, av), have = 0;
    for (int i = 0; i < na; i++) have += VALE(av[i], VA_WILD_FOR_MANA) != 0;
    return have - s->sunstone_n;
}

static int sunstone_price(const st_t *s) {
    int q = s->active, best = -1;
    for (int i = 0; i < s->vales_n[q]; i++) {
        int w = VALE(s->vales[q][i], VA_WILD_FOR_MANA);
        if (w && (best < 0 || w < best)) best = w;
    }
    return best;
}

static void buy_vale(st_t *s, int k) {
    int v = s->vale_up[k];
    s->vale_up[k] = -1;
    s->vales[s->active][s->vales_n[s->active]++] = (int8_t)v;
    s->bought_vales[s->bought_vales_n++] = (int8_t)v;
}

/* earthchant_cards: (card, discount) of the field's unused Earthchant Chorus cards */
static int earthchant_cards(const st_t *s, int8_t *cards, int8_t *discount) {
    int q = s->active, n = 0;
    for (int i = 0; i < s->field_n[q]; i++) {
        int c = s->field[q][i];
        int d = s->prof[q][c].discount;
        if (d && find8(s->earthchant_used, s->earthchant_n, c) < 0) cards[n] = (int8_t)c, discount[n++] = (int8_t)d;
    }
    return n;
}

typedef struct { /* slot_room: per slot (count, fixed, free, fits), then whether all fit */
    int count[3], nfixed[3], free[3], fits[3], all;
    int8_t fixed[3][MAX_BUYS];
} room_t;

static void slot_room(const st_t *s, room_t *r) {
    int q = s->active;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < s->field_n[q]; i++) {
        const int8_t *sl = s->slots[q][s->field[q][i]];
        for (int k = 0; k < 3; k++) r->free[k] += sl[k] < 0;
    }
    for (int i = 0; i < s->bought_n; i++) {
        int k = ADV(s->bought[i].adv, AD_SLOT);
        r->count[k]++;
        if (s->bought[i].declared >= 0) r->fixed[k][r->nfixed[k]++] = s->bought[i].declared;
    }
    r->all = 1;
    for (int k = 0; k < 3; k++) {
        int ok = 1;
        for (int i = 0; i < r->nfixed[k] && ok; i++) {
            int d = r->fixed[k][i];
            if (find8(r->fixed[k], i, d) >= 0 || s->slots[q][d][k] >= 0) ok = 0;
        }
        r->fits[k] = ok;
        if (r->count[k] && !(ok && r->count[k] <= r->free[k])) r->all = 0;
    }
}

static int room_for(const st_t *s, const room_t *r, int k, int declared) {
    if (!r->fits[k] || r->count[k] + 1 > r->free[k]) return 0;
    if (!r->all)
        for (int t = 0; t < 3; t++)
            if (t != k && r->count[t] && !(r->fits[t] && r->count[t] <= r->free[t])) return 0;
    return declared < 0 ||
           (find8(r->fixed[k], r->nfixed[k], declared) < 0 && s->slots[s->active][declared][k] < 0);
}

static inline int sub_floor0(int cost, int discount) { return cost - discount > 0 ? cost - discount : 0; }

/* _buy_options(adv, split=True): whether at full price, and the Earthchant cards it may go on */
static int buy_options(const st_t *s, int adv, int8_t *cards, int *ncards) {
    int cost = ADV(adv, AD_COST), k = ADV(adv, AD_SLOT);
    room_t r;
    slot_room(s, &r);
    int full = affordable(s, cost) && room_for(s, &r, k, -1);
    int8_t ec[NC], disc[NC];
    int ne = earthchant_cards(s, ec, disc), n = 0;
    for (int i = 0; i < ne; i++)
        if (affordable(s, sub_floor0(cost, disc[i])) && room_for(s, &r, k, ec[i])) cards[n++] = ec[i];
    *ncards = n;
    return full;
}

static void commit_buy(st_t *s, int src, int adv, int declared) {
    int cost = ADV(adv, AD_COST);
    if (declared >= 0) {
        cost = sub_floor0(cost, s->prof[s->active][declared].discount);
        s->earthchant_used[s->earthchant_n++] = (int8_t)declared;
    }
    pay(s, cost);
    if (src >= 0)
        s->commons[src] = -1;
    else
        s->fertile[-1 - src]--;
    buy_t *b = &s->bought[s->bought_n++];
    b->adv = (int8_t)adv, b->declared = (int8_t)declared, b->src = (int8_t)src;
}

/* ---- the flow (rules.py) ------------------------------------------------------------------------ */
static void run(st_t *s);

static void reset_turn(st_t *s, int q) {
    s->active = s->player = (int8_t)q;
    s->stage = ST_PLANTING;
    s->phase = PH_PLANT;
    s->cont = NO_CONT;
    s->wp_n = 0;
    s->wp_card = -1;
    s->peeked = 0;
    s->bought_n = s->bought_vales_n = 0;
    s->spent = 0;
    s->token_used = 0;
    s->sunstone_n = 0;
    s->conclave_used = 0;
    s->conclave_from = -1;
    s->earthchant_n = 0;
    s->has_pending = 0;
    s->sleeve_index = 0;
    s->redraw_cards_n = 0;
    s->redraw_vales = 0;
    s->guard_n = s->growth_n = 0;
    s->h_mana = s->h_vp = 0;
    for (int k = 0; k < 4; k++) s->h_spirits[k] = 0;
}

static void gain_vp(st_t *s, int q, int x) {
    int take = s->pool < x ? s->pool : x;
    s->pool = (int16_t)(s->pool - take);
    s->overflow = (int16_t)(s->overflow + x - take);
    s->tokens[q] = (int16_t)(s->tokens[q] + x);
    if (s->pool == 0) s->end_triggered = 1;
}

static void start_discard(st_t *s) {
    s->stage = ST_DISCARDING;
    s->sleeve_index = 0;
    s->cont = C_SLEEVE_NEXT;
}

static void end_planting(st_t *s) {
    int n = 0;
    for (int i = 0; i < s->guard_n; i++)
        if (s->guard_bonus[i].b != UNTIL_PLANTING_END) s->guard_bonus[n++] = s->guard_bonus[i];
    s->guard_n = (int8_t)n;
    s->redraw_cards_n = 0;
    s->redraw_vales = 0;
}

static void end_prep(st_t *s) {
    int q = s->active, n = 0;
    memcpy(s->rb_cards[q], s->redraw_cards, (size_t)s->redraw_cards_n);
    s->rb_cards_n[q] = s->redraw_cards_n;
    s->rb_vales[q] = s->redraw_vales;
    for (int i = 0; i < s->guard_n; i++)
        if (s->guard_bonus[i].b == UNTIL_PLANTING_END) s->carry_guard[q][n++] = s->guard_bonus[i];
    s->carry_guard_n[q] = (int8_t)n;
    memcpy(s->carry_growth[q], s->growth_bonus, sizeof(bonus_t) * (size_t)s->growth_n);
    s->carry_growth_n[q] = s->growth_n;
    s->cont = C_END_TURN;
}

static void spoil(st_t *s) {
    int q = s->active;
    s->token_active[q] = 1;
    if (s->stage == ST_PLANTING) {
        end_planting(s);
        start_discard(s);
    } else {
        s->skip_harvest[q] = 1;
        end_prep(s);
    }
}

static void start_turn(st_t *s, int q) {
    reset_turn(s, q);
    memcpy(s->growth_bonus, s->carry_growth[q], sizeof(bonus_t) * (size_t)s->carry_growth_n[q]);
    s->growth_n = s->carry_growth_n[q];
    memcpy(s->guard_bonus, s->carry_guard[q], sizeof(bonus_t) * (size_t)s->carry_guard_n[q]);
    s->guard_n = s->carry_guard_n[q];
    s->carry_growth_n[q] = s->carry_guard_n[q] = 0;
    memcpy(s->redraw_cards, s->rb_cards[q], (size_t)s->rb_cards_n[q]);
    s->redraw_cards_n = s->rb_cards_n[q];
    s->redraw_vales = s->rb_vales[q];
    s->rb_cards_n[q] = 0;
    s->rb_vales[q] = 0;
    if (s->skip_harvest[q]) {
        s->skip_harvest[q] = 0;
        end_planting(s);
        start_discard(s);
    } else {
        s->cont = NO_CONT;
        s->phase = PH_PLANT;
    }
}

static void start_harvest(st_t *s) {
    s->stage = ST_HARVESTING;
    s->phase = PH_HARVEST;
    refresh_harvest(s);
}

static void end_harvest(st_t *s) {
    gain_vp(s, s->active, s->h_vp);
    start_discard(s);
    run(s);
}

/* sleeve_targets: field cards with the slot open, less those a later declared purchase needs */
static int sleeve_targets(const st_t *s, int8_t *out) {
    int q = s->active;
    const buy_t *b = &s->bought[s->sleeve_index];
    int k = ADV(b->adv, AD_SLOT);
    if (b->declared >= 0) {
        out[0] = b->declared;
        return 1;
    }
    int n = 0;
    for (int i = 0; i < s->field_n[q]; i++) {
        int c = s->field[q][i];
        if (s->slots[q][c][k] >= 0) continue;
        int later = 0;
        for (int j = s->sleeve_index + 1; j < s->bought_n && !later; j++)
            later = s->bought[j].declared == c && ADV(s->bought[j].adv, AD_SLOT) == k;
        if (!later) out[n++] = (int8_t)c;
    }
    return n;
}

static void sleeve(st_t *s, int adv, int c) {
    int q = s->active, k = ADV(adv, AD_SLOT);
    prof_t *p = &s->prof[q][c];
    s->slots[q][c][k] = (int8_t)adv;
    if (ADV(adv, AD_BAND)) s->band[q][c] = (int8_t)k;
    s->cards_end_vp[q] = (int16_t)(s->cards_end_vp[q] - p->end_vp);
    s->cards_level3[q] = (int8_t)(s->cards_level3[q] - p->level3);
    read_profile(p, s->slots[q][c], s->band[q][c]);
    s->card_net[q][c] = (int8_t)(p->decay - p->growth);
    s->cards_end_vp[q] = (int16_t)(s->cards_end_vp[q] + p->end_vp);
    s->cards_level3[q] = (int8_t)(s->cards_level3[q] + p->level3);
}

static int replacement(st_t *s, int level) {
    for (int lv = level; lv < 3; lv++)
        if (s->level_n[lv]) return s->level_deck[lv][--s->level_n[lv]];
    return -1;
}

static int vale_replacement(st_t *s, int level) {
    for (int lv = level; lv < 2; lv++)
        if (s->vale_deck_n[lv]) return s->vale_deck[lv][--s->vale_deck_n[lv]];
    return -1;
}

static int end_vp(const st_t *s, int q) {
    int vp = s->cards_end_vp[q];
    for (int i = 0; i < s->vales_n[q]; i++) vp += VALE(s->vales[q][i], VA_EVP);
    return vp;
}

static inline int points(const st_t *s, int q) { return s->tokens[q] + end_vp(s, q); }

static int tiebreak(const st_t *s, int q) {
    int t = s->cards_level3[q];
    for (int i = 0; i < s->vales_n[q]; i++) t += VALE(s->vales[q][i], VA_LEVEL) == 2;
    return t;
}

static void finish_game(st_t *s) {
    int pts[MAXP], tb[MAXP];
    for (int q = 0; q < s->n; q++) pts[q] = points(s, q), tb[q] = tiebreak(s, q);
    for (int q = 0; q < s->n; q++) {
        int better = 0;
        for (int r = 0; r < s->n; r++) better += pts[r] > pts[q] || (pts[r] == pts[q] && tb[r] > tb[q]);
        s->placement[q] = (int8_t)better;
    }
    s->turn++;
    s->phase = PH_GAME_OVER;
    s->stage = ST_OVER;
    s->player = -1;
    s->cont = NO_CONT;
}

static void finish_discard(st_t *s) {
    int q = s->active;
    memcpy(s->discard[q] + s->discard_n[q], s->field[q], (size_t)s->field_n[q]);
    s->discard_n[q] = (int8_t)(s->discard_n[q] + s->field_n[q]);
    s->field_n[q] = 0;
    for (int i = 0; i < s->bought_n; i++) {
        int src = s->bought[i].src;
        if (src >= 0) s->commons[src] = (int8_t)replacement(s, src / COMMONS_FACE_UP);
    }
    for (int k = 0; k < 2 * VALES_FACE_UP; k++)
        if (s->vale_up[k] < 0) s->vale_up[k] = (int8_t)vale_replacement(s, k / VALES_FACE_UP);
    int nxt = (q + 1) % s->n;
    if (s->end_triggered && nxt == s->start_player) {
        finish_game(s);
        return;
    }
    s->cont = C_PREP_NEXT;
}

static int sleeve_step(st_t *s) {
    while (s->sleeve_index < s->bought_n) {
        int8_t targets[NC];
        int n = sleeve_targets(s, targets);
        if (n > 1) {
            s->phase = PH_SLEEVE;
            return 1;
        }
        sleeve(s, s->bought[s->sleeve_index].adv, targets[0]);
        s->sleeve_index++;
    }
    finish_discard(s);
    return 0;
}

static void start_prep(st_t *s) {
    s->stage = ST_PREPPING;
    s->growth_n = 0;
    s->redraw_cards_n = 0;
    s->redraw_vales = 0;
    if (s->on_deck[s->active] >= 0)
        play_on_deck(s);
    else
        s->cont = C_REVEAL;
}

static void end_turn(st_t *s) {
    s->turn++;
    start_turn(s, (s->active + 1) % s->n);
}

/* conclave_targets(where) as a bit mask over card indices (ascending, as sorted) */
static uint32_t conclave_targets(const st_t *s, int where) {
    int q = s->active;
    int8_t av[MAX_OWN];
    int na = active_vales(s, q, av), have = 0;
    for (int i = 0; i < na; i++) have += VALE(av[i], VA_ADD_GUARDIAN);
    if (have <= s->conclave_used) return 0;
    const prof_t *prof = s->prof[q];
    uint32_t cards = 0, out = 0;
    for (int i = 0; i < s->field_n[q]; i++) cards |= 1u << s->field[q][i];
    if (s->on_deck[q] >= 0 && where != PH_HARVEST) cards |= 1u << s->on_deck[q];
    for (int c = 0; c < NC; c++) {
        if (!(cards >> c & 1u)) continue;
        int ok = where == PH_WOULD_SPOIL ? prof[c].gpg != 0
                 : where == PH_HARVEST   ? prof[c].guardian_harvest
                 : where == PH_PLANT     ? (prof[c].gpg || prof[c].guardian_harvest)
                                         : 0;
        if (ok) out |= 1u << c;
    }
    return out;
}

/* saves(): the would-spoil actions open now, as a bit mask over actions from A_REDRAW_DRUID */
static uint32_t saves(const st_t *s) {
    int q = s->active;
    int8_t av[MAX_OWN];
    int na = active_vales(s, q, av);
    uint32_t out = 0;
    if (s->on_deck[q] >= 0) {
        for (int i = 0; i < s->field_n[q]; i++) {
            int c = s->field[q][i];
            if (s->prof[q][c].redraw && find8(s->redraw_cards, s->redraw_cards_n, c) < 0) {
                out |= 1u << (A_REDRAW_DRUID - A_REDRAW_DRUID);
                break;
            }
        }
        int redraws = 0;
        for (int i = 0; i < na; i++) redraws += VALE(av[i], VA_REDRAW);
        if (redraws > s->redraw_vales) out |= 1u << (A_REDRAW_VALE - A_REDRAW_DRUID);
    }
    for (int i = 0; i < na; i++)
        if (VALE(av[i], VA_SACRIFICE)) {
            out |= 1u << (A_SACRIFICE - A_REDRAW_DRUID);
            break;
        }
    if (conclave_targets(s, PH_WOULD_SPOIL)) out |= 1u << (A_CONCLAVE - A_REDRAW_DRUID);
    return out;
}

static void run(st_t *s) {
    int q = s->active;
    for (;;) {
        if (s->wp_n) {
            int op = s->wp_queue[0];
            memmove(s->wp_queue, s->wp_queue + 1, (size_t)(s->wp_n - 1));
            s->wp_n--;
            if (op == OP_DISCARD_FROM_FIELD) {
                if (s->field_n[q] > 1) {
                    s->phase = PH_WP_DISCARD;
                    return;
                }
            } else if (op == OP_PEEK_TOP) {
                refill_deck(s, q);
                if (s->deck_n[q]) {
                    s->peeked = 1;
                    s->phase = PH_PEEK;
                    return;
                }
            } else if (op == OP_SEARCH_DECK) {
                refill_deck(s, q);
                if (s->deck_n[q]) {
                    s->phase = PH_SEARCH;
                    return;
                }
            }
            continue;
        }
        switch (s->cont) {
        case NO_CONT:
            return;
        case C_REVEAL:
            reveal(s, q);
            s->cont = C_CHECK;
            break;
        case C_CHECK: {
            int net = net_decay(s, q);
            if (net >= CONST(C_SPOIL_DECAY)) {
                if (saves(s)) {
                    s->phase = PH_WOULD_SPOIL;
                    return;
                }
                spoil(s);
            } else if (s->stage == ST_PLANTING) {
                s->phase = PH_PLANT;
                return;
            } else if (net >= CONST(C_PREP_DECAY) || s->on_deck[q] < 0) {
                end_prep(s);
            } else {
                play_on_deck(s);
            }
            break;
        }
        case C_SLEEVE_NEXT:
            if (sleeve_step(s)) return;
            break;
        case C_PREP_NEXT:
            start_prep(s);
            break;
        case C_END_TURN:
            end_turn(s);
            q = s->active;
            break;
        default:
            return;
        }
    }
}

/* ---- decisions (decisions.py) ------------------------------------------------------------------- */
static int harvest_legal(const st_t *s, uint8_t *mask) {
    int q = s->active, count = 1;
    mask[A_DONE] = 1;
    if (conclave_targets(s, s->phase)) mask[A_CONCLAVE] = 1, count++;
    if (s->bought_n < buy_limit(s)) {
        int at_hand = mana_left(s) + token_at_hand(s);
        int8_t ec[NC], disc[NC];
        int ne = earthchant_cards(s, ec, disc);
        room_t r;
        slot_room(s, &r);
        int at_full[3];
        for (int k = 0; k < 3; k++) at_full[k] = room_for(s, &r, k, -1);
        for (int k = 0; k < 3 * COMMONS_FACE_UP + 3; k++) {
            int fertile = k >= 3 * COMMONS_FACE_UP;
            int a = fertile ? fertile_soil(k - 3 * COMMONS_FACE_UP) : s->commons[k];
            if (fertile ? s->fertile[k - 3 * COMMONS_FACE_UP] <= 0 : a < 0) continue;
            int cost = ADV(a, AD_COST), slot = ADV(a, AD_SLOT);
            int ok = cost <= at_hand && at_full[slot];
            for (int i = 0; i < ne && !ok; i++) ok = sub_floor0(cost, disc[i]) <= at_hand && room_for(s, &r, slot, ec[i]);
            if (ok) mask[A_BUY_COMMONS + k] = 1, count++;
        }
    }
    int spirits[4];
    spirits_now(s, spirits);
    if (s->bought_vales_n < CONST(C_VALE_BUYS)) {
        int need[4] = {0};
        for (int i = 0; i < s->bought_vales_n; i++)
            for (int k = 0; k < 4; k++) need[k] += VALE(s->bought_vales[i], VA_COST + k);
        int left = spirits[0] + spirits[1] + spirits[2] + spirits[3] - need[0] - need[1] - need[2] - need[3];
        for (int k = 0; k < 2 * VALES_FACE_UP; k++) {
            int v = s->vale_up[k];
            if (v < 0) continue;
            int total = VALE(v, VA_COST) + VALE(v, VA_COST + 1) + VALE(v, VA_COST + 2) + VALE(v, VA_COST + 3);
            if (total > left) continue;
            if (VALE(v, VA_ONE_PER_PLAYER) && find8(s->vales[q], s->vales_n[q], v) >= 0) continue;
            int short_ = 0; /* harvest._pays */
            for (int j = 0; j < 3; j++) {
                int x = need[j] + VALE(v, VA_COST + j) - spirits[j];
                if (x > 0) short_ += x;
            }
            if (short_ <= spirits[WILD]) mask[A_BUY_VALE + k] = 1, count++;
        }
    }
    if (sunstone_left(s) && affordable(s, sunstone_price(s)))
        for (int k = 0; k < 3; k++)
            if (spirits[k] > 0) mask[A_SUNSTONE + k] = 1, count++;
    return count;
}

static int legal_mask(const void *sv, uint8_t *mask) {
    const st_t *s = (const st_t *)sv;
    int q = s->active, count = 0;
    memset(mask, 0, NUM_ACTIONS);
#define SET(a) (mask[a] = 1, count++)
    switch (s->phase) {
    case PH_PLANT:
        SET(A_PASS);
        if (s->on_deck[q] >= 0) SET(A_PUSH);
        if (conclave_targets(s, PH_PLANT)) SET(A_CONCLAVE);
        break;
    case PH_WP_DISCARD:
        SET(A_DONE);
        for (int i = 0; i < s->field_n[q]; i++)
            if (s->field[q][i] != s->wp_card) SET(A_CARD + s->field[q][i]);
        break;
    case PH_PEEK:
        SET(A_DONE);
        SET(A_DISCARD_PEEKED);
        break;
    case PH_SEARCH:
        SET(A_DONE);
        for (int i = 0; i < s->deck_n[q]; i++) SET(A_CARD + s->deck[q][i]);
        break;
    case PH_WOULD_SPOIL: {
        SET(A_DONE);
        uint32_t sv2 = saves(s);
        for (int k = 0; k < 4; k++)
            if (sv2 >> k & 1u) SET(A_REDRAW_DRUID + k);
        break;
    }
    case PH_CONCLAVE_TARGET: {
        uint32_t t = conclave_targets(s, s->conclave_from);
        for (int c = 0; c < NC; c++)
            if (t >> c & 1u) SET(A_CARD + c);
        break;
    }
    case PH_HARVEST:
        count = harvest_legal(s, mask);
        break;
    case PH_DECLARE: {
        int8_t cards[NC];
        int n;
        if (buy_options(s, s->pending_adv, cards, &n)) SET(A_DONE);
        for (int i = 0; i < n; i++) SET(A_CARD + cards[i]);
        break;
    }
    case PH_SLEEVE: {
        int8_t targets[NC];
        int n = sleeve_targets(s, targets);
        for (int i = 0; i < n; i++) SET(A_CARD + targets[i]);
        break;
    }
    default:
        break;
    }
#undef SET
    return count;
}

static void apply_conclave(st_t *s, int c) {
    s->conclave_used++;
    bonus_t *b = &s->guard_bonus[s->guard_n++];
    b->a = (int8_t)c;
    b->b = s->stage == ST_PREPPING ? UNTIL_PLANTING_END : UNTIL_TURN_END;
    int back = s->conclave_from;
    if (back == PH_WOULD_SPOIL) {
        s->cont = C_CHECK;
        run(s);
    } else {
        if (back == PH_HARVEST) refresh_harvest(s);
        s->phase = (int8_t)back;
    }
}

static void open_conclave(st_t *s, int back) {
    s->conclave_from = (int8_t)back;
    uint32_t t = conclave_targets(s, back);
    if (t && !(t & (t - 1))) {
        int c = 0;
        while (!(t >> c & 1u)) c++;
        apply_conclave(s, c);
    } else {
        s->phase = PH_CONCLAVE_TARGET;
    }
}

static void apply_save(st_t *s, int a) {
    int q = s->active;
    if (a == A_DONE) {
        spoil(s);
    } else if (a == A_CONCLAVE) {
        open_conclave(s, PH_WOULD_SPOIL);
        return;
    } else if (a == A_SACRIFICE) {
        int8_t av[MAX_OWN];
        int na = active_vales(s, q, av), v = -1;
        for (int i = 0; i < na && v < 0; i++)
            if (VALE(av[i], VA_SACRIFICE)) v = av[i];
        remove_at(s->vales[q], &s->vales_n[q], find8(s->vales[q], s->vales_n[q], v));
        s->boxed[s->boxed_n++] = (int8_t)v;
        bonus_t *g = &s->growth_bonus[s->growth_n++];
        g->a = (int8_t)VALE(v, VA_SACRIFICE);
        g->b = s->stage == ST_PREPPING ? UNTIL_NEXT_PREP : UNTIL_TURN_END;
        s->cont = C_CHECK;
    } else {
        if (a == A_REDRAW_DRUID) {
            for (int i = 0; i < s->field_n[q]; i++) {
                int c = s->field[q][i];
                if (s->prof[q][c].redraw && find8(s->redraw_cards, s->redraw_cards_n, c) < 0) {
                    s->redraw_cards[s->redraw_cards_n++] = (int8_t)c;
                    break;
                }
            }
        } else {
            s->redraw_vales++;
        }
        s->discard[q][s->discard_n[q]++] = s->on_deck[q];
        s->on_deck[q] = -1;
        s->cont = C_REVEAL;
    }
    run(s);
}

static void start_buy(st_t *s, int src, int adv) {
    int8_t cards[NC];
    int n, full = buy_options(s, adv, cards, &n);
    if (!n) {
        commit_buy(s, src, adv, -1);
    } else if (!full && n == 1) {
        commit_buy(s, src, adv, cards[0]);
    } else {
        s->has_pending = 1;
        s->pending_src = (int8_t)src;
        s->pending_adv = (int8_t)adv;
        s->phase = PH_DECLARE;
    }
}

static void apply_harvest(st_t *s, int a) {
    if (a == A_DONE) {
        end_harvest(s);
    } else if (a == A_CONCLAVE) {
        open_conclave(s, PH_HARVEST);
    } else if (a >= A_BUY_COMMONS && a < A_BUY_FERTILE) {
        start_buy(s, a - A_BUY_COMMONS, s->commons[a - A_BUY_COMMONS]);
    } else if (a >= A_BUY_FERTILE && a < A_BUY_VALE) {
        start_buy(s, -1 - (a - A_BUY_FERTILE), fertile_soil(a - A_BUY_FERTILE));
    } else if (a >= A_BUY_VALE && a < A_SUNSTONE) {
        buy_vale(s, a - A_BUY_VALE);
    } else {
        pay(s, sunstone_price(s));
        s->sunstone[s->sunstone_n++] = (int8_t)(a - A_SUNSTONE);
    }
}

/* card c from one of seat q's piles (list.remove) to its discard pile */
static void to_discard(st_t *s, int q, int8_t *pile, int8_t *n, int c) {
    remove_at(pile, n, find8(pile, *n, c));
    s->discard[q][s->discard_n[q]++] = (int8_t)c;
}

static void apply(void *sv, int a) {
    st_t *s = (st_t *)sv;
    int q = s->active;
    switch (s->phase) {
    case PH_PLANT:
        if (a == A_CONCLAVE) {
            open_conclave(s, PH_PLANT);
        } else if (a == A_PASS) {
            end_planting(s);
            start_harvest(s);
        } else {
            play_on_deck(s);
            run(s);
        }
        break;
    case PH_WP_DISCARD:
        if (a != A_DONE) to_discard(s, q, s->field[q], &s->field_n[q], a - A_CARD);
        run(s);
        break;
    case PH_PEEK:
        if (a == A_DISCARD_PEEKED) s->discard[q][s->discard_n[q]++] = s->deck[q][--s->deck_n[q]];
        s->peeked = 0;
        run(s);
        break;
    case PH_SEARCH:
        if (a != A_DONE) to_discard(s, q, s->deck[q], &s->deck_n[q], a - A_CARD);
        me_rng_shuffle_i8(&s->rng, s->deck[q], s->deck_n[q]);
        run(s);
        break;
    case PH_WOULD_SPOIL:
        apply_save(s, a);
        break;
    case PH_CONCLAVE_TARGET:
        apply_conclave(s, a - A_CARD);
        break;
    case PH_HARVEST:
        apply_harvest(s, a);
        break;
    case PH_DECLARE:
        s->has_pending = 0;
        commit_buy(s, s->pending_src, s->pending_adv, a == A_DONE ? -1 : a - A_CARD);
        s->phase = PH_HARVEST;
        break;
    case PH_SLEEVE:
        sleeve(s, s->bought[s->sleeve_index].adv, a - A_CARD);
        s->sleeve_index++;
        run(s);
        break;
    default:
        break;
    }
}

/* ---- the observation (observation.py) ----------------------------------------------------------- */
static inline const int32_t *layout_of(int n) { return T_OBS_AT + (n - 2) * (LAYOUT_PARTS + 1); }

static void write_seat(const st_t *s, float *o, int r, int own, int live, const int32_t *at) {
    int status = at[0], vales_at = at[1], cards_at = at[2];
    int nadv = num_adv(), feat = NUM_ZONES + nadv + CARD_STATS;
    float *st = o + status;
    st[0] = (float)(s->player == r);
    st[1] = (float)(live && s->active == r);
    st[2] = (float)(s->tokens[r] / 30.0);
    st[3] = (float)(points(s, r) / 60.0);
    st[4] = (float)s->token_active[r];
    st[5] = (float)s->skip_harvest[r];
    st[6] = (float)(s->deck_n[r] / 20.0);
    st[7] = (float)(s->discard_n[r] / 20.0);
    st[8] = (float)(s->field_n[r] / 20.0);
    st[9] = (float)(net_decay(s, r) / 5.0);
    st[10] = (float)(s->start_player == r);
    for (int i = 0; i < s->vales_n[r]; i++) o[vales_at + s->vales[r][i]] += 0.5f;
    for (int c = 0; c < NC; c++) {
        float *b = o + cards_at + c * feat;
        const int8_t *sl = s->slots[r][c];
        const prof_t *p = &s->prof[r][c];
        b[0] = 1.0f;
        for (int k = 0; k < 3; k++)
            if (sl[k] >= 0) b[NUM_ZONES + sl[k]] += 1.0f;
        memcpy(b + NUM_ZONES + nadv, p->shown, sizeof p->shown);
    }
    for (int i = 0; i < s->field_n[r]; i++) {
        float *b = o + cards_at + s->field[r][i] * feat;
        b[0] = 0.0f, b[1] = 1.0f;
    }
    if (s->on_deck[r] >= 0) {
        float *b = o + cards_at + s->on_deck[r] * feat;
        b[0] = 0.0f, b[2] = 1.0f;
    }
    if (own)
        for (int i = 0; i < s->discard_n[r]; i++) {
            float *b = o + cards_at + s->discard[r][i] * feat;
            b[0] = 0.0f, b[3] = 1.0f;
        }
    if (live) {
        const bonus_t *g = r == s->active ? s->guard_bonus : s->carry_guard[r];
        int ng = r == s->active ? s->guard_n : s->carry_guard_n[r];
        for (int i = 0; i < ng; i++) o[cards_at + g[i].a * feat + feat - 1] += 1.0f;
    }
}

static void observe(const void *sv, int me, float *o) {
    const st_t *s = (const st_t *)sv;
    int n = s->n, q = s->active;
    const int32_t *at = layout_of(n);
    int ncom = CONST(C_NUM_COMMONS), nv = num_vales();
    memset(o, 0, sizeof(float) * (size_t)at[L_SEATS + 3 * n]);
    o[at[L_PHASE] + s->phase] = 1.0f;
    o[at[L_STAGE] + s->stage] = 1.0f;
    o[at[L_POOL]] = (float)((double)s->pool / s->pool_start);
    o[at[L_POOL] + 1] = (float)s->end_triggered;
    for (int k = 0; k < 3 * COMMONS_FACE_UP; k++)
        if (s->commons[k] >= 0) o[at[L_COMMONS] + k * ncom + T_COMMONS_INDEX[s->commons[k]]] = 1.0f;
    float *sup = o + at[L_SUPPLY];
    sup[0] = (float)(s->fertile[0] / 6.0);
    sup[1] = (float)(s->fertile[1] / 6.0);
    sup[2] = (float)(s->fertile[2] / 6.0);
    sup[3] = (float)(s->level_n[0] / 18.0);
    sup[4] = (float)((s->level_n[1] + s->level_n[2]) / 60.0);
    for (int k = 0; k < 2 * VALES_FACE_UP; k++)
        if (s->vale_up[k] >= 0) o[at[L_VALE_ROWS] + k * nv + s->vale_up[k]] = 1.0f;
    o[at[L_VALE_DECKS]] = (float)(s->vale_deck_n[0] / 18.0);
    o[at[L_VALE_DECKS] + 1] = (float)(s->vale_deck_n[1] / 18.0);
    int live = s->phase != PH_GAME_OVER;
    if (live && (s->stage == ST_HARVESTING || s->stage == ST_DISCARDING)) {
        int spirits[4];
        spirits_now(s, spirits);
        int8_t av[MAX_OWN];
        int na = active_vales(s, q, av), guard = 0;
        for (int i = 0; i < na; i++) guard += VALE(av[i], VA_ADD_GUARDIAN);
        guard -= s->conclave_used;
        float *h = o + at[L_HARVEST];
        h[0] = (float)(mana_left(s) / 10.0);
        h[1] = (float)token_at_hand(s);
        for (int k = 0; k < 4; k++) h[2 + k] = (float)(spirits[k] / 5.0);
        h[6] = (float)(s->h_vp / 10.0);
        h[7] = (float)((buy_limit(s) - s->bought_n) / 3.0);
        h[8] = (float)((2 - s->bought_vales_n) / 2.0);
        h[9] = (float)sunstone_left(s);
        h[10] = (float)(guard > 0 ? guard : 0);
        h[11] = (float)(s->bought_n / 3.0);
        for (int i = 0; i < s->bought_n; i++) o[at[L_BOUGHT] + s->bought[i].adv] += 0.5f;
        for (int i = 0; i < s->bought_vales_n; i++) o[at[L_BOUGHT_VALES] + s->bought_vales[i]] += 1.0f;
    }
    if (live) {
        if (s->has_pending)
            o[at[L_PENDING] + s->pending_adv] = 1.0f;
        else if (s->phase == PH_SLEEVE)
            o[at[L_PENDING] + s->bought[s->sleeve_index].adv] = 1.0f;
        if (s->phase == PH_WP_DISCARD || s->phase == PH_PEEK || s->phase == PH_SEARCH) o[at[L_WP_CARD] + s->wp_card] = 1.0f;
        if (s->phase == PH_PEEK && me == q && s->deck_n[q]) o[at[L_PEEKED] + s->deck[q][s->deck_n[q] - 1]] = 1.0f;
    }
    for (int k = 0; k < n; k++) write_seat(s, o, (me + k) % n, k == 0, live, at + L_SEATS + 3 * k);
}

/* Every seat's observation in seat order, then twin.py _hidden_parts: each seat's deck from the top
 * and its discard pile, the level decks from the top, the level-1 box, the vale decks from the top. */
static int level_copies(int level) {
    int n = 0;
    for (int a = 0; a < num_adv(); a++)
        if (ADV(a, AD_KIND) == K_COMMONS && ADV(a, AD_LEVEL) == level) n += ADV(a, AD_COPIES);
    return n;
}
static int vale_copies(int level) {
    int n = 0;
    for (int v = 0; v < num_vales(); v++)
        if (VALE(v, VA_LEVEL) == level) n += VALE(v, VA_COPIES);
    return n;
}
static int hidden_size(int n) {
    return n * (NC * NC + NC) + (level_copies(1) + level_copies(2) + level_copies(3) + 1) * CONST(C_NUM_COMMONS) +
           (vale_copies(1) + vale_copies(2)) * num_vales();
}

static void privileged(const void *sv, float *out) {
    const st_t *s = (const st_t *)sv;
    int n = s->n, size = layout_of(n)[L_SEATS + 3 * n], ncom = CONST(C_NUM_COMMONS), nv = num_vales();
    for (int p = 0; p < n; p++) observe(sv, p, out + p * size);
    float *h = out + n * size;
    memset(h, 0, sizeof(float) * (size_t)hidden_size(n));
    for (int p = 0; p < n; p++) {
        for (int i = 0; i < s->deck_n[p]; i++) h[i * NC + s->deck[p][s->deck_n[p] - 1 - i]] = 1.0f;
        h += NC * NC;
        for (int i = 0; i < s->discard_n[p]; i++) h[s->discard[p][i]] = 1.0f;
        h += NC;
    }
    for (int lv = 0; lv < 3; lv++) {
        for (int i = 0; i < s->level_n[lv]; i++)
            h[i * ncom + T_COMMONS_INDEX[s->level_deck[lv][s->level_n[lv] - 1 - i]]] = 1.0f;
        h += level_copies(lv + 1) * ncom;
    }
    for (int i = 0; i < s->l1_box_n; i++) h[T_COMMONS_INDEX[s->l1_box[i]]] += 1.0f;
    h += ncom;
    for (int lv = 0; lv < 2; lv++) {
        for (int i = 0; i < s->vale_deck_n[lv]; i++) h[i * nv + s->vale_deck[lv][s->vale_deck_n[lv] - 1 - i]] = 1.0f;
        h += vale_copies(lv + 1) * nv;
    }
}

/* ---- the interface ----------------------------------------------------------------------------- */
static int current_player(const void *sv) { return ((const st_t *)sv)->player; }

static void returns(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    int n = s->n;
    for (int i = 0; i < n; i++) {
        if (s->phase != PH_GAME_OVER) {
            out[i] = 0.0;
            continue;
        }
        int beat = 0, lost = 0;
        for (int j = 0; j < n; j++) beat += s->placement[j] > s->placement[i], lost += s->placement[j] < s->placement[i];
        out[i] = (double)(beat - lost) / (n - 1);
    }
}

static int player_done(const void *sv, int seat) {
    (void)seat;
    return ((const st_t *)sv)->phase == PH_GAME_OVER;
}

/* phase, scores, then info_fields: turn, pool, vp_tokens[n], stage, active */
static void info(const void *sv, double *out) {
    const st_t *s = (const st_t *)sv;
    int n = s->n, k = 0;
    out[k++] = s->phase;
    for (int q = 0; q < n; q++) out[k++] = points(s, q);
    out[k++] = s->turn;
    out[k++] = s->pool;
    for (int q = 0; q < n; q++) out[k++] = s->tokens[q];
    out[k++] = s->stage;
    out[k++] = s->phase != PH_GAME_OVER ? s->active : -1;
}

static void fill_pile(int8_t *pile, int8_t *n, int kind_level, int is_vale) {
    int m = 0;
    if (is_vale) {
        for (int v = 0; v < num_vales(); v++)
            if (VALE(v, VA_LEVEL) == kind_level)
                for (int c = 0; c < VALE(v, VA_COPIES); c++) pile[m++] = (int8_t)v;
    } else {
        for (int a = 0; a < num_adv(); a++)
            if (ADV(a, AD_KIND) == K_COMMONS && ADV(a, AD_LEVEL) == kind_level)
                for (int c = 0; c < ADV(a, AD_COPIES); c++) pile[m++] = (int8_t)a;
    }
    *n = (int8_t)m;
}

/* ValeState.new */
static void init(void *sv, const me_config *cfg, uint64_t seed) {
    st_t *s = (st_t *)sv;
    memset(s, 0, sizeof *s);
    me_rng_seed(&s->rng, seed);
    int n = s->n = (int8_t)cfg->num_players;
    for (int q = 0; q < n; q++) {
        for (int c = 0; c < NC; c++) {
            int p = T_START_PRINTED[c];
            for (int k = 0; k < 3; k++) s->slots[q][c][k] = (int8_t)(p >= 0 && ADV(p, AD_SLOT) == k ? p : -1);
            s->band[q][c] = -1;
            read_profile(&s->prof[q][c], s->slots[q][c], -1);
            s->card_net[q][c] = (int8_t)(s->prof[q][c].decay - s->prof[q][c].growth);
            s->cards_end_vp[q] = (int16_t)(s->cards_end_vp[q] + s->prof[q][c].end_vp);
            s->cards_level3[q] = (int8_t)(s->cards_level3[q] + s->prof[q][c].level3);
        }
    }
    for (int q = 0; q < n; q++) {
        int perm[NC];
        me_rng_permutation(&s->rng, perm, NC);
        for (int i = 0; i < NC; i++) s->deck[q][i] = (int8_t)perm[i];
        s->deck_n[q] = NC;
    }
    int8_t l1[MAX_PILE], l1n;
    fill_pile(l1, &l1n, 1, 0);
    me_rng_shuffle_i8(&s->rng, l1, l1n);
    int cut = CONST(C_LEVEL1_CUT + n - 2);
    s->l1_box_n = (int8_t)(l1n - cut);
    memcpy(s->l1_box, l1 + cut, (size_t)s->l1_box_n);
    memcpy(s->level_deck[0], l1, (size_t)cut);
    s->level_n[0] = (int8_t)cut;
    for (int lv = 1; lv < 3; lv++) {
        fill_pile(s->level_deck[lv], &s->level_n[lv], lv + 1, 0);
        me_rng_shuffle_i8(&s->rng, s->level_deck[lv], s->level_n[lv]);
    }
    for (int k = 0; k < 3 * COMMONS_FACE_UP; k++) {
        int lv = k / COMMONS_FACE_UP;
        s->commons[k] = s->level_deck[lv][--s->level_n[lv]];
    }
    for (int k = 0; k < 3; k++) s->fertile[k] = (int8_t)CONST(C_FERTILE_PER_SLOT);
    for (int lv = 0; lv < 2; lv++) {
        fill_pile(s->vale_deck[lv], &s->vale_deck_n[lv], lv + 1, 1);
        me_rng_shuffle_i8(&s->rng, s->vale_deck[lv], s->vale_deck_n[lv]);
    }
    for (int k = 0; k < 2 * VALES_FACE_UP; k++) {
        int lv = k / VALES_FACE_UP;
        s->vale_up[k] = s->vale_deck[lv][--s->vale_deck_n[lv]];
    }
    s->pool = s->pool_start = (int16_t)CONST(C_VP_POOL + n - 2);
    for (int q = 0; q < n; q++) {
        reveal(s, q);
        for (;;) {
            int cursed = 0;
            for (int i = 0; i < s->field_n[q]; i++) cursed += is_cursed(s->field[q][i]);
            if (cursed == 2 && is_cursed(s->on_deck[q])) break;
            s->field[q][s->field_n[q]++] = s->on_deck[q];
            reveal(s, q);
        }
    }
    s->start_player = (int8_t)me_rng_below(&s->rng, (uint64_t)n);
    reset_turn(s, s->start_player);
    start_turn(s, s->start_player);
    run(s);
}

/* ValeState.determinize given Rng(seed): each pile re-dealt from its sorted contents. An insertion
 * sort, as piles hold a few dozen cards: qsort's generic merge sort of 1-byte items was 17% of a
 * search (callgrind), and any sort of integers leaves the same order. */
static void sorted_shuffle(me_rng *r, int8_t *xs, int n) {
    for (int i = 1; i < n; i++) {
        int8_t x = xs[i];
        int j = i;
        for (; j > 0 && xs[j - 1] > x; j--) xs[j] = xs[j - 1];
        xs[j] = x;
    }
    me_rng_shuffle_i8(r, xs, n);
}

static void determinize(void *sv, int player, uint64_t seed) {
    st_t *s = (st_t *)sv;
    me_rng r;
    me_rng_seed(&r, seed);
    for (int q = 0; q < s->n; q++) {
        if (q == player) {
            int keep = s->peeked && q == s->active && s->phase == PH_PEEK ? 1 : 0;
            sorted_shuffle(&r, s->deck[q], s->deck_n[q] - keep);
        } else {
            int8_t pool[2 * NC];
            int k = s->deck_n[q], m = s->deck_n[q] + s->discard_n[q];
            memcpy(pool, s->deck[q], (size_t)k);
            memcpy(pool + k, s->discard[q], (size_t)s->discard_n[q]);
            sorted_shuffle(&r, pool, m);
            memcpy(s->deck[q], pool, (size_t)k);
            memcpy(s->discard[q], pool + k, (size_t)(m - k));
        }
    }
    int8_t l1[2 * MAX_PILE];
    int k = s->level_n[0], m = s->level_n[0] + s->l1_box_n;
    memcpy(l1, s->level_deck[0], (size_t)k);
    memcpy(l1 + k, s->l1_box, (size_t)s->l1_box_n);
    sorted_shuffle(&r, l1, m);
    memcpy(s->level_deck[0], l1, (size_t)k);
    memcpy(s->l1_box, l1 + k, (size_t)(m - k));
    sorted_shuffle(&r, s->level_deck[1], s->level_n[1]);
    sorted_shuffle(&r, s->level_deck[2], s->level_n[2]);
    sorted_shuffle(&r, s->vale_deck[0], s->vale_deck_n[0]);
    sorted_shuffle(&r, s->vale_deck[1], s->vale_deck_n[1]);
    s->rng = r;
}

static int dims(const me_config *cfg, me_dims *d, char *err, size_t errlen) {
    for (int i = 0; i < C_NUM_ADV; i++) {
        if (T_CONSTS[i] != EXPECTED[i]) {
            snprintf(err, errlen, "mystic_vale: table 'consts' item %d is %d, the twin expects %d", i,
                     (int)T_CONSTS[i], (int)EXPECTED[i]);
            return -1;
        }
    }
    if (cfg->num_players < 2 || cfg->num_players > MAXP) {
        snprintf(err, errlen, "Mystic Vale is a game for 2-4 players, got num_players=%d", cfg->num_players);
        return -1;
    }
    for (int k = 0; k < ME_MAX_OPTIONS; k++)
        if (cfg->options[k] != 0) {
            snprintf(err, errlen, "Mystic Vale takes no options, got option %d = %d", k, cfg->options[k]);
            return -1;
        }
    /* the data fits the room the state keeps */
    int ok = num_adv() <= MAX_ADV && num_vales() <= MAX_VALES && CONST(C_NUM_COMMONS) <= num_adv();
    for (int lv = 1; lv <= 3 && ok; lv++) ok = level_copies(lv) <= MAX_PILE;
    for (int lv = 1; lv <= 2 && ok; lv++) ok = vale_copies(lv) <= MAX_VPILE;
    int guard = 0, growth = 0, sun = 0, extra = 0;
    for (int v = 0; v < num_vales() && ok; v++) {
        guard += VALE(v, VA_COPIES) * VALE(v, VA_ADD_GUARDIAN);
        growth += VALE(v, VA_COPIES) * (VALE(v, VA_SACRIFICE) != 0);
        sun += VALE(v, VA_COPIES) * (VALE(v, VA_WILD_FOR_MANA) != 0);
        if (VALE(v, VA_BUY_LIMIT) > extra) extra = VALE(v, VA_BUY_LIMIT);
        ok = VALE(v, VA_NHARVEST) <= MAX_EFFECTS;
    }
    ok = ok && guard <= MAX_BONUS && growth <= MAX_BONUS && sun <= MAX_SUN &&
         CONST(C_ADVANCEMENT_BUYS) + extra <= MAX_BUYS && CONST(C_VALE_BUYS) <= MAX_BUYS;
    for (int a = 0; a < num_adv() && ok; a++) {
        int wp = 0;
        ok = ADV(a, AD_NEFF) <= MAX_EFFECTS;
        for (int e = 0; e < ADV(a, AD_NEFF) && ok; e++) {
            int per = ADV(a, AD_EFF + 4 * e + 2);
            if (ADV(a, AD_TRIGGER) == T_WHEN_PLAYED) wp += ADV(a, AD_EFF + 4 * e + 1);
            if (ADV(a, AD_TRIGGER) == T_HARVEST) ok = per != PER_SYMBOL_ON_CARD;
        }
        ok = ok && 3 * wp <= MAX_WP;
    }
    if (!ok) {
        snprintf(err, errlen, "mystic_vale: the card data outgrow the room the twin keeps (its MAX_* sizes)");
        return -1;
    }
    const int32_t *at = layout_of(cfg->num_players);
    d->num_actions = NUM_ACTIONS;
    d->obs_size = at[L_SEATS + 3 * cfg->num_players];
    d->privileged_size = cfg->num_players * d->obs_size + hidden_size(cfg->num_players);
    d->info_size = 5 + 2 * cfg->num_players;
    d->state_size = sizeof(st_t);
    return 0;
}

const me_game me_mystic_vale = {
    "mystic_vale",
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
