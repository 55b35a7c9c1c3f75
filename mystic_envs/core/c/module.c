/* mystic_envs.core._core: the Python glue over the twins (game.h) and the batch driver (batch.h).
 *
 * Every input is checked here, before any twin function sees it: game names, player counts and
 * options (the twin's dims()), seats, actions (range and legality against the driver's own masks),
 * and every buffer's writability, item size and length. Python-facing wrappers live in
 * mystic_envs/core/compiled.py and mystic_envs/vector.py; this module stays small and generic. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <string.h>

#include "batch.h"
#include "search.h"

#ifdef ME_HAVE_ELEMYSTIC
extern const me_game me_elemystic;
#endif
#ifdef ME_HAVE_MYSTRIA
extern const me_game me_mystria;
#endif
#ifdef ME_HAVE_TAROT_DICE
extern const me_game me_tarot_dice;
#endif
#ifdef ME_HAVE_MYSTICK_DOMINATION
extern const me_game me_mystick_domination;
#endif
#ifdef ME_HAVE_MYSTIC_VALE
extern const me_game me_mystic_vale;
#endif

static const me_game *const GAMES[] = {
#ifdef ME_HAVE_ELEMYSTIC
    &me_elemystic,
#endif
#ifdef ME_HAVE_MYSTRIA
    &me_mystria,
#endif
#ifdef ME_HAVE_TAROT_DICE
    &me_tarot_dice,
#endif
#ifdef ME_HAVE_MYSTICK_DOMINATION
    &me_mystick_domination,
#endif
#ifdef ME_HAVE_MYSTIC_VALE
    &me_mystic_vale,
#endif
    NULL,
};
#define NUM_GAMES ((int)(sizeof GAMES / sizeof GAMES[0]) - 1)
/* Masks of a single state live on the stack: twins keep their action spaces below this. */
#define ME_MAX_ACTIONS 8192

static int tables_loaded[NUM_GAMES + 1];
static PyObject *illegal_action_error;

/* -- checks --------------------------------------------------------------------------------- */

static int find_game(const char *name) {
    for (int g = 0; g < NUM_GAMES; g++)
        if (strcmp(GAMES[g]->name, name) == 0) return g;
    PyErr_Format(PyExc_ValueError, "the compiled core has no twin named %R", PyUnicode_FromString(name));
    return -1;
}

/* The game, its config and dims from (name, num_players, options): 0, or -1 with an exception. */
static int make_config(const char *name, int num_players, PyObject *options, const me_game **game,
                       me_config *cfg, me_dims *dims) {
    int g = find_game(name);
    if (g < 0) return -1;
    if (!tables_loaded[g]) {
        PyErr_Format(PyExc_RuntimeError, "the tables of twin %s are not loaded (use mystic_envs.core.compiled)",
                     name);
        return -1;
    }
    memset(cfg, 0, sizeof *cfg);
    if (num_players < 1 || num_players > ME_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "num_players must be 1-%d, got %d", ME_MAX_PLAYERS, num_players);
        return -1;
    }
    cfg->num_players = num_players;
    PyObject *seq = PySequence_Fast(options, "options must be a sequence of ints");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > ME_MAX_OPTIONS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d options, got %zd", ME_MAX_OPTIONS, n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(PySequence_Fast_GET_ITEM(seq, k), &overflow);
        if ((v == -1 && PyErr_Occurred()) || overflow || v < INT32_MIN || v > INT32_MAX) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "option %zd is out of range", k);
            return -1;
        }
        cfg->options[k] = (int)v;
    }
    Py_DECREF(seq);
    char err[256] = "";
    if (GAMES[g]->dims(cfg, dims, err, sizeof err) != 0) {
        PyErr_SetString(PyExc_ValueError, err[0] ? err : "invalid configuration");
        return -1;
    }
    if (dims->num_actions < 1 || dims->num_actions > ME_MAX_ACTIONS || dims->obs_size < 1 ||
        dims->privileged_size < 1 || dims->info_size < 1 || dims->state_size < 1) {
        PyErr_Format(PyExc_SystemError, "twin %s reports impossible dims", name);
        return -1;
    }
    *game = GAMES[g];
    return 0;
}

/* A buffer of exactly `count` items of `itemsize` bytes, C-contiguous (writable if asked). */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize, Py_ssize_t count,
                      const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a %sC-contiguous array", what, writable ? "writable " : "");
        return -1;
    }
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes, got %zd bytes of %zd-byte items",
                     what, count, itemsize, view->len, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int check_seat(int seat, int num_players) {
    if (seat < 0 || seat >= num_players) {
        PyErr_Format(PyExc_ValueError, "seat must be 0-%d, got %d", num_players - 1, seat);
        return -1;
    }
    return 0;
}

/* -- State: one game ------------------------------------------------------------------------ */

