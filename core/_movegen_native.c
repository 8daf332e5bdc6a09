/* Every legal play of a rack on a board, walked in C over a compiled word list (core.movegen_native).
 *
 * One function, plays(): the board as letter codes, the word graph and its lookahead arrays
 * (core.lexicon_layout), the rack as counts, and how many best scores to keep. It walks every row and
 * column from each square whose predecessor is empty, along the word graph, scores each complete play as
 * core.scoring does (letter premiums under new tiles, word premiums, cross-words, the bingo bonus), and
 * returns how many plays it met, how many starts it walked, and those scoring at least the count-th best score (all with count 0).
 * A play is (score, jokers, horizontal, line index, start, end, squares, letters, joker flags), the
 * squares along the line and end exclusive: core.movegen_plays's found play without its line object.
 *
 * A single tile that forms words both ways is one play, horizontal (the vertical walk skips a single
 * tile with a horizontal cross-word). Pure computation: no I/O, no state kept between calls.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define LOOKAHEAD 6
#define MAX_TILES 64
#define MAX_RACK 16
#define NATIVE_VERSION 1

typedef struct {
    int score, jokers, horizontal, index, start, end, n;
    unsigned char squares[MAX_RACK], letters[MAX_RACK], flags[MAX_RACK];
} Found;

typedef struct {
    const uint32_t *t32;
    const uint64_t *t64;
    const uint32_t *la32[LOOKAHEAD];
    const uint64_t *la64[LOOKAHEAD];
    int wide;
    uint64_t ahead_length;  /* the nodes the lookahead arrays cover */
    uint64_t every;
    int values[MAX_TILES];
    int counts[MAX_TILES];
    int rack_size, bingo, jokers;
    /* the line walked: per position (16 = past the edge, always empty) */
    int fixed[SIZE + 2], fixed_value[SIZE + 2], cross_sum[SIZE + 2], lm[SIZE + 1], wm[SIZE + 1];
    uint64_t cross_mask[SIZE + 2];
    unsigned char hook[SIZE + 2];
    /* per position and tiles left: the lengths a word read from there may end on (bit k: k more letters) */
    uint64_t ends[SIZE + 1][MAX_RACK + 1];
    /* per position: the squares to the nearest square that connects (board letter or hook), the tiles
       needed to reach it, and the letters allowed there */
    int anchor_distance[SIZE + 1], anchor_tiles[SIZE + 1];
    uint64_t anchor_letters[SIZE + 1];
    int horizontal, index, start;
    int squares[MAX_RACK], letters[MAX_RACK], flags[MAX_RACK];
    /* kept plays, and the heap of the count best scores */
    Found *found;
    Py_ssize_t found_len, found_cap;
    int *heap;
    int count, heap_len, threshold;
    long long seen, starts;
    int failed;
} Gen;

static inline uint64_t word_at(const Gen *g, uint64_t i) { return g->wide ? g->t64[i] : (uint64_t)g->t32[i]; }

static inline uint64_t ahead_at(const Gen *g, int depth, uint64_t node) {
    if (depth == 0) return word_at(g, node);
    if (node >= g->ahead_length) return UINT64_MAX;  /* no lookahead kept for the node: any letter */
    return g->wide ? g->la64[depth - 1][node] : (uint64_t)g->la32[depth - 1][node];
}

static inline uint64_t child_of(const Gen *g, uint64_t node, uint64_t head, uint64_t bit) {
    return word_at(g, node + 2 + (uint64_t)__builtin_popcountll(head & (bit - 1)));
}

/* the node reached from node by the codes given, or UINT64_MAX */
static uint64_t walk_codes(const Gen *g, uint64_t node, const int *codes, int length) {
    for (int i = 0; i < length; i++) {
        uint64_t head = word_at(g, node), bit = 1ULL << codes[i];
        if (!(head & bit)) return UINT64_MAX;
        node = child_of(g, node, head, bit);
    }
    return node;
}

/* --- kept plays ------------------------------------------------------------------------------- */

static void heap_push(Gen *g, int score) {
    /* a min-heap of the count best scores; threshold: its least once full */
    if (g->heap_len < g->count) {
        int i = g->heap_len++;
        g->heap[i] = score;
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (g->heap[parent] <= g->heap[i]) break;
            int swap = g->heap[parent]; g->heap[parent] = g->heap[i]; g->heap[i] = swap;
            i = parent;
        }
    } else if (score > g->heap[0]) {
        g->heap[0] = score;
        int i = 0;
        for (;;) {
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < g->heap_len && g->heap[l] < g->heap[m]) m = l;
            if (r < g->heap_len && g->heap[r] < g->heap[m]) m = r;
            if (m == i) break;
            int swap = g->heap[m]; g->heap[m] = g->heap[i]; g->heap[i] = swap;
            i = m;
        }
    }
    if (g->heap_len == g->count) g->threshold = g->heap[0];
}

