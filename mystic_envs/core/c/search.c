/* Information-set MCTS over any twin: see search.h. The tree lives in one array of nodes (an
 * iteration adds at most one, so simulations + 1 bound it); a node's children form a list
 * threaded through the array, mapped to actions in a scratch table while a node is passed. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int32_t player;       /* the seat whose move led here: `value` sums that seat's returns */
    int32_t action;       /* the move that led here */
    int32_t first_child;  /* -1: none */
    int32_t next_sibling; /* -1: last */
    int64_t visits;
    int64_t avail; /* iterations in which this action was legal when its parent was passed */
    double value;
} me_node;

static double me_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Both arrays resized to `capacity` entries: 1, or 0 (the old ones kept) when memory ran out. */
static int grow(me_node **nodes, int32_t **path, int64_t capacity) {
    me_node *n = realloc(*nodes, sizeof(me_node) * (size_t)capacity);
    if (!n) return 0;
    *nodes = n;
    int32_t *p = realloc(*path, sizeof(int32_t) * (size_t)capacity);
    if (!p) return 0;
    *path = p;
    return 1;
}

/* How many of the 8 mask entries at mask[a] are legal: a mask holds only 0 and 1 (game.h), so the
 * bytes of one word sum without a carry. Masks are scanned a word at a time because the random
 * rollout's scan for its action was most of the search's own time. */
static int me_legal_in_word(const uint8_t *mask, int a) {
    uint64_t w;
    memcpy(&w, mask + a, sizeof w);
    return (int)((w * UINT64_C(0x0101010101010101)) >> 56);
}

/* The legal actions of the mover, ascending, into legal[]; returns how many. */
static int me_legal_list(const me_game *game, const void *st, uint8_t *mask, int num_actions, int32_t *legal) {
    int count = game->legal_mask(st, mask), k = 0, a = 0;
    for (; k < count && a + 8 <= num_actions; a += 8)
        if (me_legal_in_word(mask, a))
            for (int b = a; b < a + 8; b++)
                if (mask[b]) legal[k++] = b;
    for (; k < count && a < num_actions; a++)
        if (mask[a]) legal[k++] = a;
    return k;
}

/* The j-th legal action (from 0, ascending) of a mask with more than j legal actions. */
static int me_nth_legal(const uint8_t *mask, int num_actions, int j) {
    int a = 0;
    for (; a + 8 <= num_actions; a += 8) {
        int c = me_legal_in_word(mask, a);
        if (j < c) break;
        j -= c;
    }
    for (;; a++)
        if (mask[a] && j-- == 0) return a;
}

int64_t me_search(const me_game *game, const me_dims *dims, const void *root, int seat, const me_search_args *args,
                  int64_t *visits) {
    const int A = dims->num_actions;
    /* Grown by doubling: a time budget may stop the search long before `simulations`. */
    int64_t capacity = args->simulations < 4095 ? args->simulations + 1 : 4096;
    me_node *nodes = malloc(sizeof(me_node) * (size_t)capacity);
    int32_t *path = malloc(sizeof(int32_t) * (size_t)capacity); /* a walk is never longer than the tree */
    int32_t *slot = malloc(sizeof(int32_t) * (size_t)A); /* action -> child index while a node is passed */
    int32_t *legal = malloc(sizeof(int32_t) * (size_t)A);
    int32_t *untried = malloc(sizeof(int32_t) * (size_t)A);
    uint8_t *mask = malloc((size_t)A);
    void *st = malloc(dims->state_size);
    double ret[ME_MAX_PLAYERS];
    int64_t done = -1;
    if (!nodes || !path || !slot || !legal || !untried || !mask || !st) goto out;
    for (int a = 0; a < A; a++) slot[a] = -1;

    me_rng rng;
    me_rng_seed(&rng, args->seed);
    nodes[0] = (me_node){.player = seat, .action = -1, .first_child = -1, .next_sibling = -1, .avail = 1};
    int32_t used = 1;
    const double deadline = args->time_budget < 0 ? 0 : me_seconds() + args->time_budget;

    for (done = 0; done < args->simulations; done++) {
        if (args->time_budget >= 0 && done > 0 && me_seconds() >= deadline) break;
        if (used == capacity) {
            if (capacity > INT32_MAX / 2 || !grow(&nodes, &path, capacity * 2)) {
                done = -1;
                goto out;
            }
            capacity *= 2;
        }
        memcpy(st, root, dims->state_size);
        game->determinize(st, seat, me_rng_next(&rng) >> 1); /* as numpy's integers(2**63) */
        int32_t node = 0;
        int depth = 0;
        while (game->current_player(st) >= 0) {
            int n = me_legal_list(game, st, mask, A, legal);
            for (int32_t ch = nodes[node].first_child; ch >= 0; ch = nodes[ch].next_sibling)
                slot[nodes[ch].action] = ch;
            int k = 0;
            for (int i = 0; i < n; i++)
                if (slot[legal[i]] < 0) untried[k++] = legal[i];
            int32_t next;
            int action;
            if (k > 0) {
                action = untried[me_rng_below(&rng, (uint64_t)k)];
                next = used++;
                nodes[next] = (me_node){.player = game->current_player(st),
                                        .action = action,
                                        .first_child = -1,
                                        .next_sibling = nodes[node].first_child,
                                        .avail = 1};
                nodes[node].first_child = next;
            } else {
                /* Ties keep the first action in ascending order, as the Python loop does. */
                next = slot[legal[0]];
                double best = -INFINITY;
                for (int i = 0; i < n; i++) {
                    me_node *child = &nodes[slot[legal[i]]];
                    double v = (double)child->visits;
                    double score = child->value / v + args->c * sqrt(log((double)child->avail) / v);
                    child->avail++;
                    if (score > best) {
                        best = score;
                        next = slot[legal[i]];
                    }
                }
                action = nodes[next].action;
            }
            for (int32_t ch = nodes[node].first_child; ch >= 0; ch = nodes[ch].next_sibling)
                slot[nodes[ch].action] = -1;
            game->apply(st, action);
            path[depth++] = next;
            node = next;
            if (k > 0) break;
        }
        for (int64_t steps = args->rollout_depth; steps != 0 && game->current_player(st) >= 0; steps--) {
            int count = game->legal_mask(st, mask);
            game->apply(st, me_nth_legal(mask, A, (int)me_rng_below(&rng, (uint64_t)count)));
        }
        game->returns(st, ret);
        for (int i = 0; i < depth; i++) {
            nodes[path[i]].visits++;
            nodes[path[i]].value += ret[nodes[path[i]].player];
        }
    }
    memset(visits, 0, sizeof(int64_t) * (size_t)A);
    for (int32_t ch = nodes[0].first_child; ch >= 0; ch = nodes[ch].next_sibling)
        visits[nodes[ch].action] = nodes[ch].visits;
out:
    free(nodes);
    free(path);
    free(slot);
    free(legal);
    free(untried);
    free(mask);
    free(st);
    return done;
}
