/* iv_words: the interview's own words (see iv_words.h).  The starter and
 * the tasks are the exercise's (its statement and notes, as the candidate
 * is given them); the hints point, then give the idea, then the shape of
 * the fix in a few lines of pseudocode, never the solution. */
#include "interview/iv_words.h"

#include <stddef.h>

#include "interview/interview.h"

const char *ivw_starter(void)
{
	return "import threading\n"
	       "import numpy as np\n"
	       "from queue import Queue\n"
	       "\n"
	       "\n"
	       "class Communicator:\n"
	       "    \"\"\"Simulates inter-device communication using Queues.\"\"\"\n"
	       "\n"
	       "    def __init__(self, num_devices: int):\n"
	       "        self.num_devices = num_devices\n"
	       "        self.inboxes = [Queue() for _ in range(num_devices)]\n"
	       "\n"
	       "    def send(self, src: int, dst: int, data: np.ndarray) -> None:\n"
	       "        self.inboxes[dst].put((src, data))\n"
	       "\n"
	       "    def recv(self, dst: int) -> tuple:\n"
	       "        return self.inboxes[dst].get()\n"
	       "\n"
	       "\n"
	       "def _compute_fn(comm, rank, a_chunk, b, result):\n"
	       "    \"\"\"TODO: per-device compute for Data Parallel.\"\"\"\n"
	       "    pass\n"
	       "\n"
	       "\n"
	       "def dp_mat_mul(a: np.ndarray, b: np.ndarray, num_devices: int) -> np.ndarray:\n"
	       "    comm = Communicator(num_devices)\n"
	       "    result = [None]\n"
	       "    a_chunks = np.array_split(a, num_devices, axis=0)\n"
	       "    threads = []\n"
	       "    for rank in range(num_devices):\n"
	       "        t = threading.Thread(target=_compute_fn,\n"
	       "                             args=(comm, rank, a_chunks[rank], b, result))\n"
	       "        threads.append(t)\n"
	       "        t.start()\n"
	       "    for t in threads:\n"
	       "        t.join()\n"
	       "    return result[0]\n"
	       "\n"
	       "\n"
	       "def fsdp_mat_mul(a: np.ndarray, b: np.ndarray, num_devices: int) -> np.ndarray:\n"
	       "    \"\"\"\n"
	       "    Fully Sharded Data Parallel.\n"
	       "    A is row-sharded, B is column-sharded across devices.\n"
	       "    Use all-gather: rotate B shards, each device accumulates partial results.\n"
	       "    \"\"\"\n"
	       "    pass\n"
	       "\n"
	       "\n"
	       "if __name__ == \"__main__\":\n"
	       "    M, K, N, num_devices = 8, 6, 4, 2\n"
	       "    a = np.random.rand(M, K)\n"
	       "    b = np.random.rand(K, N)\n"
	       "    expected = a @ b\n"
	       "    result_dp = dp_mat_mul(a, b, num_devices)\n"
	       "    assert np.allclose(result_dp, expected)\n"
	       "    result_fsdp = fsdp_mat_mul(a, b, num_devices)\n"
	       "    assert np.allclose(result_fsdp, expected)\n"
	       "    print(\"ok\")\n";
}

const char *ivw_part_name(int part)
{
	switch (part) {
	case IV_PART_DP: return "DP";
	case IV_PART_FSDP: return "FSDP";
	case IV_PART_FOLLOW: return "follow-up";
	default: return "done";
	}
}

const char *ivw_part_function(int part)
{
	return part == IV_PART_DP ? "dp_mat_mul" : "fsdp_mat_mul";
}

const char *ivw_task(int part)
{
	switch (part) {
	case IV_PART_DP:
		return "Complete data-parallel matmul: each device computes a_chunk @ b and sends "
		       "the partial result to rank 0; rank 0 concatenates row-wise. The final "
		       "assertion is np.allclose(result, a @ b), for any num_devices that evenly "
		       "divides M and N, including num_devices = 1.";
	case IV_PART_FSDP:
		return "Implement fully-sharded data-parallel matmul from scratch: both A (rows) "
		       "and B (columns) are sharded; over num_devices rounds, every device rotates "
		       "its B shard to its right neighbor and accumulates the partial product into "
		       "the correct column slice of its local output. The final assertion is "
		       "np.allclose(result, a @ b), for any num_devices that evenly divides M and "
		       "N, including num_devices = 1.";
	case IV_PART_FOLLOW:
		return "The interviewer's follow-ups: the collectives, the memory argument, ring "
		       "against tree, tensor parallel. Each answer is a number or an expression.";
	default:
		return "The session is over: the report is beside your file.";
	}
}