typedef struct {
    PyObject_VAR_HEAD const me_game *game;
    me_config cfg;
    me_dims dims;
    _Alignas(max_align_t) unsigned char data[];
} StateObject;

static PyTypeObject StateType;

static StateObject *state_alloc(const me_game *game, const me_config *cfg, const me_dims *dims) {
    StateObject *s = PyObject_NewVar(StateObject, &StateType, (Py_ssize_t)dims->state_size);
    if (!s) return NULL;
    s->game = game;
    s->cfg = *cfg;
    s->dims = *dims;
    return s;
}

static StateObject *state_copy(const StateObject *src) {
    StateObject *s = state_alloc(src->game, &src->cfg, &src->dims);
    if (s) memcpy(s->data, src->data, src->dims.state_size);
    return s;
}

static PyObject *State_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)type;
    static char *names[] = {"name", "num_players", "options", "seed", NULL};
    const char *name;
    int num_players;
    PyObject *options;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "siOK", names, &name, &num_players, &options, &seed))
        return NULL;
    const me_game *game = NULL;
    me_config cfg = {0};
    me_dims dims = {0};
    if (make_config(name, num_players, options, &game, &cfg, &dims) != 0) return NULL;
    StateObject *s = state_alloc(game, &cfg, &dims);
    if (!s) return NULL;
    memset(s->data, 0, dims.state_size);
    game->init(s->data, &cfg, (uint64_t)seed);
    return (PyObject *)s;
}

static PyObject *State_to_bytes(StateObject *s, PyObject *unused) {
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)s->data, (Py_ssize_t)s->dims.state_size);
}

static PyObject *State_current_player(StateObject *s, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(s->game->current_player(s->data));
}

static PyObject *State_legal_actions(StateObject *s, PyObject *unused) {
    (void)unused;
    uint8_t mask[ME_MAX_ACTIONS];
    int count = s->game->current_player(s->data) < 0 ? 0 : s->game->legal_mask(s->data, mask);
    PyObject *out = PyList_New(count);
    if (!out || count == 0) return out;
    for (int a = 0, k = 0; a < s->dims.num_actions && k < count; a++) {
        if (!mask[a]) continue;
        PyObject *v = PyLong_FromLong(a);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k++, v);
    }
    return out;
}

static PyObject *State_legal_mask(StateObject *s, PyObject *buf) {
    Py_buffer view;
    if (get_buffer(buf, &view, 1, 1, s->dims.num_actions, "mask") != 0) return NULL;
    int count = 0;
    if (s->game->current_player(s->data) < 0)
        memset(view.buf, 0, (size_t)s->dims.num_actions);
    else
        count = s->game->legal_mask(s->data, view.buf);
    PyBuffer_Release(&view);
    return PyLong_FromLong(count);
}

static int state_is_legal(StateObject *s, long a) {
    if (a < 0 || a >= s->dims.num_actions || s->game->current_player(s->data) < 0) return 0;
    uint8_t mask[ME_MAX_ACTIONS];
    s->game->legal_mask(s->data, mask);
    return mask[a] != 0;
}

static PyObject *State_is_legal(StateObject *s, PyObject *arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    return PyBool_FromLong(state_is_legal(s, a));
}

/* Plays `a` if it is legal and returns True; otherwise leaves the state alone and returns False. */
static PyObject *State_apply(StateObject *s, PyObject *arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (!state_is_legal(s, a)) Py_RETURN_FALSE;
    s->game->apply(s->data, (int)a);
    Py_RETURN_TRUE;
}

