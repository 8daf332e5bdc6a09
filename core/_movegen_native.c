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

#define SIZE 15
#define LINES (2 * SIZE)
#define LOOKAHEAD 6
#define MAX_TILES 64
#define MAX_RACK 16
#define NATIVE_VERSION 3

typedef struct {
    int score, jokers, horizontal, index, start, end, n;
    unsigned char squares[MAX_RACK], letters[MAX_RACK], flags[MAX_RACK];
} Found;

/* A row or column: per position (SIZE = past the edge, always empty) */
typedef struct {
    int horizontal, index;
    int fixed[SIZE + 2], fixed_value[SIZE + 2], cross_sum[SIZE + 2], lm[SIZE + 1], wm[SIZE + 1];
    uint64_t cross_mask[SIZE + 2];
    unsigned char hook[SIZE + 2];
    /* per position and tiles left: the lengths a word read from there may end on (bit k: k more letters) */
    uint64_t ends[SIZE + 1][MAX_RACK + 1];
    /* per position: the squares to the nearest square that connects (board letter or hook), the tiles
       needed to reach it, and the letters allowed there */
    int anchor_distance[SIZE + 1], anchor_tiles[SIZE + 1];
    uint64_t anchor_letters[SIZE + 1];
} Line;

typedef struct {
    int bound, line, start;
} Task;

typedef struct {
    const uint32_t *t32;
    const uint64_t *t64;
    const uint32_t *la32[LOOKAHEAD];
    const uint64_t *la64[LOOKAHEAD];
    int wide;
    uint64_t ahead_length; /* the nodes the lookahead arrays cover */
    uint64_t every, rack_mask, playable;
    int values[MAX_TILES];
    int counts[MAX_TILES];
    int rack_size, bingo, jokers;
    int best_values[MAX_RACK + 1]; /* the rack's real tiles' values, best first (0 past them) */
    int top_value;
    const Line *line; /* the line walked */
    int start;
    int squares[MAX_RACK], letters[MAX_RACK], flags[MAX_RACK];
    /* kept plays, and the heap of the count best scores */
    Found *found;
    Py_ssize_t found_len, found_cap;
    int *heap;
    int count, heap_len, threshold;
    long long seen;
    int failed;
} Gen;

static inline uint64_t word_at(const Gen *g, uint64_t i) { return g->wide ? g->t64[i] : (uint64_t)g->t32[i]; }

static inline uint64_t ahead_at(const Gen *g, int depth, uint64_t node) {
    if (depth == 0) return word_at(g, node);
    if (node >= g->ahead_length) return UINT64_MAX; /* no lookahead kept for the node: any letter */
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
            int swap = g->heap[parent];
            g->heap[parent] = g->heap[i];
            g->heap[i] = swap;
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
            int swap = g->heap[m];
            g->heap[m] = g->heap[i];
            g->heap[i] = swap;
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
        if (!grown) {
            g->failed = 1;
            return;
        }
        g->found = grown;
        g->found_cap = cap;
    }
    Found *f = &g->found[g->found_len++];
    f->score = score;
    f->jokers = jokers;
    f->horizontal = g->line->horizontal;
    f->index = g->line->index;
    f->start = g->start;
    f->end = end;
    f->n = n;
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
    const Line *L = g->line;
    while (L->fixed[pos] >= 0) { /* the board letters at pos belong to the word */
        uint64_t head = word_at(g, node), bit = 1ULL << L->fixed[pos];
        if (!(head & bit)) return;
        node = child_of(g, node, head, bit);
        main += L->fixed_value[pos];
        connected = 1;
        pos++;
    }
    uint64_t lengths = word_at(g, node + 1);
    if (n > 0 && (lengths & 1) && connected && pos - g->start > 1
        && !(!L->horizontal && n == 1 && L->cross_sum[g->squares[0]] >= 0)) {
        record(g, main * mult + cross + (n == g->rack_size ? g->bingo : 0), n, pos, g->jokers - jokers_left);
    }
    int left = g->rack_size - n;
    if (pos >= SIZE || left == 0) return;
    if (!(lengths & L->ends[pos][left])) return;
    if (!connected) {
        if (L->anchor_tiles[pos] > left) return;
        int distance = L->anchor_distance[pos];
        if (distance <= LOOKAHEAD && !(ahead_at(g, distance, node) & L->anchor_letters[pos])) return;
    }
    uint64_t head = word_at(g, node);
    uint64_t allowed = head & L->cross_mask[pos] & (jokers_left ? g->every : rack_mask);
    int lm = L->lm[pos], wm = L->wm[pos], xsum = L->cross_sum[pos];
    int joined = connected || L->hook[pos];
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

/* --- lines and their starts ------------------------------------------------------------------- */

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