struct ivw_hint_row {
	int part;     /* IV_PART_DP or IV_PART_FSDP */
	int verdict;  /* JUDGE_*, -1 the file did not load, -2 the part's own */
	const char *level[IV_HINT_LEVELS];
	const char *practise;
};

static const struct ivw_hint_row ivw_hints[] = {
	{ IV_PART_DP, -2,
	  { "Look at _compute_fn: it is the only function DP needs you to write. What does "
	    "rank 0 do that the other ranks do not?",
	    "Every rank computes its own rows, a_chunk @ b. Ranks 1..n-1 send theirs to rank "
	    "0; rank 0 receives n - 1 blocks and puts them in rank order, its own first.",
	    "part = a_chunk @ b\nif rank != 0: comm.send(rank, 0, part); return\n"
	    "blocks = {0: part}; repeat n - 1 times: src, blk = comm.recv(0); blocks[src] = blk\n"
	    "result[0] = stack the blocks by rank, row-wise" },
	  "DP's gather: rank 0 keeps its own rows and orders the others by sender" },
	{ IV_PART_DP, JUDGE_WRONG_SHAPE,
	  { "Print what result[0] holds when dp_mat_mul returns: its type and shape.",
	    "The result is M x N: rank 0 must gather every rank's rows, its own included, "
	    "before it writes result[0].",
	    "rank 0: blocks = {0: own}; for _ in range(n - 1): src, blk = comm.recv(0); "
	    "blocks[src] = blk\nresult[0] = np.vstack([blocks[r] for r in range(n)])" },
	  "the gather: every rank's rows, rank 0's own included, into one M x N array" },
	{ IV_PART_DP, JUDGE_WRONG_RESULT,
	  { "Print the order in which rank 0 receives the blocks (the src of each recv).",
	    "Blocks arrive in whatever order the threads run; the row they belong to is the "
	    "sender's rank, not the arrival order.",
	    "src, blk = comm.recv(0); blocks[src] = blk   # key by sender\n"
	    "np.vstack([blocks[r] for r in range(n)])" },
	  "order a gather by sender, never by arrival" },
	{ IV_PART_FSDP, -2,
	  { "Start from n = 2 by hand: which shard of B does each rank hold at step 0, and at "
	    "step 1?",
	    "Each rank keeps its rows of A and its local C; at each of n steps it multiplies "
	    "by the shard it holds, writes those columns, then passes the shard right.",
	    "for s in range(n):\n  k = index of the shard held now\n"
	    "  out[:, cols(k)] = a_rows @ shard\n  if s < n - 1: pass shard to (r + 1) % n, "
	    "take one from (r - 1) % n" },
	  "the ring's loop: compute, then pass right, n - 1 times" },
	{ IV_PART_FSDP, JUDGE_WRONG_RESULT,
	  { "Print, at each step, which shard index rank 0 thinks it holds, for n = 3.",
	    "Each rank holds shard (r - s) mod n at step s: shards move right, so after s "
	    "steps rank r holds the one that started s ranks to its left.",
	    "k = (r - s) % n     # or send (owner, shard) tuples and read owner\n"
	    "out[:, k*w:(k+1)*w] = a_rows @ shard" },
	  "the shard index: (r - s) mod n, or carry the owner with the shard" },
	{ IV_PART_FSDP, JUDGE_WRONG_NEIGHBOUR,
	  { "Print the destination of each send: is it the same neighbour for every rank?",
	    "The ring goes one way: every rank sends to (r + 1) mod n and receives from "
	    "(r - 1) mod n.",
	    "comm.send(r, (r + 1) % n, shard)\nsrc, shard = comm.recv(r)   # src is (r - 1) % n" },
	  "the ring's direction: send to (r + 1) mod n" },
	{ IV_PART_FSDP, JUDGE_DEADLOCK,
	  { "Which call is each rank blocked in? Print before and after each send and recv.",
	    "If every rank receives first, nobody sends; with bounded inboxes, if every rank "
	    "sends first, nobody receives. Break the symmetry.",
	    "if r % 2 == 0: send, then recv\nelse: recv (keep it aside), send, then use it" },
	  "the order of a transfer's send and receive: parity, or a receive thread" },
	{ IV_PART_FSDP, JUDGE_NOT_A_RING,
	  { "Count the messages each rank sends: the ring sends n - 1 shards a rank.",
	    "FSDP holds one shard of B at a time (plus the one arriving): gathering all of B "
	    "first is DP's memory, not FSDP's.",
	    "for s in range(n): compute with the shard held; if s < n - 1: pass it right, "
	    "take the next from the left" },
	  "the ring itself: pass shards, never gather B" },
	{ IV_PART_FSDP, JUDGE_MUTATED_PAYLOAD,
	  { "Is the array you send written again after the send?",
	    "Queue passes a reference: the receiver reads the same array the sender keeps "
	    "using. Send a fresh array, or never touch it again.",
	    "comm.send(r, (r + 1) % n, shard)     # and then only rebind the name:\n"
	    "_, shard = comm.recv(r)              # not shard[...] = ..." },
	  "a sent array belongs to the receiver: never write into it again" },
	{ IV_PART_FSDP, JUDGE_WRONG_SHAPE,
	  { "Print what fsdp_mat_mul returns: its type and shape.",
	    "Each rank fills its rows of C, all N columns; the function stacks the ranks' "
	    "rows in rank order once every thread is joined.",
	    "res[r] = out   # rank r's rows x N\njoin every thread\n"
	    "return np.vstack(res)" },
	  "the result: each rank's rows, stacked in rank order" },
};