static void record(Gen *g, int score, int n, int end, int jokers) {
    g->seen++;
    if (score < g->threshold || g->failed) return;
    if (g->count > 0) heap_push(g, score);
    if (g->found_len == g->found_cap) {
        Py_ssize_t cap = g->found_cap ? 2 * g->found_cap : 64;
        Found *grown = realloc(g->found, (size_t)cap * sizeof(Found));
        if (!grown) { g->failed = 1; return; }
        g->found = grown;
        g->found_cap = cap;
    }
    Found *f = &g->found[g->found_len++];
    f->score = score; f->jokers = jokers; f->horizontal = g->horizontal; f->index = g->index;
    f->start = g->start; f->end = end; f->n = n;
    for (int i = 0; i < n; i++) {
        f->squares[i] = (unsigned char)g->squares[i];
        f->letters[i] = (unsigned char)g->letters[i];
        f->flags[i] = (unsigned char)g->flags[i];
    }
}

/* --- the walk --------------------------------------------------------------------------------- */

/* from pos (the next square), at node (the letters before pos read), n tiles placed */
static void extend(Gen *g, int pos, uint64_t node, int main, int mult, int cross, int n, int connected,
                   int jokers_left, uint64_t rack_mask) {
    while (g->fixed[pos] >= 0) {  /* the board letters at pos belong to the word */
        uint64_t head = word_at(g, node), bit = 1ULL << g->fixed[pos];
        if (!(head & bit)) return;
        node = child_of(g, node, head, bit);
        main += g->fixed_value[pos];
        connected = 1;
        pos++;
    }
    uint64_t lengths = word_at(g, node + 1);
    if (n > 0 && (lengths & 1) && connected && pos - g->start > 1
        && !(!g->horizontal && n == 1 && g->cross_sum[g->squares[0]] >= 0)) {
        record(g, main * mult + cross + (n == g->rack_size ? g->bingo : 0), n, pos, g->jokers - jokers_left);
    }
    int left = g->rack_size - n;
    if (pos >= SIZE || left == 0) return;
    if (!(lengths & g->ends[pos][left])) return;
    if (!connected) {
        if (g->anchor_tiles[pos] > left) return;
        int distance = g->anchor_distance[pos];
        if (distance <= LOOKAHEAD && !(ahead_at(g, distance, node) & g->anchor_letters[pos])) return;
    }
    uint64_t head = word_at(g, node);
    uint64_t allowed = head & g->cross_mask[pos] & (jokers_left ? g->every : rack_mask);
    int lm = g->lm[pos], wm = g->wm[pos], xsum = g->cross_sum[pos];
    int joined = connected || g->hook[pos];
    g->squares[n] = pos;
    while (allowed) {
        uint64_t bit = allowed & (~allowed + 1);
        allowed ^= bit;
        uint64_t child = child_of(g, node, head, bit);
        int code = __builtin_ctzll(bit);
        g->letters[n] = code;
        if (rack_mask & bit) {
            int value = g->values[code] * lm;
            int cross2 = xsum >= 0 ? cross + (xsum + value) * wm : cross;
            int number = --g->counts[code];
            g->flags[n] = 0;
            extend(g, pos + 1, child, main + value, mult * wm, cross2, n + 1, joined, jokers_left,
                   number ? rack_mask : rack_mask ^ bit);
            g->counts[code]++;
        }
        if (jokers_left) {
            int cross2 = xsum >= 0 ? cross + xsum * wm : cross;
            g->flags[n] = 1;
            extend(g, pos + 1, child, main, mult * wm, cross2, n + 1, joined, jokers_left - 1, rack_mask);
        }
    }
}

/* the lengths a word read at each position may end on, and the nearest connecting squares */
static void prepare_line(Gen *g, uint64_t playable) {
    for (int pos = 0; pos < SIZE; pos++) {
        uint64_t bits[MAX_RACK + 2];
        memset(bits, 0, sizeof bits);
        int empties = 0;
        for (int end = pos; end < SIZE; end++) {
            if (g->fixed[end] < 0) empties++;
            if (empties > g->rack_size) break;
            if (g->fixed[end + 1] < 0) bits[empties] |= 1ULL << (end - pos + 1);
        }
        uint64_t running = 0;
        for (int t = 0; t <= g->rack_size; t++) {
            running |= bits[t];
            g->ends[pos][t] = running;
        }
    }
    int nearest = -1;
    for (int pos = SIZE - 1; pos >= 0; pos--) {
        if (g->fixed[pos] >= 0 || g->hook[pos]) nearest = pos;
        if (nearest < 0) {
            g->anchor_distance[pos] = LOOKAHEAD + 1;
            g->anchor_tiles[pos] = MAX_RACK + 1;
            g->anchor_letters[pos] = 0;
            continue;
        }
        g->anchor_distance[pos] = nearest - pos;
        int board_letter = g->fixed[nearest] >= 0;
        g->anchor_tiles[pos] = nearest - pos + (board_letter ? 0 : 1);
        g->anchor_letters[pos] = board_letter ? 1ULL << g->fixed[nearest] : g->cross_mask[nearest] & playable;
    }
}

