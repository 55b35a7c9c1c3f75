/* The one generator of chance, in C: the twin of mystic_envs/core/rng.py (read its docstring).
 * SplitMix64 outputs; below(n) is Lemire's multiply-and-shift on the top 32 bits with rejection;
 * shuffles are Fisher-Yates from the last position down; sample is the forward partial shuffle. */
#ifndef MYSTIC_RNG_H
#define MYSTIC_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} me_rng;

static inline void me_rng_seed(me_rng *r, uint64_t seed) { r->state = seed; }

static inline uint64_t me_rng_next(me_rng *r) {
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A uniform integer in [0, n), 1 <= n <= 2^32. */
static inline uint32_t me_rng_below(me_rng *r, uint64_t n) {
    uint64_t m = (me_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)((UINT64_C(0x100000000) - n) % n);
        while (low < threshold) {
            m = (me_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static inline double me_rng_random(me_rng *r) {
    return (double)(me_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Fisher-Yates, last position first: the order of Rng.shuffle. */
static inline void me_rng_shuffle_int(me_rng *r, int *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)me_rng_below(r, (uint64_t)i + 1);
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

static inline void me_rng_shuffle_i8(me_rng *r, int8_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)me_rng_below(r, (uint64_t)i + 1);
        int8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* range(n) shuffled into out[0..n). */
static inline void me_rng_permutation(me_rng *r, int *out, int n) {
    for (int i = 0; i < n; i++) out[i] = i;
    me_rng_shuffle_int(r, out, n);
}

/* k distinct integers of range(n) in draw order into out[0..k); scratch holds n ints. */
static inline void me_rng_sample(me_rng *r, int n, int k, int *scratch, int *out) {
    for (int i = 0; i < n; i++) scratch[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)me_rng_below(r, (uint64_t)(n - i));
        int t = scratch[i];
        scratch[i] = scratch[j];
        scratch[j] = t;
        out[i] = scratch[i];
    }
}

#endif