#define IVW_N_HINTS (sizeof ivw_hints / sizeof ivw_hints[0])

/* The row for the part and verdict, else the part's own. */
static const struct ivw_hint_row *ivw_row(int part, int verdict)
{
	const struct ivw_hint_row *own = NULL;
	if (part != IV_PART_DP)
		part = IV_PART_FSDP;
	for (size_t i = 0; i < IVW_N_HINTS; i++) {
		if (ivw_hints[i].part != part)
			continue;
		if (ivw_hints[i].verdict == verdict)
			return &ivw_hints[i];
		if (ivw_hints[i].verdict == -2)
			own = &ivw_hints[i];
	}
	return own;
}

const char *ivw_hint(int part, int verdict, int level)
{
	if (level < 1)
		level = 1;
	if (level > IV_HINT_LEVELS)
		level = IV_HINT_LEVELS;
	if (verdict == JUDGE_EXCEPTION || verdict == JUDGE_TIMEOUT || verdict == JUDGE_UNJOINED) {
		static const char *const run[IV_HINT_LEVELS] = {
			"Read the explanation's line number: the judge names your line and what "
			"each thread was doing.",
			"A thread that raised or spins never reaches its send, and the others wait "
			"for it; every thread you start must be joined before you read the result.",
			"for t in threads: t.start()\nfor t in threads: t.join()\n"
			"# wait on a queue or an Event, never on a plain variable",
		};
		return run[level - 1];
	}
	return ivw_row(part, verdict)->level[level - 1];
}

const char *ivw_hint_level(int level)
{
	static const char *const names[IV_HINT_LEVELS] = { "a pointer", "the idea",
							   "the shape of the fix" };
	return level >= 1 && level <= IV_HINT_LEVELS ? names[level - 1] : "";
}

const char *ivw_practise(int part, int verdict)
{
	if (verdict == JUDGE_EXCEPTION || verdict == JUDGE_TIMEOUT || verdict == JUDGE_UNJOINED)
		return "threads: start them all, join them all, wait on queues, not variables";
	if (verdict == -1)
		return "a file that loads: run it once yourself before you save it for the judge";
	return ivw_row(part, verdict)->practise;
}
