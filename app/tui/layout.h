/* layout: where everything goes on the screen, as a pure function of the
 * terminal size and the device count (nvtop's habit: rectangles out, tested
 * without a terminal).  Nothing here calls curses.
 *
 * The screen, top to bottom: a status bar, the panel area (panels in a grid
 * whose reading order follows the ring, with gaps for the arrows between
 * neighbours, and a lane left of the grid and one below it for the arrow that
 * closes the ring), the info area (caption and formulas), and a footer of key
 * hints.  The grid and its lanes are centred together. */
#ifndef TUI_LAYOUT_H
#define TUI_LAYOUT_H

#define LAYOUT_MAX_DEVICES 64
#define LAYOUT_MAX_PATH 1024 /* cells in one link's path */

struct rect {
	int x, y, w, h; /* column, row of the top-left corner; w, h > 0 when used */
};

struct point {
	int x, y;
};

/* How much a panel shows, from most to least. */
enum layout_level {
	LAYOUT_FULL = 0,    /* values of C, formula, memory bar, traffic */
	LAYOUT_MEDIUM = 1,  /* marks for C's columns, formula, memory in short */
	LAYOUT_COMPACT = 2, /* a line: the shard held and the columns filled */
};

/* Smallest panel of each level, borders included. */
#define LAYOUT_FULL_MIN_W 30
#define LAYOUT_FULL_MIN_H 8
#define LAYOUT_MEDIUM_MIN_W 20
#define LAYOUT_MEDIUM_MIN_H 5
#define LAYOUT_COMPACT_MIN_W 10
#define LAYOUT_COMPACT_MIN_H 3

/* Below this no screen is drawn, whatever the device count. */
#define LAYOUT_MIN_COLS 40
#define LAYOUT_MIN_ROWS 12

/* Largest panel worth drawing: beyond this the grid is centred instead. */
#define LAYOUT_MAX_PANEL_W 60
#define LAYOUT_MAX_PANEL_H 22

struct layout {
	int ok;                   /* everything fits */
	int need_cols, need_rows; /* when !ok: the smallest size that fits n devices */
	int cols, rows, n;
	int level;                /* enum layout_level */
	int grid_cols, grid_rows;
	struct rect status;       /* row 0 */
	struct rect panels;       /* the whole panel area, lanes included */
	struct rect panel[LAYOUT_MAX_DEVICES]; /* rank r's panel */
	int grid_x[LAYOUT_MAX_DEVICES], grid_y[LAYOUT_MAX_DEVICES]; /* its cell in the grid */
	struct rect info;         /* caption and formula lines */
	struct rect footer;       /* the last row */
	int hgap, vgap;           /* columns between panels in a row, rows between grid rows */
	int lane_x, lane_y;       /* the left lane's first column, the bottom lane's row:
				     beside and below the grid, which they hug */
};

/* Lays out n devices (1..LAYOUT_MAX_DEVICES) on a cols x rows terminal.
 * Always fills `need_cols`/`need_rows` and sets ok = 0 when the terminal is
 * smaller; then no other field is meaningful.  Guarantees when ok: every
 * rectangle lies inside the screen, no two of status, panels, info and footer
 * overlap, no two panels overlap, panels lie inside the panel area, and rank
 * order follows the ring: rank r+1 is next to rank r in the grid (left,
 * right or below), in snake order. */
void layout_compute(struct layout *l, int cols, int rows, int n);

/* Shrinks the panels of a layout that fits to at most want_w x want_h (what
 * their content needs; 0 leaves a dimension alone), never below the level's
 * minimum, and centres the grid again.  Every guarantee of layout_compute
 * still holds. */
void layout_fit(struct layout *l, int want_w, int want_h);

/* The cells of the arrow from rank `from` to rank (from + 1) mod n, in order
 * from the edge of from's panel to the edge of the next one's, through the
 * gaps and lanes only (never inside a panel).  The link from the last rank to
 * rank 0 goes down to the bottom lane, left to the left lane and up to rank
 * 0.  Returns the number of cells written (at most max), 0 when n == 1. */
int layout_link_path(const struct layout *l, int from, struct point *pts, int max);

/* The straight flight from rank `from`'s panel to rank 0's (the gather):
 * the centres of the two panels. */
void layout_gather_line(const struct layout *l, int from, struct point *a, struct point *b);

#endif
