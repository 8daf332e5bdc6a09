/* The top search's C walk: the board's lines and their cross-checks, each start's bound, the walk along the
 * word graph and the plays it keeps (core/_movegen_native.c describes the whole; core/_movegen_walk.h the
 * types). Pure computation on the buffers it is given: no Python, no I/O. */

#include <stdlib.h>
#include <string.h>

#include "_movegen_walk.h"

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
        size_t cap = g->found_cap ? 2 * g->found_cap : 64;
        Found *grown = realloc(g->found, cap * sizeof(Found));
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
void extend(Gen *g, int pos, uint64_t node, int main, int mult, int cross, int n, int connected,
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
int make_line(const Gen *g, Line *L, int horizontal, int index, uint64_t root, const unsigned char *codes,
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
void prepare_line(const Gen *g, Line *L) {
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

void sort_descending(int *items, int length) {
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
int start_bound(const Gen *g, const Line *L, int start) {
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

int by_bound(const void *a, const void *b) {
    const Task *x = a, *y = b;
    if (x->bound != y->bound) return x->bound > y->bound ? -1 : 1;
    if (x->line != y->line) return x->line - y->line;
    return x->start - y->start;
}
