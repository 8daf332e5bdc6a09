/* The top search's C walk (core/_movegen_walk.c) as the extension module (core/_movegen_native.c) calls it:
 * the search's state, a line of the board, a start, a kept play, and the steps of a search. No Python here. */

#ifndef ARBITRE_MOVEGEN_WALK_H
#define ARBITRE_MOVEGEN_WALK_H

#include <stddef.h>
#include <stdint.h>

#define SIZE 15
#define LINES (2 * SIZE)
#define LOOKAHEAD 6
#define MAX_TILES 64
#define MAX_RACK 16

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
    size_t found_len, found_cap;
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
/* a line's squares from the board: letters, premiums, cross-checks; whether any square connects */
int make_line(const Gen *g, Line *L, int horizontal, int index, uint64_t root, const unsigned char *codes,
              const unsigned char *square_values, const unsigned char *lms, const unsigned char *wms, int empty_board);
/* the lengths a word read at each position may end on, and the nearest connecting squares */
void prepare_line(const Gen *g, Line *L);
/* an upper bound on the scores of the plays from start, or -1 when none connects */
int start_bound(const Gen *g, const Line *L, int start);
/* the order of the starts walked: by decreasing bound, then by line and square */
int by_bound(const void *a, const void *b);
/* the plays from pos (the next square) at node, n tiles placed: each complete one recorded in g */
void extend(Gen *g, int pos, uint64_t node, int main, int mult, int cross, int n, int connected, int jokers_left,
            uint64_t rack_mask);
void sort_descending(int *items, int length);

#endif