static PyObject *State_observe(StateObject *s, PyObject *args) {
    int seat;
    PyObject *buf;
    if (!PyArg_ParseTuple(args, "iO", &seat, &buf)) return NULL;
    if (check_seat(seat, s->cfg.num_players) != 0) return NULL;
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(float), s->dims.obs_size, "observation") != 0) return NULL;
    s->game->observe(s->data, seat, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_privileged(StateObject *s, PyObject *buf) {
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(float), s->dims.privileged_size, "privileged view") != 0) return NULL;
    s->game->privileged(s->data, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_returns(StateObject *s, PyObject *buf) {
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(double), s->cfg.num_players, "returns") != 0) return NULL;
    s->game->returns(s->data, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_info(StateObject *s, PyObject *buf) {
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(double), s->dims.info_size, "info") != 0) return NULL;
    s->game->info(s->data, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_player_done(StateObject *s, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (check_seat((int)seat, s->cfg.num_players) != 0) return NULL;
    return PyBool_FromLong(s->game->player_done(s->data, (int)seat));
}

static PyObject *State_clone(StateObject *s, PyObject *unused) {
    (void)unused;
    return (PyObject *)state_copy(s);
}

static PyObject *State_determinize(StateObject *s, PyObject *args) {
    int seat;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iK", &seat, &seed)) return NULL;
    if (check_seat(seat, s->cfg.num_players) != 0) return NULL;
    StateObject *c = state_copy(s);
    if (c) c->game->determinize(c->data, seat, (uint64_t)seed);
    return (PyObject *)c;
}

/* Uniform random legal moves until the game ends, from a generator seeded `seed`: the playouts
 * of search agents without a Python call per move. Returns the number of moves played. */
static PyObject *State_rollout(StateObject *s, PyObject *args) {
    unsigned long long seed;
    long long max_moves;
    if (!PyArg_ParseTuple(args, "KL", &seed, &max_moves)) return NULL;
    me_rng rng;
    me_rng_seed(&rng, (uint64_t)seed);
    uint8_t mask[ME_MAX_ACTIONS];
    long long moves = 0;
    Py_BEGIN_ALLOW_THREADS;
    while (moves < max_moves && s->game->current_player(s->data) >= 0) {
        int count = s->game->legal_mask(s->data, mask);
        int k = (int)me_rng_below(&rng, (uint64_t)count);
        int a = 0;
        for (;; a++)
            if (mask[a] && k-- == 0) break;
        s->game->apply(s->data, a);
        moves++;
    }
    Py_END_ALLOW_THREADS;
    return PyLong_FromLongLong(moves);
}

/* search(seat, simulations, c, rollout_depth, time_budget, seed, visits int64[num_actions]) ->
 * iterations run: agents/mcts.py's search in C (search.h); every argument is checked here. */
static PyObject *State_search(StateObject *s, PyObject *args) {
    int seat;
    long long simulations, rollout_depth;
    double c, time_budget;
    unsigned long long seed;
    PyObject *buf;
    if (!PyArg_ParseTuple(args, "iLdLdKO", &seat, &simulations, &c, &rollout_depth, &time_budget, &seed, &buf))
        return NULL;
    if (check_seat(seat, s->cfg.num_players) != 0) return NULL;
    if (s->game->current_player(s->data) < 0) {
        PyErr_SetString(PyExc_ValueError, "search: the game is over");
        return NULL;
    }
    if (simulations < 1) {
        PyErr_Format(PyExc_ValueError, "search: simulations must be >= 1, got %lld", simulations);
        return NULL;
    }
    if (!(c >= 0) || isinf(c)) {
        PyErr_Format(PyExc_ValueError, "search: c must be a finite number >= 0, got %R", PyTuple_GET_ITEM(args, 2));
        return NULL;
    }
    if (rollout_depth < -1) {
        PyErr_Format(PyExc_ValueError, "search: rollout_depth must be >= 0 (or -1: to the end), got %lld",
                     rollout_depth);
        return NULL;
    }
    if (isnan(time_budget)) {
        PyErr_SetString(PyExc_ValueError, "search: time_budget must be a number of seconds (< 0: none), got nan");
        return NULL;
    }
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(int64_t), s->dims.num_actions, "visits") != 0) return NULL;
    /* The search reads a private copy of the root, so that it may run without the GIL. */
    StateObject *root = state_copy(s);
    if (!root) {
        PyBuffer_Release(&view);
        return NULL;
    }
    me_search_args a = {.simulations = simulations, .c = c, .rollout_depth = rollout_depth,
                        .time_budget = time_budget, .seed = (uint64_t)seed};
    int64_t done;
    Py_BEGIN_ALLOW_THREADS;
    done = me_search(root->game, &root->dims, root->data, seat, &a, view.buf);
    Py_END_ALLOW_THREADS;
    Py_DECREF(root);
    PyBuffer_Release(&view);
    if (done < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(done);
}

static PyObject *State_get_dims(StateObject *s, void *closure) {
    (void)closure;
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:n,s:i}", "num_actions", s->dims.num_actions, "obs_size",
                         s->dims.obs_size, "privileged_size", s->dims.privileged_size, "info_size",
                         s->dims.info_size, "state_size", (Py_ssize_t)s->dims.state_size, "num_players",
                         s->cfg.num_players);
}

