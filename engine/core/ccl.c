/* ccl: the collectives family's arithmetic (see ccl.h).  An algorithm is
 * one or two blocks of phases, each block one primitive (ccl_blocks): the
 * count, a phase's primitive and what a rank does in it all read that one
 * layout, so that they cannot disagree.  The ring's chunk formulas are the
 * training step's (schedule.h), not written again. */
#include <distmm/ccl.h>

#include <distmm/schedule.h>
#include <distmm/split.h>

static const char *const ccl_kind_names[CCL_KIND_COUNT] = {
	"allreduce", "allgather", "reducescatter", "broadcast", "reduce",
};
static const char *const ccl_kind_titles[CCL_KIND_COUNT] = {
	"all-reduce", "all-gather", "reduce-scatter", "broadcast", "reduce",
};
static const char *const ccl_algo_names[CCL_ALGO_COUNT] = { "ring", "tree", "rhd" };

const char *ccl_kind_name(enum ccl_kind kind)
{
	return (unsigned)kind < CCL_KIND_COUNT ? ccl_kind_names[kind] : "?";
}

const char *ccl_kind_title(enum ccl_kind kind)
{
	return (unsigned)kind < CCL_KIND_COUNT ? ccl_kind_titles[kind] : "?";
}

const char *ccl_algo_name(enum ccl_algo algo)
{
	return (unsigned)algo < CCL_ALGO_COUNT ? ccl_algo_names[algo] : "?";
}

/* i of names[count] equal to name, or -1. */
static int ccl_find(const char *const *names, int count, const char *name)
{
	for (int i = 0; name && i < count; i++) {
		const char *a = names[i], *b = name;
		while (*a && *a == *b)
			a++, b++;
		if (!*a && !*b)
			return i;
	}
	return -1;
}

int ccl_parse_kind(const char *name)
{
	return ccl_find(ccl_kind_names, CCL_KIND_COUNT, name);
}

int ccl_parse_algo(const char *name)
{
	return ccl_find(ccl_algo_names, CCL_ALGO_COUNT, name);
}

