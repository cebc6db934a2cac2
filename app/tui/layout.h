/* layout: where everything goes on the screen, as a pure function of the
 * terminal size, the device count and what the screen has to show (nvtop's
 * habit: rectangles out, tested without a terminal).  Nothing here calls
 * curses.
 *
 * The screen, top to bottom: a status bar; the panel area (the ranks'
 * panels in a grid whose reading order follows the ring, with gaps for the
 * arrows and a lane left of the grid and one below it for the arrow that
 * closes the ring; or, in focus, one rank large between its neighbours; and
 * the schedule table beside or below them when there is room; or the
 * timeline at its foot, under the panels when they keep MEDIUM above it,
 * else alone); the info
 * area (every line of every paragraph it is given, wrapped at word
 * boundaries, then optional lines when rows are left); the key bar, on as
 * many lines as its hints need.
 *
 * The rule for the panels' area: a panel is as large as its content wants
 * (every row of C with values, then the rows of A and the B shard it holds,
 * with values), and never larger, nor taller than what it can show in the
 * room it has (a block whose values do not fit leaves no blank lines); when the screen cannot give that much,
 * the grid shape is the one that shows the most (values of C first, then
 * rows of C, then columns of C, then A and B), and the panels take the whole
 * area.  Rows the panels do not want go to the optional info lines, then
 * are split evenly above and below the grid. */
#ifndef TUI_LAYOUT_H
#define TUI_LAYOUT_H

#define LAYOUT_MAX_DEVICES 64
#define LAYOUT_MAX_PATH 1024 /* cells in one link's path */
#define LAYOUT_MAX_INFO 10   /* paragraphs in the info area */
#define LAYOUT_MAX_ITEMS 40  /* hints in the key bar */
#define LAYOUT_MAX_LINKS (4 * LAYOUT_MAX_DEVICES) /* a judged run's: any rank to any */

struct rect {
	int x, y, w, h; /* column, row of the top-left corner; w, h > 0 when used */
};

struct point {
	int x, y;
};

/* How much a panel shows, from most to least. */
enum layout_level {
	LAYOUT_FULL = 0,    /* values, formula, memory bar, traffic */
	LAYOUT_MEDIUM = 1,  /* marks for C's columns, formula, memory in short */
	LAYOUT_COMPACT = 2, /* a line: the columns filled */
};

