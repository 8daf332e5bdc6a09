/* The plays of a rack on a board, walked in C over a compiled word list (core.movegen_native).
 *
 * One function, plays(): the board as letter codes, the word graph and its lookahead arrays
 * (core.lexicon_layout), the rack as counts, and how many best scores to keep (0: every play). Each row
 * and column is a line; a play begins at a square whose predecessor is empty (a start) and is walked along
 * the word graph, scored as core.scoring scores it (letter premiums under new tiles, word premiums,
 * cross-words, the bingo bonus). Each start gets an upper bound on its plays' scores (the rack's best values
 * on the best premiums of the longest stretch its tiles can cover, or each square's best tile its
 * cross-check allows, whichever is lower); with a count, the starts are walked in decreasing order of bound
 * and those below the count-th best score met so far are not walked.
 *
 * It returns how many plays it met, how many starts there were and how many it walked, and the plays scoring
 * at least the count-th best score, each as core.movegen_plays's found play: (score, jokers, (direction, row,
 * column), line, start, end, squares, letters, joker flags), the squares along the line and end exclusive,
 * the line the object line_of(horizontal, index) returns (called once per line). A single tile that forms words both ways is one play, horizontal (the vertical
 * walk skips a single tile with a horizontal cross-word). Pure computation: no I/O, no state kept between
 * calls; the walk runs without the GIL.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_movegen_walk.h"

#define NATIVE_VERSION 3

/* --- the call --------------------------------------------------------------------------------- */

static int get_table(PyObject *obj, Py_buffer *view, int wide) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != (wide ? 8 : 4)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "a table's items are not of the width its alphabet needs");
        return -1;
    }
    return 0;
}

/* a found play's line object, made by line_of(horizontal, index) once per line (lines: owned references) */
static PyObject *line_object(PyObject *line_of, PyObject **lines, int horizontal, int index) {
    PyObject **slot = &lines[(horizontal ? 0 : SIZE) + index];
    if (!*slot) *slot = PyObject_CallFunction(line_of, "Oi", horizontal ? Py_True : Py_False, index);
    return *slot;
}

static PyObject *build_result(Gen *g, PyObject *line_of, int tasks, int walked) {
    PyObject *plays = PyList_New(0);
    if (!plays) return NULL;
    PyObject *lines[LINES] = {NULL};
    for (size_t i = 0; i < g->found_len; i++) {
        Found *f = &g->found[i];
        if (f->score < g->threshold) continue;
        PyObject *squares = PyTuple_New(f->n), *letters = PyTuple_New(f->n), *flags = PyTuple_New(f->n);
        PyObject *line = line_object(line_of, lines, f->horizontal, f->index);
        if (!squares || !letters || !flags || !line) {
            Py_XDECREF(squares);
            Py_XDECREF(letters);
            Py_XDECREF(flags);
            Py_CLEAR(plays);
            break;
        }
        for (int k = 0; k < f->n; k++) {
            PyTuple_SET_ITEM(squares, k, PyLong_FromLong(f->squares[k]));
            PyTuple_SET_ITEM(letters, k, PyLong_FromLong(f->letters[k]));
            PyObject *flag = f->flags[k] ? Py_True : Py_False;
            Py_INCREF(flag);
            PyTuple_SET_ITEM(flags, k, flag);
        }
        /* the fixed-order key: direction, row, column of the first square */
        int row = f->horizontal ? f->index : f->start, col = f->horizontal ? f->start : f->index;
        PyObject *item = Py_BuildValue("(ii(iii)OiiNNN)", f->score, f->jokers, f->horizontal ? 0 : 1, row, col,
                                       line, f->start, f->end, squares, letters, flags);
        if (!item || PyList_Append(plays, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(plays);
            break;
        }
        Py_DECREF(item);
    }
    for (int i = 0; i < LINES; i++) Py_XDECREF(lines[i]);
    if (!plays) return NULL;
    return Py_BuildValue("(LiiN)", g->seen, tasks, walked, plays);
}

/* the rack read into g; -1 (exception set) when out of its limits */
static int read_rack(Gen *g, const Py_buffer *counts, const Py_buffer *values, int jokers, int bingo, int count) {
    int tiles = (int)counts->len;
    const unsigned char *rack = counts->buf, *tile_values = values->buf;
    int size = jokers, real = 0;
    for (int c = 0; c < tiles; c++) {
        g->counts[c] = rack[c];
        g->values[c] = tile_values[c];
        size += rack[c];
        if (rack[c]) g->rack_mask |= 1ULL << c;
    }
    if (size > MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "a rack of more than 16 tiles");
        return -1;
    }
    for (int c = 0; c < tiles; c++) {
        for (int k = 0; k < rack[c]; k++) g->best_values[real++] = tile_values[c];
    }
    for (int k = real; k <= MAX_RACK; k++) g->best_values[k] = 0;
    sort_descending(g->best_values, real);
    g->top_value = real ? g->best_values[0] : 0;
    g->rack_size = size;
    g->jokers = jokers;
    g->playable = jokers ? g->every : g->rack_mask;
    g->bingo = bingo;
    g->count = count;
    g->threshold = -1;
    return 0;
}