static PyMethodDef State_methods[] = {
    {"to_bytes", (PyCFunction)State_to_bytes, METH_NOARGS, "the state's bytes (read only: nothing turns bytes back into a state)"},
    {"current_player", (PyCFunction)State_current_player, METH_NOARGS, "the seat to act, -1 once over"},
    {"legal_actions", (PyCFunction)State_legal_actions, METH_NOARGS, "legal actions, ascending"},
    {"legal_mask", (PyCFunction)State_legal_mask, METH_O, "legal_mask(out uint8[num_actions]) -> count"},
    {"is_legal", (PyCFunction)State_is_legal, METH_O, "is_legal(action) -> bool"},
    {"apply", (PyCFunction)State_apply, METH_O, "apply(action) -> False if illegal (state unchanged)"},
    {"observe", (PyCFunction)State_observe, METH_VARARGS, "observe(seat, out float32[obs_size])"},
    {"privileged", (PyCFunction)State_privileged, METH_O, "privileged(out float32[privileged_size])"},
    {"returns", (PyCFunction)State_returns, METH_O, "returns(out float64[num_players])"},
    {"info", (PyCFunction)State_info, METH_O, "info(out float64[info_size])"},
    {"player_done", (PyCFunction)State_player_done, METH_O, "player_done(seat) -> bool"},
    {"clone", (PyCFunction)State_clone, METH_NOARGS, "a copy"},
    {"determinize", (PyCFunction)State_determinize, METH_VARARGS, "determinize(seat, seed) -> a re-dealt copy"},
    {"rollout", (PyCFunction)State_rollout, METH_VARARGS, "rollout(seed, max_moves) -> moves played"},
    {"search", (PyCFunction)State_search, METH_VARARGS,
     "search(seat, simulations, c, rollout_depth, time_budget, seed, out int64[num_actions]) -> iterations"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef State_getset[] = {
    {"dims", (getter)State_get_dims, NULL, "sizes of this game's arrays", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mystic_envs.core._core.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_itemsize = 1,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game on a compiled twin (wrapped by mystic_envs.core.compiled.CoreState).",
    .tp_new = State_new,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* -- Batch: N games ------------------------------------------------------------------------- */

#define NUM_OUTPUTS 6

/* The owner's hooks (VectorEnv): step and sample_legal are called straight from Python with no
 * Python frame in between (a frame costs as much as stepping one game), so the rare paths they need
 * call back: `convert` turns any other actions into an int64 array or raises the one-line error,
 * `bad_action(i, a)` words the error for env i's action a, `new_actions()` makes sample_legal's
 * array. They refer back to the owner, hence the garbage collector's support below. */
typedef struct {
    PyObject_HEAD me_batch b;
    int ready, busy, started;
    Py_buffer outputs[NUM_OUTPUTS];
    int held;
    PyObject *convert, *bad_action, *new_actions;
} BatchObject;

static int Batch_traverse(BatchObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->convert);
    Py_VISIT(self->bad_action);
    Py_VISIT(self->new_actions);
    return 0;
}

static int Batch_clear(BatchObject *self) {
    Py_CLEAR(self->convert);
    Py_CLEAR(self->bad_action);
    Py_CLEAR(self->new_actions);
    return 0;
}

static void Batch_dealloc(BatchObject *self) {
    PyObject_GC_UnTrack(self);
    Batch_clear(self);
    if (self->ready) me_batch_free(&self->b);
    for (int k = 0; k < self->held; k++) PyBuffer_Release(&self->outputs[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"name",        "num_players",    "options",     "num_envs",      "seed",
                            "max_steps",   "num_threads",    "current_player", "observation", "action_mask",
                            "rewards",     "terminated",     "truncated",   NULL};
    const char *name;
    int num_players, num_envs, num_threads;
    PyObject *options, *arrays[NUM_OUTPUTS];
    unsigned long long seed;
    long long max_steps;
    if (self->ready || self->held) {
        PyErr_SetString(PyExc_RuntimeError, "a Batch is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "siOiKLiOOOOOO", names, &name, &num_players, &options,
                                     &num_envs, &seed, &max_steps, &num_threads, &arrays[0], &arrays[1],
                                     &arrays[2], &arrays[3], &arrays[4], &arrays[5]))
        return -1;
    const me_game *game = NULL;
    me_config cfg = {0};
    me_dims dims = {0};
    if (make_config(name, num_players, options, &game, &cfg, &dims) != 0) return -1;
    if (num_envs < 1) {
        PyErr_Format(PyExc_ValueError, "num_envs must be >= 1, got %d", num_envs);
        return -1;
    }
    if (num_threads < 1 || num_threads > 256) {
        PyErr_Format(PyExc_ValueError, "num_threads must be 1-256, got %d", num_threads);
        return -1;
    }
    if (max_steps < 1) {
        PyErr_Format(PyExc_ValueError, "max_steps must be >= 1, got %lld", max_steps);
        return -1;
    }
    Py_ssize_t n = num_envs;
    const Py_ssize_t sizes[NUM_OUTPUTS][2] = {
        {sizeof(int32_t), n},  {sizeof(float), n * dims.obs_size}, {1, n * dims.num_actions},
        {sizeof(float), n * num_players}, {1, n}, {1, n},
    };
    static const char *what[NUM_OUTPUTS] = {"current_player", "observation", "action_mask",
                                            "rewards",        "terminated",  "truncated"};
    for (int k = 0; k < NUM_OUTPUTS; k++) {
        if (get_buffer(arrays[k], &self->outputs[k], 1, sizes[k][0], sizes[k][1], what[k]) != 0) return -1;
        self->held = k + 1;
    }
    me_outputs out = {self->outputs[0].buf, self->outputs[1].buf, self->outputs[2].buf,
                      self->outputs[3].buf, self->outputs[4].buf, self->outputs[5].buf};
    char err[256] = "";
    int rc;
    Py_BEGIN_ALLOW_THREADS;
    rc = me_batch_init(&self->b, game, &cfg, num_envs, (uint64_t)seed, max_steps, num_threads, out, err,
                       sizeof err);
    Py_END_ALLOW_THREADS;
    if (rc != 0) {
        PyErr_SetString(PyExc_MemoryError, err);
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int batch_enter(BatchObject *self) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch is not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the batch is busy in another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

/* reset(seed): every env's first game again, env i seeded seed + i from now on. */
static PyObject *Batch_reset(BatchObject *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (batch_enter(self) != 0) return NULL;
    self->b.seed = (uint64_t)seed;
    Py_BEGIN_ALLOW_THREADS;
    me_batch_reset(&self->b);
    Py_END_ALLOW_THREADS;
    self->started = 1;
    self->busy = 0;
    Py_RETURN_NONE;
}

/* hooks(convert, bad_action, new_actions): see BatchObject. */
static PyObject *Batch_hooks(BatchObject *self, PyObject *args) {
    PyObject *hooks[3];
    if (!PyArg_ParseTuple(args, "OOO", &hooks[0], &hooks[1], &hooks[2])) return NULL;
    for (int k = 0; k < 3; k++) {
        if (!PyCallable_Check(hooks[k])) {
            PyErr_SetString(PyExc_TypeError, "hooks(convert, bad_action, new_actions) takes three callables");
            return NULL;
        }
    }
    Py_XSETREF(self->convert, Py_NewRef(hooks[0]));
    Py_XSETREF(self->bad_action, Py_NewRef(hooks[1]));
    Py_XSETREF(self->new_actions, Py_NewRef(hooks[2]));
    Py_RETURN_NONE;
}

static int batch_started(BatchObject *self) {
    if (!self->started) {
        PyErr_SetString(PyExc_RuntimeError, "call reset() before using the batch");
        return -1;
    }
    if (!self->convert) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch has no hooks: make it with mystic_envs.vector.make");
        return -1;
    }
    return 0;
}

/* A native int64 C-contiguous buffer of num_envs items: 1 (view held), or 0 (no view, no error). */
static int int64_actions(BatchObject *self, PyObject *obj, Py_buffer *view, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) {
        PyErr_Clear();
        return 0;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=') f++;
    if (view->itemsize == 8 && (f[0] == 'l' || f[0] == 'q') && f[1] == '\0' &&
        view->len == (Py_ssize_t)self->b.num_envs * 8)
        return 1;
    PyBuffer_Release(view);
    return 0;
}

/* step(actions): steps every game, or raises the owner's error for the first env whose action is out
 * of range or illegal and steps none. Actions other than an int64 array of shape (N,) go through the
 * owner's convert hook first. */
static PyObject *Batch_step(BatchObject *self, PyObject *actions) {
    if (batch_started(self) != 0) return NULL;
    Py_buffer view;
    PyObject *converted = NULL;
    if (!int64_actions(self, actions, &view, 0)) {
        converted = PyObject_CallOneArg(self->convert, actions);
        if (!converted) return NULL;
        if (!int64_actions(self, converted, &view, 0)) {
            Py_DECREF(converted);
            PyErr_SetString(PyExc_SystemError, "the convert hook did not return int64 actions of shape (N,)");
            return NULL;
        }
    }
    if (batch_enter(self) != 0) {
        PyBuffer_Release(&view);
        Py_XDECREF(converted);
        return NULL;
    }
    const int64_t *a = view.buf;
    int bad = me_batch_check(&self->b, a);
    if (bad < 0) {
        Py_BEGIN_ALLOW_THREADS;
        me_batch_step(&self->b, a);
        Py_END_ALLOW_THREADS;
    }
    self->busy = 0;
    long long bad_action = bad >= 0 ? (long long)a[bad] : 0;
    PyBuffer_Release(&view);
    Py_XDECREF(converted);
    if (bad < 0) Py_RETURN_NONE;
    PyObject *exc = PyObject_CallFunction(self->bad_action, "iL", bad, bad_action);
    if (!exc) return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
}

/* step_active(actions, active): only the envs whose active byte is set step (or start their next
 * game); the others keep their game and their rows of every array (a learner's turn that waits
 * while other envs play their opponents' moves). */
static PyObject *Batch_step_active(BatchObject *self, PyObject *args) {
    PyObject *abuf, *mbuf;
    if (!PyArg_ParseTuple(args, "OO", &abuf, &mbuf)) return NULL;
    if (batch_enter(self) != 0) return NULL;
    Py_buffer view, active;
    if (get_buffer(abuf, &view, 0, sizeof(int64_t), self->b.num_envs, "actions") != 0) {
        self->busy = 0;
        return NULL;
    }
    if (get_buffer(mbuf, &active, 0, 1, self->b.num_envs, "active") != 0) {
        PyBuffer_Release(&view);
        self->busy = 0;
        return NULL;
    }
    self->b.active = active.buf;
    int bad = me_batch_check(&self->b, view.buf);
    if (bad < 0) {
        Py_BEGIN_ALLOW_THREADS;
        me_batch_step(&self->b, view.buf);
        Py_END_ALLOW_THREADS;
    }
    self->b.active = NULL;
    PyBuffer_Release(&active);
    PyBuffer_Release(&view);
    self->busy = 0;
    return PyLong_FromLong(bad);
}

/* sample_legal(out=None) -> out, filled with one uniform legal action per env (a new array from the
 * new_actions hook without out). */
static PyObject *Batch_sample_legal(BatchObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1 || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") != 0)) {
        PyErr_SetString(PyExc_TypeError, "sample_legal() takes one optional argument, out");
        return NULL;
    }
    if (batch_started(self) != 0) return NULL;
    PyObject *out = nargs + nkw ? args[0] : Py_None;
    if (out == Py_None) {
        out = PyObject_CallNoArgs(self->new_actions);
        if (!out) return NULL;
    } else {
        Py_INCREF(out);
    }
    Py_buffer view;
    if (!int64_actions(self, out, &view, 1)) {
        Py_DECREF(out);
        PyErr_Format(PyExc_TypeError, "out must be a writable int64 numpy array of shape (%d,)", self->b.num_envs);
        return NULL;
    }
    if (batch_enter(self) != 0) {
        PyBuffer_Release(&view);
        Py_DECREF(out);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    me_batch_sample(&self->b, view.buf);
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    PyBuffer_Release(&view);
    return out;
}

static PyObject *Batch_observe(BatchObject *self, PyObject *args) {
    int seat;
    PyObject *buf;
    if (!PyArg_ParseTuple(args, "iO", &seat, &buf)) return NULL;
    if (check_seat(seat, self->b.num_players) != 0 || batch_enter(self) != 0) return NULL;
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(float), (Py_ssize_t)self->b.num_envs * self->b.dims.obs_size,
                   "observation") != 0) {
        self->busy = 0;
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    me_batch_observe(&self->b, seat, view.buf);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&view);
    self->busy = 0;
    Py_RETURN_NONE;
}

static PyObject *Batch_privileged(BatchObject *self, PyObject *buf) {
    if (batch_enter(self) != 0) return NULL;
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(float),
                   (Py_ssize_t)self->b.num_envs * self->b.dims.privileged_size, "privileged view") != 0) {
        self->busy = 0;
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    me_batch_privileged(&self->b, view.buf);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&view);
    self->busy = 0;
    Py_RETURN_NONE;
}

static int check_env(BatchObject *self, int i) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch is not initialised");
        return -1;
    }
    if (i < 0 || i >= self->b.num_envs) {
        PyErr_Format(PyExc_IndexError, "env index must be 0-%d, got %d", self->b.num_envs - 1, i);
        return -1;
    }
    return 0;
}

