/* The batch driver (batch.h): autoreset, rewards as the change in each seat's returns, the
 * driver's own legal masks (so that the checks never trust an array the caller can write), and a
 * small pool of POSIX threads over contiguous ranges of the batch. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "batch.h"

#include <limits.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -- the thread pool ------------------------------------------------------------------------ */

typedef struct {
    me_batch *b;
    int index; /* 1..num_threads; the caller takes range 0 */
} me_worker;

static void me_range(const me_batch *b, int part, int parts, int *lo, int *hi) {
    *lo = (int)((int64_t)b->num_envs * part / parts);
    *hi = (int)((int64_t)b->num_envs * (part + 1) / parts);
}

/* Workers and the caller spin on the shared counter for this long before they sleep on a condition
 * variable: steps come microseconds apart in a training loop, and waking a sleeping thread costs
 * tens of microseconds, as much as a whole step of a small game's batch (measured: a batch of 1,024
 * Elemystic games steps in 40 us on two threads with this spin, 72 us with a 6 us one, 76 us on one
 * thread). The clock is read once every 1,024 checks. */
#define ME_SPIN_NS INT64_C(300000)

static int64_t me_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * INT64_C(1000000000) + t.tv_nsec;
}

/* True once the spin that began at *start (0: not yet begun) has lasted ME_SPIN_NS. */
static int me_spun_out(unsigned *spins, int64_t *start) {
    if ((++*spins & 1023u) != 0) return 0;
    int64_t now = me_now_ns();
    if (*start == 0) *start = now;
    return now - *start > ME_SPIN_NS;
}

static void *me_worker_main(void *p) {
    me_worker *w = p;
    me_batch *b = w->b;
    me_pool *pool = &b->pool;
    unsigned long seen = 0;
    for (;;) {
        unsigned long g;
        unsigned spins = 0;
        int64_t start = 0;
        while ((g = atomic_load(&pool->generation)) == seen && !atomic_load(&pool->stop)) {
            if (!me_spun_out(&spins, &start)) continue;
            /* Dekker with the caller: it bumps the generation then reads the sleepers; we count
             * ourselves a sleeper then read the generation, so one of us sees the other. */
            pthread_mutex_lock(&pool->mu);
            atomic_fetch_add(&pool->sleepers, 1);
            while (atomic_load(&pool->generation) == seen && !atomic_load(&pool->stop))
                pthread_cond_wait(&pool->work, &pool->mu);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mu);
            start = 0;
        }
        if (atomic_load(&pool->stop)) break;
        seen = g;
        int lo, hi;
        me_range(b, w->index, pool->num_threads + 1, &lo, &hi);
        pool->fn(b, lo, hi, pool->arg);
        if (atomic_fetch_sub(&pool->pending, 1) == 1 && atomic_load(&pool->waiting)) {
            pthread_mutex_lock(&pool->mu);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->mu);
        }
    }
    free(w);
    return NULL;
}

static void me_run(me_batch *b, me_range_fn fn, const void *arg) {
    me_pool *pool = &b->pool;
    if (pool->num_threads == 0) {
        fn(b, 0, b->num_envs, arg);
        return;
    }
    /* fn and arg are published by the sequentially consistent bump of the generation. */
    pool->fn = fn;
    pool->arg = arg;
    atomic_store(&pool->pending, pool->num_threads);
    atomic_fetch_add(&pool->generation, 1);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mu);
        pthread_cond_broadcast(&pool->work);
        pthread_mutex_unlock(&pool->mu);
    }
    int lo, hi;
    me_range(b, 0, pool->num_threads + 1, &lo, &hi);
    fn(b, lo, hi, arg);
    unsigned spins = 0;
    int64_t start = 0;
    while (atomic_load(&pool->pending) > 0) {
        if (!me_spun_out(&spins, &start)) continue;
        pthread_mutex_lock(&pool->mu);
        atomic_store(&pool->waiting, 1);
        while (atomic_load(&pool->pending) > 0) pthread_cond_wait(&pool->done, &pool->mu);
        atomic_store(&pool->waiting, 0);
        pthread_mutex_unlock(&pool->mu);
    }
}

/* -- one env ------------------------------------------------------------------------------- */

/* The mover's view and mask, or on an ending step the last mover's view and an empty mask. */
static void me_write_view(me_batch *b, int i, int ended) {
    const void *st = me_batch_state(b, i);
    int na = b->dims.num_actions;
    uint8_t *legal = b->legal + (size_t)i * na;
    uint8_t *mask = b->out.action_mask + (size_t)i * na;
    float *obs = b->out.observation + (size_t)i * b->dims.obs_size;
    if (ended) {
        b->out.current_player[i] = -1;
        memset(legal, 0, (size_t)na);
        b->num_legal[i] = 0;
        b->game->observe(st, b->last_mover[i], obs);
    } else {
        int p = b->game->current_player(st);
        b->out.current_player[i] = p;
        b->num_legal[i] = b->game->legal_mask(st, legal);
        b->game->observe(st, p, obs);
    }
    memcpy(mask, legal, (size_t)na);
}