static void walk_line(Gen *g, uint64_t root, int jokers, uint64_t rack_mask) {
    uint64_t playable = jokers ? g->every : rack_mask;
    int any = 0;
    for (int pos = 0; pos < SIZE; pos++) if (g->fixed[pos] >= 0 || g->hook[pos]) { any = 1; break; }
    if (!any) return;
    prepare_line(g, playable);
    for (int start = 0; start < SIZE; start++) {
        if (start > 0 && g->fixed[start - 1] >= 0) continue;
        if (g->anchor_tiles[start] > g->rack_size) continue;
        g->start = start;
        g->starts++;
        extend(g, start, root, 0, 1, 0, 0, 0, jokers, rack_mask);
    }
}

/* the letters that may fill a square between the codes before and after it (a cross-word) */
static uint64_t cross_check(const Gen *g, uint64_t root, const int *before, int nb, const int *after, int na) {
    uint64_t node = walk_codes(g, root, before, nb);
    if (node == UINT64_MAX) return 0;
    uint64_t head = word_at(g, node), letters = head & g->every, mask = 0;
    while (letters) {
        uint64_t bit = letters & (~letters + 1);
        letters ^= bit;
        uint64_t next = walk_codes(g, child_of(g, node, head, bit), after, na);
        if (next != UINT64_MAX && (word_at(g, next + 1) & 1)) mask |= bit;
    }
    return mask;
}

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

static PyObject *build_result(Gen *g) {
    PyObject *plays = PyList_New(0);
    if (!plays) return NULL;
    for (Py_ssize_t i = 0; i < g->found_len; i++) {
        Found *f = &g->found[i];
        if (f->score < g->threshold) continue;
        PyObject *squares = PyTuple_New(f->n), *letters = PyTuple_New(f->n), *flags = PyTuple_New(f->n);
        if (!squares || !letters || !flags) {
            Py_XDECREF(squares); Py_XDECREF(letters); Py_XDECREF(flags); Py_DECREF(plays);
            return NULL;
        }
        for (int k = 0; k < f->n; k++) {
            PyTuple_SET_ITEM(squares, k, PyLong_FromLong(f->squares[k]));
            PyTuple_SET_ITEM(letters, k, PyLong_FromLong(f->letters[k]));
            PyObject *flag = f->flags[k] ? Py_True : Py_False;
            Py_INCREF(flag);
            PyTuple_SET_ITEM(flags, k, flag);
        }
        PyObject *item = Py_BuildValue("(iiOiiiNNN)", f->score, f->jokers, f->horizontal ? Py_True : Py_False,
                                       f->index, f->start, f->end, squares, letters, flags);
        if (!item || PyList_Append(plays, item) < 0) {
            Py_XDECREF(item); Py_DECREF(plays);
            return NULL;
        }
        Py_DECREF(item);
    }
    return Py_BuildValue("(LLN)", g->seen, g->starts, plays);
}

