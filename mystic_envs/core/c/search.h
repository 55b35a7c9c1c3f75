/* Information-set MCTS over any twin (game.h): the search of agents/mcts.py, run in C.
 *
 * The same algorithm and constants as MCTSAgent's Python search (read its module docstring):
 * single-observer ISMCTS, one fresh determinization of the root per iteration, children legal in
 * that determinization only, one untried action expanded uniformly at random, UCB1 with the
 * child's availability count in place of its parent's visits, a uniform random rollout, and each
 * node adding the return of the seat that moved into it. The caller (module.c) checks every
 * argument before the call. */
#ifndef MYSTIC_SEARCH_H
#define MYSTIC_SEARCH_H

#include "game.h"

typedef struct {
    int64_t simulations;   /* iterations, >= 1 */
    double c;              /* UCB exploration constant, >= 0 */
    int64_t rollout_depth; /* moves of a rollout before returns() is read; -1: to the end */
    double time_budget;    /* seconds; < 0: none. At least one iteration always runs. */
    uint64_t seed;         /* every draw (re-deal seeds, expansions, rollouts) comes from it */
} me_search_args;

/* Searches from `root` (the true state, game not over) for `seat`, which sees only what
 * game->determinize(.., seat, ..) leaves it. Writes each root action's visit count into
 * visits[num_actions] (0 for actions never expanded) and returns the iterations run, or -1 when
 * memory ran out. */
int64_t me_search(const me_game *game, const me_dims *dims, const void *root, int seat, const me_search_args *args,
                  int64_t *visits);

#endif
