/* The interface every compiled twin implements (CONVENTIONS section 8).
 *
 * A twin is one C file in its game's room (mystic_envs/<game>/<game>.c) that defines one
 * `const me_game me_<game>` and nothing else with external linkage. Its state is plain data with
 * no pointers, so that copying its bytes clones it; it carries its own me_rng and every option it
 * needs. The batch driver (batch.c) and the Python glue (module.c) only ever call these functions;
 * the glue checks every input (seat, action legality) before a call, so twins may assume them. */
#ifndef MYSTIC_GAME_H
#define MYSTIC_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define ME_MAX_PLAYERS 5
/* Room for the longest options: Mystick Domination's deck lists (2 + 5 seats x 39 card ids). */
#define ME_MAX_OPTIONS 256

/* The game's keywords as integers, in the order the game's twin.py core_config() gives them. */
typedef struct {
    int num_players;
    int options[ME_MAX_OPTIONS];
} me_config;

typedef struct {
    int num_actions;
    int obs_size;        /* floats of one seat's observation */
    int privileged_size; /* floats of the privileged view (every hidden card too) */
    int info_size;       /* doubles of info(): phase, scores[num_players], then the info_fields */
    size_t state_size;   /* bytes of one state */
} me_dims;

/* One component table handed over from Python at start (twin.py core_data() gives name -> ints).
 * The glue fills `dest` (exactly `len` values, else an error naming the table) before any game is
 * made, and hands them back for the test that the two sides agree. */
typedef struct {
    const char *name;
    int32_t *dest;
    int len;
} me_table;

typedef struct {
    const char *name; /* the twin's name, twin.py CORE_NAME (e.g. "elemystic") */
    const me_table *tables;
    int num_tables;
    /* Validate cfg and fill dims: 0, or -1 with a one-line message in err. */
    int (*dims)(const me_config *cfg, me_dims *dims, char *err, size_t errlen);
    /* A new game: GameClass(**kw).new_initial_state(seed) of the Python engine. */
    void (*init)(void *st, const me_config *cfg, uint64_t seed);
    int (*current_player)(const void *st); /* -1 once the game is over */
    /* mask[a] = 1 for each legal action of the mover, 0 otherwise; returns how many are legal
     * (0 once the game is over). */
    int (*legal_mask)(const void *st, uint8_t *mask);
    void (*apply)(void *st, int action); /* a legal action, game not over */
    void (*observe)(const void *st, int seat, float *out);
    void (*privileged)(const void *st, float *out);
    /* GameState.returns(): final once over; while running, 0 for seats playing and the fixed
     * reward of any seat already out. */
    void (*returns)(const void *st, double *out);
    int (*player_done)(const void *st, int seat);
    void (*info)(const void *st, double *out);
    /* GameState.determinize(seat, numpy_rng) after the glue has drawn
     * seed = numpy_rng.integers(2**63): re-deal what `seat` cannot see from me_rng seeded `seed`,
     * and that same generator, where the re-deal left it, becomes the state's chance stream. */
    void (*determinize)(void *st, int seat, uint64_t seed);
} me_game;

#endif