static PyObject *plays(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *table_obj, *lookahead_obj, *line_of;
    unsigned long long root, every;
    Py_buffer board_codes, board_values, letter_mult, word_mult, values, counts;
    int wide, jokers, bingo, horizontal_only, count;
    if (!PyArg_ParseTuple(args, "OOiKKy*y*y*y*y*y*iiipO", &table_obj, &lookahead_obj, &wide, &root, &every,
                          &board_codes, &board_values, &letter_mult, &word_mult, &values, &counts, &jokers,
                          &bingo, &count, &horizontal_only, &line_of))
        return NULL;
    Gen *g = PyMem_Calloc(1, sizeof(Gen));
    Line *lines = PyMem_Malloc(LINES * sizeof(Line));
    Task *tasks = PyMem_Malloc(LINES * SIZE * sizeof(Task));
    Py_buffer table_view = {0}, ahead_views[LOOKAHEAD];
    memset(ahead_views, 0, sizeof ahead_views);
    int ahead_held = 0, table_held = 0, task_count = 0, walked = 0;
    PyObject *result = NULL;
    int tiles = (int)counts.len;
    if (!g || !lines || !tasks) {
        PyErr_NoMemory();
        goto done;
    }
    if (board_codes.len != SIZE * SIZE || board_values.len != SIZE * SIZE || letter_mult.len != SIZE * SIZE
        || word_mult.len != SIZE * SIZE || values.len != tiles || tiles > MAX_TILES || jokers < 0 || count < 0
        || !PyTuple_Check(lookahead_obj) || PyTuple_GET_SIZE(lookahead_obj) != LOOKAHEAD) {
        PyErr_SetString(PyExc_ValueError, "the board, premiums, values or lookahead are not of their sizes");
        goto done;
    }
    if (get_table(table_obj, &table_view, wide) < 0) goto done;
    table_held = 1;
    for (; ahead_held < LOOKAHEAD; ahead_held++) {
        if (get_table(PyTuple_GET_ITEM(lookahead_obj, ahead_held), &ahead_views[ahead_held], wide) < 0) goto done;
    }
    g->ahead_length = (uint64_t)(ahead_views[0].len / ahead_views[0].itemsize);
    for (int d = 0; d < LOOKAHEAD; d++) {
        uint64_t length = (uint64_t)(ahead_views[d].len / ahead_views[d].itemsize);
        if (length < g->ahead_length) g->ahead_length = length;
        g->la32[d] = ahead_views[d].buf;
        g->la64[d] = ahead_views[d].buf;
    }
    g->wide = wide;
    g->t32 = table_view.buf;
    g->t64 = table_view.buf;
    g->every = every;
    if (read_rack(g, &counts, &values, jokers, bingo, count) < 0) goto done;
    if (count > 0) {
        g->heap = malloc((size_t)count * sizeof(int));
        if (!g->heap) {
            PyErr_NoMemory();
            goto done;
        }
    }
    const unsigned char *codes = board_codes.buf, *square_values = board_values.buf;
    int empty_board = 1;
    for (int i = 0; i < SIZE * SIZE; i++) {
        if (codes[i] == 255) continue;
        empty_board = 0;
        if (codes[i] >= tiles) {
            PyErr_SetString(PyExc_ValueError, "a board letter out of the alphabet");
            goto done;
        }
    }
    if (g->rack_size == 0) {
        result = build_result(g, line_of, 0, 0);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    int line_count = 0;
    for (int horizontal = 1; horizontal >= 0; horizontal--) {
        if (empty_board && !horizontal && horizontal_only) break;
        for (int index = 0; index < SIZE; index++) {
            if (empty_board && index != SIZE / 2) continue;
            Line *L = &lines[line_count];
            if (!make_line(g, L, horizontal, index, root, codes, square_values, letter_mult.buf, word_mult.buf,
                           empty_board))
                continue;
            prepare_line(g, L);
            for (int start = 0; start < SIZE; start++) {
                if (start > 0 && L->fixed[start - 1] >= 0) continue;
                if (L->anchor_tiles[start] > g->rack_size) continue;
                int bound = start_bound(g, L, start);
                if (bound < 0) continue;
                tasks[task_count].bound = bound;
                tasks[task_count].line = line_count;
                tasks[task_count].start = start;
                task_count++;
            }
            line_count++;
        }
    }
    if (count > 0) qsort(tasks, (size_t)task_count, sizeof(Task), by_bound);
    for (int t = 0; t < task_count; t++) {
        if (tasks[t].bound < g->threshold) break; /* (sorted: with count 0 the threshold stays -1) */
        g->line = &lines[tasks[t].line];
        g->start = tasks[t].start;
        walked++;
        extend(g, g->start, root, 0, 1, 0, 0, 0, jokers, g->rack_mask);
    }
    Py_END_ALLOW_THREADS
    if (g->failed) PyErr_NoMemory();
    else result = build_result(g, line_of, task_count, walked);
done:
    if (table_held) PyBuffer_Release(&table_view);
    for (int d = 0; d < ahead_held; d++) PyBuffer_Release(&ahead_views[d]);
    PyBuffer_Release(&board_codes);
    PyBuffer_Release(&board_values);
    PyBuffer_Release(&letter_mult);
    PyBuffer_Release(&word_mult);
    PyBuffer_Release(&values);
    PyBuffer_Release(&counts);
    if (g) {
        free(g->found);
        free(g->heap);
    }
    PyMem_Free(g);
    PyMem_Free(lines);
    PyMem_Free(tasks);
    return result;
}

static PyMethodDef methods[] = {
    {"plays", plays, METH_VARARGS,
     "plays(table, lookahead, wide, root, letters, board_codes, board_values, letter_multipliers, "
     "word_multipliers, values, counts, jokers, bingo, count, horizontal_only, line_of) -> "
     "(seen, starts, walked, plays)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "core._movegen_native", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__movegen_native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "VERSION", NATIVE_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
