/* The batch driver: N games of one twin stepped together, with next-step autoreset, over arrays
 * that the Python side owns (numpy) and reads in place. Env i's k-th game is seeded
 * seed + i + k*N. A pool of POSIX threads splits the batch into contiguous ranges. */
#ifndef MYSTIC_BATCH_H
#define MYSTIC_BATCH_H

#include <pthread.h>
#include <stdatomic.h>

#include "game.h"

typedef struct me_batch me_batch;
typedef void (*me_range_fn)(me_batch *b, int lo, int hi, const void *arg);

typedef struct {
    pthread_t *threads;
    int num_threads; /* workers beyond the calling thread */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    atomic_ulong generation; /* bumped once per job */
    atomic_int pending;      /* workers still on the job */
    atomic_int sleepers;     /* workers asleep on `work` */
    atomic_int waiting;      /* the caller asleep on `done` */
    atomic_int stop;
    me_range_fn fn;
    const void *arg;
} me_pool;

/* The arrays the batch writes, each C-contiguous with num_envs rows. */
typedef struct {
    int32_t *current_player; /* (N,) the mover, -1 on a step that ended the game */
    float *observation;      /* (N, obs_size) the mover's view; the last mover's on an ending step */
    uint8_t *action_mask;    /* (N, num_actions) 0/1; all 0 on an ending step */
    float *rewards;          /* (N, P) each seat's reward at the last step */
    uint8_t *terminated;     /* (N,) */
    uint8_t *truncated;      /* (N,) */
} me_outputs;

struct me_batch {
    const me_game *game;
    me_config cfg;
    me_dims dims;
    int num_envs, num_players;
    uint64_t seed;
    int64_t max_steps;
    unsigned char *states; /* num_envs * state_size */
    uint8_t *legal;        /* num_envs * num_actions: the driver's own copy of each mask */
    int32_t *num_legal;    /* (N,) how many actions each mask allows (0 on an ending step) */
    int64_t *game_index;   /* k: games each env has started, less one */
    int64_t *steps;        /* actions in the current game */
    int32_t *last_mover;   /* the seat that played the last action */
    uint8_t *ended;        /* the game ended at the last step: the next step starts the next one */
    double *scratch;       /* num_envs * 2P: returns before and after a step */
    me_rng *sample_rng;    /* one per env: sample_legal is the same whatever the threads */
    const uint8_t *active; /* NULL, or (N,) 0/1 for one step: envs at 0 are left as they are */
    me_outputs out;
    me_pool pool;
};

/* 0, or -1 with a message in err (bad dimensions, out of memory, threads). */
int me_batch_init(me_batch *b, const me_game *game, const me_config *cfg, int num_envs, uint64_t seed,
                  int64_t max_steps, int num_threads, me_outputs out, char *err, size_t errlen);
void me_batch_free(me_batch *b);
void me_batch_reset(me_batch *b);
/* Every action must already be checked with me_batch_check. */
void me_batch_step(me_batch *b, const int64_t *actions);
/* -1 if every action is legal (or ignored), else the first bad env index. */
int me_batch_check(me_batch *b, const int64_t *actions);
void me_batch_sample(me_batch *b, int64_t *out);
void me_batch_observe(me_batch *b, int seat, float *out);
void me_batch_privileged(me_batch *b, float *out);

static inline void *me_batch_state(const me_batch *b, int i) {
    return b->states + (size_t)i * b->dims.state_size;
}

#endif
