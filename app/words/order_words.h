/* order_words: how a ring transfer orders its calls, in a line an order,
 * for batch mode's header and the deadlock lab's captions.  The orders and
 * which rank sends first are the engine's (<distmm/order.h>). */
#ifndef APP_ORDER_WORDS_H
#define APP_ORDER_WORDS_H

#include <distmm/order.h>

/* One line: what each rank does ("even ranks send first, odd ranks receive
 * first"); "?" for no order. */
const char *orderw_describe(enum dm_order order);

#endif
