/* order: names and the call order of the plain orders (see order.h). */
#include <distmm/order.h>

#include <string.h>

static const char *const order_names[ORDER_COUNT] = {
	[ORDER_PARITY] = "parity",           [ORDER_SEND_FIRST] = "send-first",
	[ORDER_RECV_FIRST] = "recv-first",   [ORDER_RECV_THREAD] = "recv-thread",
	[ORDER_SENDRECV] = "sendrecv",       [ORDER_BUFFERED] = "buffered",
};

const char *order_name(enum dm_order order)
{
	return (unsigned)order < ORDER_COUNT ? order_names[order] : "?";
}

int order_parse_order(const char *name)
{
	if (strcmp(name, "naive") == 0)
		return ORDER_SEND_FIRST;
	for (int o = ORDER_PARITY; o <= ORDER_RECV_FIRST; o++)
		if (strcmp(name, order_names[o]) == 0)
			return o;
	return -1;
}

int order_parse_fix(const char *name)
{
	for (int o = 0; o < ORDER_COUNT; o++)
		if (order_is_fix(o) && strcmp(name, order_names[o]) == 0)
			return o;
	return -1;
}

int order_is_fix(enum dm_order order)
{
	return order == ORDER_PARITY || order == ORDER_RECV_THREAD || order == ORDER_SENDRECV ||
	       order == ORDER_BUFFERED;
}

int order_sends_first(enum dm_order order, int rank)
{
	switch (order) {
	case ORDER_SEND_FIRST:
	case ORDER_BUFFERED:
		return 1;
	case ORDER_RECV_FIRST:
		return 0;
	default:
		return rank % 2 == 0;
	}
}