static PyObject *Batch_state(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if ((i == -1 && PyErr_Occurred()) || check_env(self, i) != 0) return NULL;
    StateObject *s = state_alloc(self->b.game, &self->b.cfg, &self->b.dims);
    if (s) memcpy(s->data, me_batch_state(&self->b, i), self->b.dims.state_size);
    return (PyObject *)s;
}

/* (game index k, seed of the current game, actions played in it, the game ended at the last step) */
static PyObject *Batch_env_status(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if ((i == -1 && PyErr_Occurred()) || check_env(self, i) != 0) return NULL;
    const me_batch *b = &self->b;
    uint64_t seed = b->seed + (uint64_t)i + (uint64_t)b->game_index[i] * (uint64_t)b->num_envs;
    return Py_BuildValue("(LKLO)", (long long)b->game_index[i], (unsigned long long)seed,
                         (long long)b->steps[i], b->ended[i] ? Py_True : Py_False);
}

static PyObject *Batch_game_counts(BatchObject *self, PyObject *buf) {
    if (check_env(self, 0) != 0) return NULL;
    Py_buffer view;
    if (get_buffer(buf, &view, 1, sizeof(int64_t), self->b.num_envs, "counts") != 0) return NULL;
    int64_t *out = view.buf;
    for (int i = 0; i < self->b.num_envs; i++) out[i] = self->b.game_index[i] + 1;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *Batch_memory(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (check_env(self, 0) != 0) return NULL;
    const me_batch *b = &self->b;
    size_t np = (size_t)b->num_players;
    /* Bytes per game the driver holds, then what the arrays the caller owns take per game. */
    size_t driver = b->dims.state_size + (size_t)b->dims.num_actions + 2 * sizeof(int64_t) + 2 * sizeof(int32_t) +
                    1 + 2 * np * sizeof(double) + sizeof(me_rng);
    size_t arrays = sizeof(int32_t) + sizeof(float) * (size_t)b->dims.obs_size + (size_t)b->dims.num_actions +
                    sizeof(float) * np + 2;
    return Py_BuildValue("(nn)", (Py_ssize_t)driver, (Py_ssize_t)arrays);
}

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_O, "reset(seed): start every env's first game"},
    {"hooks", (PyCFunction)Batch_hooks, METH_VARARGS, "hooks(convert, bad_action, new_actions)"},
    {"step", (PyCFunction)Batch_step, METH_O, "step(actions): every env's action, checked"},
    {"step_active", (PyCFunction)Batch_step_active, METH_VARARGS,
     "step_active(actions int64[N], active uint8[N]) -> -1, or the first bad env; inactive envs stay"},
    {"sample_legal", (PyCFunction)(void (*)(void))Batch_sample_legal, METH_FASTCALL | METH_KEYWORDS,
     "sample_legal(out=None) -> out: uniform legal actions"},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "observe(seat, out float32[N, obs_size])"},
    {"privileged", (PyCFunction)Batch_privileged, METH_O, "privileged(out float32[N, privileged_size])"},
    {"state", (PyCFunction)Batch_state, METH_O, "state(i) -> a copy of env i's game as a State"},
    {"env_status", (PyCFunction)Batch_env_status, METH_O, "env_status(i) -> (k, seed, steps, ended)"},
    {"game_counts", (PyCFunction)Batch_game_counts, METH_O, "game_counts(out int64[N]): games started"},
    {"memory", (PyCFunction)Batch_memory, METH_NOARGS, "(driver bytes, array bytes) per game"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mystic_envs.core._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Batch_traverse,
    .tp_clear = (inquiry)Batch_clear,
    .tp_doc = "N games of one twin (wrapped by mystic_envs.vector.VectorEnv).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};

/* -- module functions ----------------------------------------------------------------------- */

static PyObject *core_games(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *out = PyTuple_New(NUM_GAMES);
    for (int g = 0; out && g < NUM_GAMES; g++) PyTuple_SET_ITEM(out, g, PyUnicode_FromString(GAMES[g]->name));
    return out;
}

/* Fills every table of a twin from {name: sequence of ints}: each exactly its length, no name
 * missing or unknown, every value a 32-bit int. Everything is checked before anything is written,
 * so a refused load leaves the twin as it was. */
static PyObject *core_load_tables(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *tables;
    if (!PyArg_ParseTuple(args, "sO!", &name, &PyDict_Type, &tables)) return NULL;
    int g = find_game(name);
    if (g < 0) return NULL;
    const me_game *game = GAMES[g];
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(tables, &pos, &key, &value)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        int known = 0;
        for (int t = 0; k && t < game->num_tables; t++) known |= strcmp(game->tables[t].name, k) == 0;
        if (!known) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "twin %s reads no table named %R", name, key);
            return NULL;
        }
    }
    size_t total = 0;
    for (int t = 0; t < game->num_tables; t++) total += (size_t)game->tables[t].len;
    int32_t *staged = PyMem_Malloc(sizeof(int32_t) * (total + 1));
    if (!staged) return PyErr_NoMemory();
    size_t at = 0;
    for (int t = 0; t < game->num_tables; t++) {
        const me_table *tab = &game->tables[t];
        PyObject *seq = PyDict_GetItemString(tables, tab->name);
        if (!seq) {
            PyErr_Format(PyExc_ValueError, "twin %s needs table %s", name, tab->name);
            goto fail;
        }
        PyObject *fast = PySequence_Fast(seq, "a table must be a sequence of ints");
        if (!fast) goto fail;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
        if (len != tab->len) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "table %s of twin %s holds %d values, got %zd", tab->name, name,
                         tab->len, len);
            goto fail;
        }
        for (Py_ssize_t k = 0; k < len; k++) {
            int overflow = 0;
            long v = PyLong_AsLongAndOverflow(PySequence_Fast_GET_ITEM(fast, k), &overflow);
            if ((v == -1 && PyErr_Occurred()) || overflow || v < INT32_MIN || v > INT32_MAX) {
                Py_DECREF(fast);
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "table %s[%zd] of twin %s is not a 32-bit int", tab->name, k,
                             name);
                goto fail;
            }
            staged[at++] = (int32_t)v;
        }
        Py_DECREF(fast);
    }
    at = 0;
    for (int t = 0; t < game->num_tables; t++) {
        memcpy(game->tables[t].dest, staged + at, sizeof(int32_t) * (size_t)game->tables[t].len);
        at += (size_t)game->tables[t].len;
    }
    PyMem_Free(staged);
    tables_loaded[g] = 1;
    Py_RETURN_NONE;