static void me_start_game(me_batch *b, int i) {
    uint64_t n = (uint64_t)b->num_envs;
    uint64_t game_seed = b->seed + (uint64_t)i + (uint64_t)b->game_index[i] * n;
    b->game->init(me_batch_state(b, i), &b->cfg, game_seed);
    b->steps[i] = 0;
    b->ended[i] = 0;
    b->last_mover[i] = -1;
    int np = b->num_players;
    memset(b->out.rewards + (size_t)i * np, 0, sizeof(float) * (size_t)np);
    b->out.terminated[i] = 0;
    b->out.truncated[i] = 0;
    me_write_view(b, i, 0);
}

static void me_reset_range(me_batch *b, int lo, int hi, const void *arg) {
    (void)arg;
    for (int i = lo; i < hi; i++) {
        b->game_index[i] = 0;
        me_rng_seed(&b->sample_rng[i], b->seed ^ (UINT64_C(0xD1B54A32D192ED03) * ((uint64_t)i + 1)));
        me_start_game(b, i);
    }
}

static void me_step_range(me_batch *b, int lo, int hi, const void *arg) {
    const int64_t *actions = arg;
    int np = b->num_players;
    for (int i = lo; i < hi; i++) {
        if (b->active && !b->active[i]) continue;
        if (b->ended[i]) {
            b->game_index[i]++;
            me_start_game(b, i);
            continue;
        }
        void *st = me_batch_state(b, i);
        double *before = b->scratch + (size_t)i * 2 * np, *after = before + np;
        float *rewards = b->out.rewards + (size_t)i * np;
        b->game->returns(st, before);
        b->last_mover[i] = b->game->current_player(st);
        b->game->apply(st, (int)actions[i]);
        b->steps[i]++;
        int over = b->game->current_player(st) < 0;
        int truncated = !over && b->steps[i] >= b->max_steps;
        if (truncated) {
            /* As the AEC env: a truncated step pays nothing, even to a seat it put out. */
            memset(rewards, 0, sizeof(float) * (size_t)np);
        } else {
            b->game->returns(st, after);
            for (int p = 0; p < np; p++) rewards[p] = (float)(after[p] - before[p]);
        }
        b->out.terminated[i] = (uint8_t)over;
        b->out.truncated[i] = (uint8_t)truncated;
        b->ended[i] = (uint8_t)(over || truncated);
        me_write_view(b, i, b->ended[i]);
    }
}

static void me_sample_range(me_batch *b, int lo, int hi, const void *arg) {
    int64_t *out = (int64_t *)arg;
    int na = b->dims.num_actions;
    for (int i = lo; i < hi; i++) {
        const uint8_t *legal = b->legal + (size_t)i * na;
        int count = b->num_legal[i];
        out[i] = 0;
        if (count == 0) continue; /* an ending step: the next step ignores the action */
        int k = (int)me_rng_below(&b->sample_rng[i], (uint64_t)count);
        /* Skip 8 mask bytes at a time: each is 0 or 1, so the multiply sums a word's legal actions
         * into its top byte (this scan was a third of a small game's sample-and-step). */
        int a = 0;
        for (; a + 8 <= na; a += 8) {
            uint64_t w;
            memcpy(&w, legal + a, sizeof w);
            int c = (int)((w * UINT64_C(0x0101010101010101)) >> 56);
            if (k < c) break;
            k -= c;
        }
        for (; a < na; a++) {
            if (legal[a] && k-- == 0) {
                out[i] = a;
                break;
            }
        }
    }
}

typedef struct {
    int seat;
    float *out;
} me_observe_arg;

static void me_observe_range(me_batch *b, int lo, int hi, const void *arg) {
    const me_observe_arg *o = arg;
    for (int i = lo; i < hi; i++)
        b->game->observe(me_batch_state(b, i), o->seat, o->out + (size_t)i * b->dims.obs_size);
}

static void me_privileged_range(me_batch *b, int lo, int hi, const void *arg) {
    float *out = (float *)arg;
    for (int i = lo; i < hi; i++)
        b->game->privileged(me_batch_state(b, i), out + (size_t)i * b->dims.privileged_size);
}

/* -- the public functions ------------------------------------------------------------------- */