/* a line's squares from the board: letters, premiums, cross-checks; whether any square connects */
static int make_line(const Gen *g, Line *L, int horizontal, int index, uint64_t root, const unsigned char *codes,
                     const unsigned char *square_values, const unsigned char *lms, const unsigned char *wms,
                     int empty_board) {
    L->horizontal = horizontal;
    L->index = index;
    for (int pos = 0; pos <= SIZE + 1; pos++) {
        L->fixed[pos] = -1;
        L->fixed_value[pos] = 0;
        L->cross_sum[pos] = -1;
        L->cross_mask[pos] = g->every;
        L->hook[pos] = 0;
    }
    int any = 0;
    int step = horizontal ? SIZE : 1; /* across the line */
    for (int pos = 0; pos < SIZE; pos++) {
        int square = horizontal ? index * SIZE + pos : pos * SIZE + index;
        L->lm[pos] = lms[square];
        L->wm[pos] = wms[square];
        if (codes[square] != 255) {
            L->fixed[pos] = codes[square];
            L->fixed_value[pos] = square_values[square];
            any = 1;
            continue;
        }
        int before[SIZE], after[SIZE], nb = 0, na = 0, total = 0;
        int across = horizontal ? square / SIZE : square % SIZE;
        while (across - nb - 1 >= 0 && codes[square - (nb + 1) * step] != 255) nb++;
        for (int k = 0; k < nb; k++) {
            int at = square - (nb - k) * step;
            before[k] = codes[at];
            total += square_values[at];
        }
        while (across + na + 1 < SIZE && codes[square + (na + 1) * step] != 255) {
            int at = square + (na + 1) * step;
            after[na++] = codes[at];
            total += square_values[at];
        }
        if (nb || na) {
            L->cross_mask[pos] = cross_check(g, root, before, nb, after, na);
            L->cross_sum[pos] = total;
            L->hook[pos] = 1;
            any = 1;
        }
    }
    L->lm[SIZE] = 1;
    L->wm[SIZE] = 1;
    if (empty_board) {
        L->hook[SIZE / 2] = 1;
        any = 1;
    }
    return any;
}

/* the lengths a word read at each position may end on, and the nearest connecting squares */
static void prepare_line(const Gen *g, Line *L) {
    for (int pos = 0; pos < SIZE; pos++) {
        uint64_t bits[MAX_RACK + 2];
        memset(bits, 0, sizeof bits);
        int empties = 0;
        for (int end = pos; end < SIZE; end++) {
            if (L->fixed[end] < 0) empties++;
            if (empties > g->rack_size) break;
            if (L->fixed[end + 1] < 0) bits[empties] |= 1ULL << (end - pos + 1);
        }
        uint64_t running = 0;
        for (int t = 0; t <= g->rack_size; t++) {
            running |= bits[t];
            L->ends[pos][t] = running;
        }
    }
    int nearest = -1;
    for (int pos = SIZE - 1; pos >= 0; pos--) {
        if (L->fixed[pos] >= 0 || L->hook[pos]) nearest = pos;
        if (nearest < 0) {
            L->anchor_distance[pos] = LOOKAHEAD + 1;
            L->anchor_tiles[pos] = MAX_RACK + 1;
            L->anchor_letters[pos] = 0;
            continue;
        }
        L->anchor_distance[pos] = nearest - pos;
        int board_letter = L->fixed[nearest] >= 0;
        L->anchor_tiles[pos] = nearest - pos + (board_letter ? 0 : 1);
        L->anchor_letters[pos] = board_letter ? 1ULL << L->fixed[nearest] : L->cross_mask[nearest] & g->playable;
    }
}

static void sort_descending(int *items, int length) {
    for (int i = 1; i < length; i++) {
        int item = items[i], j = i;
        while (j > 0 && items[j - 1] < item) {
            items[j] = items[j - 1];
            j--;
        }
        items[j] = item;
    }
}

/* the best tile value a square may take: its cross-check's best rack letter (0 for a joker alone), -1 if none */
static int square_cap(const Gen *g, const Line *L, int pos) {
    uint64_t mask = L->cross_mask[pos];
    if (!L->hook[pos] || mask == g->every) return g->top_value;
    int cap = -1;
    uint64_t letters = mask & g->rack_mask;
    while (letters) {
        int code = __builtin_ctzll(letters);
        letters &= letters - 1;
        if (g->values[code] > cap) cap = g->values[code];
    }
    if (cap < 0 && g->jokers && (mask & g->every)) cap = 0;
    return cap;
}

/* an upper bound on the scores of the plays from start, or -1 when none connects: on the longest stretch the
   rack may cover (up to a square no tile fits), the rack's best values on its best letter and cross-word
   weights, or each square's best tile, whichever is lower; the bingo bonus when the stretch holds the rack */
static int start_bound(const Gen *g, const Line *L, int start) {
    int empties = 0, board = 0, mult = 1, cross_const = 0, capped_letters = 0, capped_cross = 0, connects = 0;
    int letter_weights[MAX_RACK], cross_weights[MAX_RACK], crossed = 0;
    for (int pos = start; pos < SIZE; pos++) {
        if (L->fixed[pos] >= 0) {
            board += L->fixed_value[pos];
            connects = 1;
            continue;
        }
        if (empties == g->rack_size) break;
        int cap = square_cap(g, L, pos);
        if (cap < 0) break; /* no tile fits: plays from start end before it */
        int lm = L->lm[pos], wm = L->wm[pos];
        if (L->hook[pos]) connects = 1;
        letter_weights[empties++] = lm;
        capped_letters += lm * cap;
        mult *= wm;
        if (L->cross_sum[pos] >= 0) {
            cross_const += L->cross_sum[pos] * wm;
            cross_weights[crossed++] = lm * wm;
            capped_cross += lm * wm * cap;
        }
    }
    if (!connects || empties == 0) return -1;
    sort_descending(letter_weights, empties);
    sort_descending(cross_weights, crossed);
    int paired_letters = 0, paired_cross = 0;
    for (int i = 0; i < empties; i++) paired_letters += g->best_values[i] * letter_weights[i];
    for (int i = 0; i < crossed; i++) paired_cross += g->best_values[i] * cross_weights[i];
    int letters = paired_letters < capped_letters ? paired_letters : capped_letters;
    int cross = paired_cross < capped_cross ? paired_cross : capped_cross;
    return (board + letters) * mult + cross_const + cross + (empties == g->rack_size ? g->bingo : 0);
}

static int by_bound(const void *a, const void *b) {
    const Task *x = a, *y = b;
    if (x->bound != y->bound) return x->bound > y->bound ? -1 : 1;
    if (x->line != y->line) return x->line - y->line;
    return x->start - y->start;
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
    for (Py_ssize_t i = 0; i < g->found_len; i++) {
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