fail:
    PyMem_Free(staged);
    return NULL;
}

static PyObject *core_tables(PyObject *self, PyObject *arg) {
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    int g = find_game(name);
    if (g < 0) return NULL;
    PyObject *out = PyDict_New();
    for (int t = 0; out && t < GAMES[g]->num_tables; t++) {
        const me_table *tab = &GAMES[g]->tables[t];
        PyObject *list = PyList_New(tab->len);
        for (int k = 0; list && k < tab->len; k++) PyList_SET_ITEM(list, k, PyLong_FromLong(tab->dest[k]));
        if (!list || PyDict_SetItemString(out, tab->name, list) != 0) {
            Py_XDECREF(list);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(list);
    }
    return out;
}

static PyObject *core_dims(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    int num_players;
    PyObject *options;
    if (!PyArg_ParseTuple(args, "siO", &name, &num_players, &options)) return NULL;
    const me_game *game = NULL;
    me_config cfg = {0};
    me_dims dims = {0};
    if (make_config(name, num_players, options, &game, &cfg, &dims) != 0) return NULL;
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:n}", "num_actions", dims.num_actions, "obs_size", dims.obs_size,
                         "privileged_size", dims.privileged_size, "info_size", dims.info_size, "state_size",
                         (Py_ssize_t)dims.state_size);
}