int me_batch_init(me_batch *b, const me_game *game, const me_config *cfg, int num_envs, uint64_t seed,
                  int64_t max_steps, int num_threads, me_outputs out, char *err, size_t errlen) {
    memset(b, 0, sizeof *b);
    if (game->dims(cfg, &b->dims, err, errlen) != 0) return -1;
    b->game = game; /* from here on me_batch_free tears the pool's locks down */
    b->cfg = *cfg;
    me_pool *pool = &b->pool;
    atomic_init(&pool->generation, 0);
    atomic_init(&pool->pending, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->waiting, 0);
    atomic_init(&pool->stop, 0);
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->done, NULL);
    b->num_envs = num_envs;
    b->num_players = cfg->num_players;
    b->seed = seed;
    b->max_steps = max_steps;
    b->out = out;
    size_t n = (size_t)num_envs, np = (size_t)cfg->num_players;
    b->states = calloc(n, b->dims.state_size);
    b->legal = calloc(n, (size_t)b->dims.num_actions);
    b->num_legal = calloc(n, sizeof(int32_t));
    b->game_index = calloc(n, sizeof(int64_t));
    b->steps = calloc(n, sizeof(int64_t));
    b->last_mover = calloc(n, sizeof(int32_t));
    b->ended = calloc(n, 1);
    b->scratch = calloc(n * 2 * np, sizeof(double));
    b->sample_rng = calloc(n, sizeof(me_rng));
    if (!b->states || !b->legal || !b->num_legal || !b->game_index || !b->steps || !b->last_mover || !b->ended ||
        !b->scratch || !b->sample_rng) {
        snprintf(err, errlen, "out of memory for %d games", num_envs);
        me_batch_free(b);
        return -1;
    }
    int workers = num_threads - 1;
    if (workers > num_envs - 1) workers = num_envs - 1 > 0 ? num_envs - 1 : 0;
    if (workers > 0) {
        pool->threads = calloc((size_t)workers, sizeof(pthread_t));
        if (!pool->threads) {
            snprintf(err, errlen, "out of memory for %d threads", num_threads);
            me_batch_free(b);
            return -1;
        }
        for (int t = 0; t < workers; t++) {
            me_worker *w = malloc(sizeof *w);
            if (w) {
                w->b = b;
                w->index = t + 1;
            }
            if (!w || pthread_create(&pool->threads[t], NULL, me_worker_main, w) != 0) {
                free(w);
                snprintf(err, errlen, "could not start thread %d of %d", t + 2, num_threads);
                me_batch_free(b);
                return -1;
            }
            pool->num_threads = t + 1;
        }
    }
    return 0;
}

void me_batch_free(me_batch *b) {
    me_pool *pool = &b->pool;
    if (pool->num_threads > 0) {
        pthread_mutex_lock(&pool->mu);
        atomic_store(&pool->stop, 1);
        pthread_cond_broadcast(&pool->work);
        pthread_mutex_unlock(&pool->mu);
        for (int t = 0; t < pool->num_threads; t++) pthread_join(pool->threads[t], NULL);
        pool->num_threads = 0;
    }
    if (b->game) {
        pthread_mutex_destroy(&pool->mu);
        pthread_cond_destroy(&pool->work);
        pthread_cond_destroy(&pool->done);
    }
    free(pool->threads);
    free(b->states);
    free(b->legal);
    free(b->num_legal);
    free(b->game_index);
    free(b->steps);
    free(b->last_mover);
    free(b->ended);
    free(b->scratch);
    free(b->sample_rng);
    memset(b, 0, sizeof *b);
}

void me_batch_reset(me_batch *b) { me_run(b, me_reset_range, NULL); }

typedef struct {
    const int64_t *actions;
    atomic_int first_bad; /* the lowest bad env any part found, INT_MAX for none */
} me_check_arg;

static void me_check_range(me_batch *b, int lo, int hi, const void *arg) {
    me_check_arg *c = (me_check_arg *)arg;
    int na = b->dims.num_actions;
    for (int i = lo; i < hi; i++) {
        if (b->ended[i] || (b->active && !b->active[i])) continue;
        int64_t a = c->actions[i];
        if (a < 0 || a >= na || !b->legal[(size_t)i * na + (size_t)a]) {
            int seen = atomic_load(&c->first_bad);
            while (i < seen && !atomic_compare_exchange_weak(&c->first_bad, &seen, i)) {
            }
            return;
        }
    }
}

/* Each thread checks the envs it steps: their masks were written on its core, and reading them all
 * from the caller's cost more than a second hand-over (two threads stepped a batch of 1,024
 * Elemystic games only 1.3x faster than one with the check on the caller). */
int me_batch_check(me_batch *b, const int64_t *actions) {
    me_check_arg c = {.actions = actions};
    atomic_init(&c.first_bad, INT_MAX);
    me_run(b, me_check_range, &c);
    int bad = atomic_load(&c.first_bad);
    return bad == INT_MAX ? -1 : bad;
}

void me_batch_step(me_batch *b, const int64_t *actions) { me_run(b, me_step_range, actions); }

void me_batch_sample(me_batch *b, int64_t *out) { me_run(b, me_sample_range, out); }

void me_batch_observe(me_batch *b, int seat, float *out) {
    me_observe_arg arg = {seat, out};
    me_run(b, me_observe_range, &arg);
}

void me_batch_privileged(me_batch *b, float *out) { me_run(b, me_privileged_range, out); }