static PyObject *plays(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *table_obj, *lookahead_obj;
    unsigned long long root, every;
    Py_buffer board_codes, board_values, letter_mult, word_mult, values, counts;
    int wide, jokers, bingo, horizontal_only, count;
    if (!PyArg_ParseTuple(args, "OOiKKy*y*y*y*y*y*iiip", &table_obj, &lookahead_obj, &wide, &root, &every,
                          &board_codes, &board_values, &letter_mult, &word_mult, &values, &counts, &jokers,
                          &bingo, &count, &horizontal_only))
        return NULL;
    Gen *g = PyMem_Calloc(1, sizeof(Gen));
    Py_buffer table_view = {0}, ahead_views[LOOKAHEAD];
    memset(ahead_views, 0, sizeof ahead_views);
    int ahead_held = 0, table_held = 0;
    PyObject *result = NULL;
    int tiles = (int)counts.len;
    if (!g) { PyErr_NoMemory(); goto done; }
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
    for (int d = 1; d < LOOKAHEAD; d++) {
        if ((uint64_t)(ahead_views[d].len / ahead_views[d].itemsize) < g->ahead_length)
            g->ahead_length = (uint64_t)(ahead_views[d].len / ahead_views[d].itemsize);
    }
    g->wide = wide;
    g->t32 = table_view.buf;
    g->t64 = table_view.buf;
    for (int d = 0; d < LOOKAHEAD; d++) { g->la32[d] = ahead_views[d].buf; g->la64[d] = ahead_views[d].buf; }
    g->every = every;
    const unsigned char *rack = counts.buf, *tile_values = values.buf;
    int size = jokers;
    uint64_t rack_mask = 0;
    for (int c = 0; c < tiles; c++) {
        g->counts[c] = rack[c];
        g->values[c] = tile_values[c];
        size += rack[c];
        if (rack[c]) rack_mask |= 1ULL << c;
    }
    if (size > MAX_RACK) { PyErr_SetString(PyExc_ValueError, "a rack of more than 16 tiles"); goto done; }
    g->rack_size = size;
    g->jokers = jokers;
    g->bingo = bingo;
    g->count = count;
    g->threshold = -1;
    if (count > 0) {
        g->heap = malloc((size_t)count * sizeof(int));
        if (!g->heap) { PyErr_NoMemory(); goto done; }
    }
    if (size == 0) { result = build_result(g); goto done; }
    const unsigned char *codes = board_codes.buf, *square_values = board_values.buf;
    const unsigned char *lms = letter_mult.buf, *wms = word_mult.buf;
    int empty_board = 1;
    for (int i = 0; i < SIZE * SIZE; i++) {
        if (codes[i] == 255) continue;
        empty_board = 0;
        if (codes[i] >= tiles) {
            PyErr_SetString(PyExc_ValueError, "a board letter out of the alphabet");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (int horizontal = 1; horizontal >= 0; horizontal--) {
        if (empty_board && !horizontal && horizontal_only) break;
        for (int index = 0; index < SIZE; index++) {
            if (empty_board && index != SIZE / 2) continue;
            g->horizontal = horizontal;
            g->index = index;
            for (int pos = 0; pos <= SIZE + 1; pos++) {
                g->fixed[pos] = -1; g->fixed_value[pos] = 0; g->cross_sum[pos] = -1;
                g->cross_mask[pos] = g->every; g->hook[pos] = 0;
            }
            for (int pos = 0; pos < SIZE; pos++) {
                int square = horizontal ? index * SIZE + pos : pos * SIZE + index;
                g->lm[pos] = lms[square];
                g->wm[pos] = wms[square];
                if (codes[square] != 255) {
                    g->fixed[pos] = codes[square];
                    g->fixed_value[pos] = square_values[square];
                    continue;
                }
                /* the cross-word through the square: across the line */
                int before[SIZE], after[SIZE], nb = 0, na = 0, total = 0;
                int step = horizontal ? SIZE : 1;
                int row = square / SIZE, col = square % SIZE;
                int across = horizontal ? row : col;
                for (int k = across - 1; k >= 0 && codes[square - (across - k) * step] != 255; k--) nb++;
                for (int k = 0; k < nb; k++) {
                    int at = square - (nb - k) * step;
                    before[k] = codes[at];
                    total += square_values[at];
                }
                for (int k = across + 1; k < SIZE && codes[square + (k - across) * step] != 255; k++) {
                    int at = square + (k - across) * step;
                    after[na++] = codes[at];
                    total += square_values[at];
                }
                if (nb || na) {
                    g->cross_mask[pos] = cross_check(g, root, before, nb, after, na);
                    g->cross_sum[pos] = total;
                    g->hook[pos] = 1;
                }
            }
            g->lm[SIZE] = 1;
            g->wm[SIZE] = 1;
            if (empty_board) g->hook[SIZE / 2] = 1;
            walk_line(g, root, jokers, rack_mask);
        }
    }
    Py_END_ALLOW_THREADS
    if (g->failed) PyErr_NoMemory();
    else result = build_result(g);
done:
    if (table_held) PyBuffer_Release(&table_view);
    for (int d = 0; d < ahead_held; d++) PyBuffer_Release(&ahead_views[d]);
    PyBuffer_Release(&board_codes); PyBuffer_Release(&board_values); PyBuffer_Release(&letter_mult);
    PyBuffer_Release(&word_mult); PyBuffer_Release(&values); PyBuffer_Release(&counts);
    if (g) { free(g->found); free(g->heap); PyMem_Free(g); }
    return result;
}

static PyMethodDef methods[] = {
    {"plays", plays, METH_VARARGS,
     "plays(table, lookahead, wide, root, letters, board_codes, board_values, letter_multipliers, "
     "word_multipliers, values, counts, jokers, bingo, count, horizontal_only) -> (seen, starts, plays)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "core._movegen_native", NULL, -1, methods};

PyMODINIT_FUNC PyInit__movegen_native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "VERSION", NATIVE_VERSION) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
