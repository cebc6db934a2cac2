/* order_words: the orders in words (see order_words.h). */
#include "order_words.h"

static const char *const orderw_lines[ORDER_COUNT] = {
	[ORDER_PARITY] = "even ranks send first, odd ranks receive first",
	[ORDER_SEND_FIRST] = "every rank sends, then receives (the naive loop)",
	[ORDER_RECV_FIRST] = "every rank receives, then sends",
	[ORDER_RECV_THREAD] = "every rank starts a receive thread, sends, then joins the thread",
	[ORDER_SENDRECV] = "every rank sends and receives in one call (like MPI_Sendrecv)",
	[ORDER_BUFFERED] = ("every rank copies its shard into a send buffer and goes on at once "
			    "(like MPI_Bsend), then receives"),
};

const char *orderw_describe(enum dm_order order)
{
	return (unsigned)order < ORDER_COUNT ? orderw_lines[order] : "?";
}