/* What a panel's body shows: key v cycles through them. */
enum layout_show {
	LAYOUT_SHOW_ALL = 0, /* C, then A's rows, then the B shard, as room allows */
	LAYOUT_SHOW_C,
	LAYOUT_SHOW_A,
	LAYOUT_SHOW_B,
	LAYOUT_SHOWS
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

/* Values of a block are shown when this many of its columns fit (all of
 * them when it has fewer); wider blocks show a window of their columns. */
#define LAYOUT_MIN_VALUE_COLS 4

/* A matrix block a panel can show: its largest size on any rank and the
 * columns one value takes, its separator included (the narrowest readable
 * format, and the one that shows every digit worth showing). */
struct layout_block {
	int rows, cols;
	int min_cell, ideal_cell;
};

/* A way a message went, sender to receiver (a judged run's, as it ran). */
struct layout_route {
	int from, to;
};

/* What the screen must show, beside the terminal's size. */
struct layout_req {
	int n;                 /* devices, 1..LAYOUT_MAX_DEVICES */
	const struct layout_route *routes; /* the links drawn; NULL: the ring's, r -> r + 1 */
	int n_routes;
	int focus;             /* the rank shown large, or -1 for the grid */
	int show;              /* enum layout_show */
	struct layout_block c, a, b; /* C's rows of a rank, A's rows, the B shard */
	int line_w;            /* the widest line a FULL panel shows besides values */
	int medium_w;          /* the widest line a MEDIUM panel shows */
	int train_lines;       /* lines a FULL panel adds for the training step (dA, dB) */
	int table;             /* the schedule table, as a panel when there is room */
	int table_w, table_h;  /* its size showing everything, borders included */
	int table_min_w, table_min_h; /* the smallest worth showing */
	int timeline_h;        /* the timeline's rows showing every lane, 0: no timeline */
	const char *info[LAYOUT_MAX_INFO]; /* paragraphs: every line is reserved */
	int n_info;
	int info_min;          /* lines kept for them however few they take (a run's most) */
	int extra_lines;       /* optional lines after them, given rows left over */
	int footer_w[LAYOUT_MAX_ITEMS]; /* the key bar's hints, widths in order */
	int n_footer;
	int footer_min;        /* lines kept for the key bar however few its hints take */
};

/* What a panel's body shows of one block. */
struct layout_sect {
	int on;    /* the section is there */
	int cell;  /* columns per value; 0: no values (C: marks and its size) */
	int cols;  /* values shown a row (a window when fewer than the block's) */
	int rows;  /* rows of values shown */
	int cut;   /* a last line says what is not shown */
	int height; /* lines it takes in all */
};

struct layout_plan {
	int level;
	struct layout_sect c, a, b;
	int height; /* inner lines used */
};

struct layout_link {
	int from, to; /* ranks: the arrow points from `from` to `to` */
	int lane;     /* by the lanes: the ring's closing arrow, or its reverse */
	int back;     /* to the previous rank: the ring's path from `to`, reversed */
	int detour;   /* to neither neighbour: by the gap below `from` and the one left of `to` */
	int dy;       /* rows (columns, going down) from the middle: two arrows, one each way */
};

struct layout {
	int ok;                   /* everything fits */
	int need_cols, need_rows; /* when !ok: the smallest size that fits */
	int cols, rows, n;
	int level;                /* the grid's panels' level (enum layout_level) */
	int focus;                /* the rank shown large, -1 for the grid */
	int grid_cols, grid_rows;
	struct rect status;       /* row 0 */
	struct rect panels;       /* the whole panel area, lanes and table included */
	struct rect panel[LAYOUT_MAX_DEVICES]; /* rank r's panel; w == 0: not shown */
	struct layout_plan plan[LAYOUT_MAX_DEVICES]; /* what it shows */
	int grid_x[LAYOUT_MAX_DEVICES], grid_y[LAYOUT_MAX_DEVICES]; /* its cell in the grid */
	struct rect table;        /* the schedule table's panel; w == 0: none */
	struct rect timeline;     /* the timeline, the panel area's last rows; w == 0: none */
	struct rect info;         /* the paragraphs, then the optional lines */
	int info_lines;           /* lines kept for the paragraphs (the rest are optional) */
	struct rect footer;       /* the key bar, the last rows */
	int hgap, vgap;           /* columns between panels in a row, rows between grid rows */
	int lane_x, lane_y;       /* the left lane's first column, the bottom lane's row */
	struct layout_link link[LAYOUT_MAX_LINKS];
	int n_links;
};

/* Lays out req->n devices on a cols x rows terminal for what req says the
 * screen shows.  Always fills need_cols/need_rows and sets ok = 0 when the
 * terminal is smaller; then no other field is meaningful.  Guarantees when
 * ok: every rectangle lies inside the screen; status, panels, info and
 * footer tile it top to bottom without overlap; no two panels overlap, nor a
 * panel and the table; they lie inside the panel area; every paragraph's
 * every line fits in the info area and every hint in the footer; each
 * panel's plan fits inside it; and in the grid rank r+1 is next to rank r
 * (left, right or below), in snake order. */
void layout_compute(struct layout *l, int cols, int rows, const struct layout_req *req);

/* The plan of an iw x ih panel body (borders excluded) at a level. */
void layout_plan_panel(const struct layout_req *req, int level, int iw, int ih,
		       struct layout_plan *p);

/* The panel size, borders included, that shows everything at a level. */
void layout_want(const struct layout_req *req, int level, int *w, int *h);

/* The cells of link i's arrow, in order from the edge of its `from` panel
 * to the edge of its `to` panel, through the gaps and lanes only (never
 * inside a panel).  The ring's closing link goes down to the bottom lane,
 * left to the left lane and up to rank 0; a link against the ring takes
 * the ring's path backwards; a detour (to a rank neither next nor
 * previous) goes down into the gap below its sender, along it to the gap
 * left of its receiver, and up or down that gap into it.  In focus, only
 * panels side by side are linked.  Returns the cells written (at most
 * max, the first ones). */
int layout_link_path(const struct layout *l, int i, struct point *pts, int max);

/* The route of rank `from`'s rows of C to rank 0 at the gather, through the
 * gaps and lanes only: down into the gap (or lane) below its panel, left
 * along it to the left lane and up to rank 0's left edge.  Returns the
 * cells (0 when from is 0, in focus, or when n == 1). */
int layout_gather_path(const struct layout *l, int from, struct point *pts, int max);

/* An overlay of want_w x want_h centred on the screen, clipped to it with a
 * margin of one cell.  Returns 1 when it shows everything it wants. */
int layout_overlay(const struct layout *l, int want_w, int want_h, struct rect *box);

/* The "terminal too small" message for a screen of cols x rows that needs
 * need_cols x need_rows: the longest wording whose lines all fit, down to
 * "need WxH" alone, so the size to reach stays readable down to 10x1.
 * Writes up to 4 lines of at most 39 characters; returns how many. */
#define LAYOUT_SMALL_LINES 4
int layout_too_small(int cols, int rows, int need_cols, int need_rows,
		     char line[LAYOUT_SMALL_LINES][40]);

/* The help's pages on a screen of `rows`: lines a page (every one when the
 * box of lines + 2 fits, else what a box of rows - 2 holds, at least one)
 * and how many pages the n lines take. */
int layout_help_per_page(int rows, int n);
int layout_help_pages(int rows, int n);

/* Greedy word wrap of text at width: line i is text[start[i] .. start[i] +
 * len[i]), spaces at the breaks dropped, a word longer than a line cut.
 * Writes at most max lines, returns how many there are. */
int layout_wrap(const char *text, int width, int *start, int *len, int max);

/* Items of widths w[0..n) placed left to right with gap columns between
 * them, a new line when the next does not fit in width: line[i] and x[i]
 * (from 0) of each (either may be NULL).  Returns the lines used. */
int layout_wrap_items(const int *w, int n, int width, int gap, int *line, int *x);

#define LAYOUT_FOOTER_GAP 2 /* columns between two hints */

#endif