static int ccl_pow2(int n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

int ccl_levels(int n)
{
	int l = 0;
	while (l < 31 && (1 << l) < n)
		l++;
	return l;
}

int ccl_check(enum ccl_kind kind, enum ccl_algo algo, int n, struct dm_err *err)
{
	if ((unsigned)kind >= CCL_KIND_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown collective %d", (int)kind);
	if ((unsigned)algo >= CCL_ALGO_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown algorithm %d", (int)algo);
	if (n < 1)
		return dm_err_set(err, DM_EINVAL, "a collective needs at least one rank, not %d", n);
	if (algo != CCL_RHD)
		return 0;
	if (kind == CCL_BROADCAST || kind == CCL_REDUCE)
		return dm_err_set(err, DM_EINVAL, "rhd (recursive halving-doubling) runs allreduce, "
				  "allgather and reducescatter, not %s (use ring or tree)",
				  ccl_kind_name(kind));
	if (!ccl_pow2(n))
		return dm_err_set(err, DM_EINVAL, "rhd (recursive halving-doubling) needs a power of "
				  "two ranks, not %d (use ring or tree)", n);
	return 0;
}

int ccl_applies(enum ccl_kind kind, enum ccl_algo algo, int n)
{
	return ccl_check(kind, algo, n, NULL) == 0;
}

/* The blocks of phases kind by algo makes on n ranks: up to two, each a
 * primitive and its number of phases.  Returns how many. */
static int ccl_blocks(enum ccl_kind kind, enum ccl_algo algo, int n, enum ccl_prim prim[2],
		      int count[2])
{
	int ring = n - 1, L = ccl_levels(n);
	if (n <= 1)
		return 0;
	count[0] = count[1] = algo == CCL_RING ? ring : L; /* rhd: L = log2 n */
	switch (algo) {
	case CCL_RING:
		switch (kind) {
		case CCL_ALLREDUCE: prim[0] = CCL_P_RING_RS, prim[1] = CCL_P_RING_AG; return 2;
		case CCL_ALLGATHER: prim[0] = CCL_P_RING_AG; return 1;
		case CCL_REDUCESCATTER: prim[0] = CCL_P_RING_RS; return 1;
		case CCL_BROADCAST: prim[0] = CCL_P_CHAIN_BCAST; count[0] = 2 * ring; return 1;
		case CCL_REDUCE: prim[0] = CCL_P_CHAIN_REDUCE; count[0] = 2 * ring; return 1;
		default: return 0;
		}
	case CCL_TREE:
		switch (kind) {
		case CCL_ALLREDUCE: prim[0] = CCL_P_TREE_REDUCE, prim[1] = CCL_P_TREE_BCAST; return 2;
		case CCL_ALLGATHER: prim[0] = CCL_P_TREE_GATHER, prim[1] = CCL_P_TREE_BCAST; return 2;
		case CCL_REDUCESCATTER:
			prim[0] = CCL_P_TREE_REDUCE, prim[1] = CCL_P_TREE_SCATTER;
			return 2;
		case CCL_BROADCAST: prim[0] = CCL_P_TREE_BCAST; return 1;
		case CCL_REDUCE: prim[0] = CCL_P_TREE_REDUCE; return 1;
		default: return 0;
		}
	case CCL_RHD:
		switch (kind) {
		case CCL_ALLREDUCE: prim[0] = CCL_P_HALVING, prim[1] = CCL_P_DOUBLING; return 2;
		case CCL_ALLGATHER: prim[0] = CCL_P_DOUBLING; return 1;
		case CCL_REDUCESCATTER: prim[0] = CCL_P_HALVING; return 1;
		default: return 0;
		}
	default:
		return 0;
	}
}

int ccl_phase_count(enum ccl_kind kind, enum ccl_algo algo, int n)
{
	enum ccl_prim prim[2];
	int count[2], blocks = ccl_blocks(kind, algo, n, prim, count), total = 0;
	for (int b = 0; b < blocks; b++)
		total += count[b];
	return total;
}

enum ccl_prim ccl_phase_prim(enum ccl_kind kind, enum ccl_algo algo, int n, int phase,
			     int *step)
{
	enum ccl_prim prim[2];
	int count[2], blocks = ccl_blocks(kind, algo, n, prim, count);
	*step = 0;
	for (int b = 0; b < blocks && phase >= 0; b++) {
		if (phase < count[b]) {
			*step = phase;
			return prim[b];
		}
		phase -= count[b];
	}
	return CCL_P_NONE;
}

const char *ccl_prim_name(enum ccl_prim prim)
{
	static const char *const names[CCL_PRIM_COUNT] = {
		"reduce-scatter", "all-gather",	 "chain broadcast", "chain reduce", "tree reduce",
		"tree broadcast", "tree gather", "tree scatter",    "halving",	    "doubling",
	};
	return (unsigned)prim < CCL_PRIM_COUNT ? names[prim] : "?";
}

static int ccl_min(int a, int b)
{
	return a < b ? a : b;
}

/* The ranges of one transfer, as seen by the sender or the receiver. */
static void ccl_send(struct ccl_xfer *x, int to, int c0, int c1)
{
	x->send_to = to;
	x->send_c0 = c0;
	x->send_c1 = c1;
}

static void ccl_recv(struct ccl_xfer *x, int from, int c0, int c1, int reduce)
{
	x->recv_from = from;
	x->recv_c0 = c0;
	x->recv_c1 = c1;
	x->reduce = reduce;
}

/* The pipelined chains: hop h passes chunk t - h at step t (h counted from
 * the chain's start: rank h from rank 0, rank n-1-h towards it). */
static void ccl_chain(struct ccl_xfer *x, int n, int t, int r, int towards_root)
{
	int out_hop = towards_root ? n - 1 - r : r;      /* the hop r sends on */
	int in_hop = out_hop - 1;                        /* the one it receives on */
	int has_out = towards_root ? r >= 1 : r <= n - 2;
	int has_in = towards_root ? r <= n - 2 : r >= 1;
	int c_out = t - out_hop, c_in = t - in_hop;
	if (has_out && c_out >= 0 && c_out < n)
		ccl_send(x, towards_root ? r - 1 : r + 1, c_out, c_out + 1);
	if (has_in && c_in >= 0 && c_in < n)
		ccl_recv(x, towards_root ? r + 1 : r - 1, c_in, c_in + 1, towards_root);
}

/* A level of the binomial tree: rank r is the upper of a pair at level k
 * when r mod 2^(k+1) = 2^k, the lower when r mod 2^(k+1) = 0 and its
 * partner r + 2^k exists.  up: the upper sends (reduce, gather), else the
 * lower (broadcast, scatter); whole: the whole buffer moves, else the
 * upper's subtree [upper, upper + 2^k). */
static void ccl_tree(struct ccl_xfer *x, int n, int k, int r, int up, int whole, int reduce)
{
	int half = 1 << k, upper, lower;
	if (r % (2 * half) == half)
		upper = r, lower = r - half;
	else if (r % (2 * half) == 0 && r + half < n)
		lower = r, upper = r + half;
	else
		return;
	int c0 = whole ? 0 : upper, c1 = whole ? n : ccl_min(upper + half, n);
	int from = up ? upper : lower, to = up ? lower : upper;
	if (r == from)
		ccl_send(x, to, c0, c1);
	else
		ccl_recv(x, from, c0, c1, reduce);
}

void ccl_rank_phase(enum ccl_kind kind, enum ccl_algo algo, int n, int phase, int rank,
		    struct ccl_xfer *x)
{
	int s, L = ccl_levels(n), c, d, lo, partner;
	*x = (struct ccl_xfer){ -1, 0, 0, -1, 0, 0, 0, 0 };
	switch (ccl_phase_prim(kind, algo, n, phase, &s)) {
	case CCL_P_RING_RS:
		c = sched_rs_send_chunk(n, rank, s);
		ccl_send(x, sched_right(n, rank), c, c + 1);
		c = sched_rs_recv_chunk(n, rank, s);
		ccl_recv(x, sched_left(n, rank), c, c + 1, 1);
		break;
	case CCL_P_RING_AG:
		c = sched_ag_send_chunk(n, rank, s);
		ccl_send(x, sched_right(n, rank), c, c + 1);
		c = sched_ag_recv_chunk(n, rank, s);
		ccl_recv(x, sched_left(n, rank), c, c + 1, 0);
		break;
	case CCL_P_CHAIN_BCAST: ccl_chain(x, n, s, rank, 0); break;
	case CCL_P_CHAIN_REDUCE: ccl_chain(x, n, s, rank, 1); break;
	case CCL_P_TREE_REDUCE: ccl_tree(x, n, s, rank, 1, 1, 1); break;
	case CCL_P_TREE_BCAST: ccl_tree(x, n, L - 1 - s, rank, 0, 1, 0); break;
	case CCL_P_TREE_GATHER: ccl_tree(x, n, s, rank, 1, 0, 0); break;
	case CCL_P_TREE_SCATTER: ccl_tree(x, n, L - 1 - s, rank, 0, 0, 0); break;
	case CCL_P_HALVING:
		d = n >> (s + 1); /* the half's size, and the partner's distance */
		partner = rank ^ d;
		lo = rank & ~(2 * d - 1);
		ccl_send(x, partner, (rank & d) ? lo : lo + d, (rank & d) ? lo + d : lo + 2 * d);
		ccl_recv(x, partner, (rank & d) ? lo + d : lo, (rank & d) ? lo + 2 * d : lo + d, 1);
		break;
	case CCL_P_DOUBLING:
		d = 1 << s;
		partner = rank ^ d;
		ccl_send(x, partner, rank & ~(d - 1), (rank & ~(d - 1)) + d);
		ccl_recv(x, partner, partner & ~(d - 1), (partner & ~(d - 1)) + d, 0);
		break;
	default:
		break;
	}
	x->send_first = x->send_to >= 0 && (x->recv_from < 0 || x->send_to > rank);
}

void ccl_input_chunks(enum ccl_kind kind, int n, int rank, int *c0, int *c1)
{
	*c0 = 0;
	*c1 = n;
	if (kind == CCL_ALLGATHER)
		*c0 = rank, *c1 = rank + 1;
	else if (kind == CCL_BROADCAST && rank != 0)
		*c1 = 0;
}

void ccl_output_chunks(enum ccl_kind kind, int n, int rank, int *c0, int *c1)
{
	*c0 = 0;
	*c1 = n;
	if (kind == CCL_REDUCESCATTER)
		*c0 = rank, *c1 = rank + 1;
	else if (kind == CCL_REDUCE && rank != 0)
		*c1 = 0;
}

uint64_t ccl_range_bytes(size_t count, int n, int c0, int c1)
{
	if (c1 <= c0)
		return 0;
	return (uint64_t)(split_offset(count, n, c1) - split_offset(count, n, c0)) * sizeof(double);
}

/* The binomial tree's subtree of r: [r, r + lowbit(r)) cut at n; the root's
 * is everything. */
static void ccl_subtree(int n, int r, int *c0, int *c1)
{
	*c0 = r;
	*c1 = r == 0 ? n : ccl_min(r + (r & -r), n);
}

/* How many children r has in the binomial tree. */
static int ccl_children(int n, int r)
{
	int kids = 0;
	for (int k = 0; k < ccl_levels(n); k++)
		if (r % (2 << k) == 0 && r + (1 << k) < n)
			kids++;
	return kids;
}

/* The bytes rank sends in each primitive, over all its phases. */
static uint64_t ccl_prim_bytes(enum ccl_prim prim, int n, size_t count, int r)
{
	uint64_t S = ccl_range_bytes(count, n, 0, n), w_r = ccl_range_bytes(count, n, r, r + 1);
	uint64_t w_next = ccl_range_bytes(count, n, sched_right(n, r), sched_right(n, r) + 1);
	int c0, c1;
	uint64_t sum = 0;
	switch (prim) {
	case CCL_P_RING_RS: return S - w_r;
	case CCL_P_RING_AG: return S - w_next;
	case CCL_P_CHAIN_BCAST: return r <= n - 2 ? S : 0;
	case CCL_P_CHAIN_REDUCE: return r >= 1 ? S : 0;
	case CCL_P_TREE_REDUCE: return r != 0 ? S : 0;
	case CCL_P_TREE_BCAST: return S * (uint64_t)ccl_children(n, r);
	case CCL_P_TREE_GATHER:
		ccl_subtree(n, r, &c0, &c1);
		return r != 0 ? ccl_range_bytes(count, n, c0, c1) : 0;
	case CCL_P_TREE_SCATTER:
		ccl_subtree(n, r, &c0, &c1);
		return ccl_range_bytes(count, n, c0, c1) - w_r;
	case CCL_P_HALVING: return S - w_r;
	case CCL_P_DOUBLING:
		for (int d = 1; d < n; d *= 2)
			sum += ccl_range_bytes(count, n, r & ~(d - 1), (r & ~(d - 1)) + d);
		return sum;
	default: return 0;
	}
}

uint64_t ccl_sent_bytes(enum ccl_kind kind, enum ccl_algo algo, int n, size_t count, int rank)
{
	enum ccl_prim prim[2];
	int steps[2], blocks = ccl_blocks(kind, algo, n, prim, steps);
	uint64_t sum = 0;
	for (int b = 0; b < blocks; b++)
		sum += ccl_prim_bytes(prim[b], n, count, rank);
	return sum;
}