/* The C generator's outputs, for the known-output table shared with mystic_envs/core/rng.py:
 * kind "u64" (count outputs), "below" (count values below n), "random" (count reals),
 * "permutation" (of n) or "sample" (count of n). */
static PyObject *core_rng(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long seed;
    const char *kind;
    long long n, count;
    if (!PyArg_ParseTuple(args, "KsLL", &seed, &kind, &n, &count)) return NULL;
    if (count < 0 || count > 1000000 || n < 0 || n > (long long)UINT32_MAX + 1) {
        PyErr_SetString(PyExc_ValueError, "rng: count must be 0-1000000 and n 0-2**32");
        return NULL;
    }
    me_rng r;
    me_rng_seed(&r, (uint64_t)seed);
    int is_perm = strcmp(kind, "permutation") == 0, is_sample = strcmp(kind, "sample") == 0;
    if (is_perm || is_sample) {
        if (n > 1000000 || (is_sample && count > n)) {
            PyErr_SetString(PyExc_ValueError, "rng: a shuffle needs n <= 1000000 (and a sample count <= n)");
            return NULL;
        }
        int *a = PyMem_Malloc(sizeof(int) * (size_t)(n + 1)), *b = PyMem_Malloc(sizeof(int) * (size_t)(n + 1));
        if (!a || !b) {
            PyMem_Free(a);
            PyMem_Free(b);
            return PyErr_NoMemory();
        }
        Py_ssize_t len = (Py_ssize_t)(is_perm ? n : count);
        if (is_perm)
            me_rng_permutation(&r, a, (int)n);
        else
            me_rng_sample(&r, (int)n, (int)count, b, a);
        PyObject *out = PyList_New(len);
        for (Py_ssize_t k = 0; out && k < len; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(a[k]));
        PyMem_Free(a);
        PyMem_Free(b);
        return out;
    }
    int is_u64 = strcmp(kind, "u64") == 0, is_below = strcmp(kind, "below") == 0;
    int is_random = strcmp(kind, "random") == 0;
    if (!is_u64 && !is_below && !is_random) {
        PyErr_Format(PyExc_ValueError, "rng: unknown kind %s", kind);
        return NULL;
    }
    if (is_below && n < 1) {
        PyErr_SetString(PyExc_ValueError, "rng: below needs 1 <= n <= 2**32");
        return NULL;
    }
    PyObject *out = PyList_New((Py_ssize_t)count);
    for (Py_ssize_t k = 0; out && k < count; k++) {
        PyObject *v = is_u64     ? PyLong_FromUnsignedLongLong(me_rng_next(&r))
                      : is_below ? PyLong_FromUnsignedLong(me_rng_below(&r, (uint64_t)n))
                                 : PyFloat_FromDouble(me_rng_random(&r));
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

static PyMethodDef core_methods[] = {
    {"games", core_games, METH_NOARGS, "names of the compiled twins"},
    {"load_tables", core_load_tables, METH_VARARGS, "load_tables(name, {table: ints})"},
    {"tables", core_tables, METH_O, "tables(name) -> the tables the twin holds"},
    {"dims", core_dims, METH_VARARGS, "dims(name, num_players, options) -> sizes"},
    {"rng", core_rng, METH_VARARGS, "rng(seed, kind, n, count): the C generator's outputs"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "mystic_envs.core._core",
    "The compiled core: twins of the game engines and the batch driver (docs/core.md).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&StateType) < 0 || PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *errors = PyImport_ImportModule("mystic_envs.core.errors");
    if (!errors) return NULL;
    illegal_action_error = PyObject_GetAttrString(errors, "IllegalActionError");
    Py_DECREF(errors);
    if (!illegal_action_error) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&StateType);
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0 ||
        PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
