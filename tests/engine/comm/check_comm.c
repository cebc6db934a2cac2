/* check_comm: the in-process transport.  Blocking behaviour is tested by
 * its outcome, never by sleeping: a send that must block with no receiver is
 * reported as a deadlock, so the test ends the same way on any machine. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "testutil.h"

static double *tu_payload(double v)
{
	double *p = malloc(sizeof *p);
	ck_assert_ptr_nonnull(p);
	*p = v;
	return p;
}

static int send1(struct comm *c, int src, int dst, int step, double v)
{
	struct comm_msg m = { .src = src, .dst = dst, .step = step, .kind = COMM_SHARD,
			      .index = src, .rows = 1, .cols = 1, .data = tu_payload(v) };
	struct dm_err err;
	return comm_send(c, &m, &err);
}

START_TEST(fifo_per_pair)
{
	struct comm *c;
	struct dm_err err;
	struct comm_msg m;
	ck_assert_int_eq(comm_inproc_new(&c, 3, COMM_UNBOUNDED, 0, &err), 0);
	for (int s = 0; s < 5; s++) {
		ck_assert_int_eq(send1(c, 0, 1, s, s), 0);
		if (s < 3)
			ck_assert_int_eq(send1(c, 2, 1, 10 + s, 10 + s), 0);
	}
	for (int s = 0; s < 3; s++) {
		ck_assert_int_eq(comm_recv(c, 1, 2, 0, COMM_SHARD, &m, &err), 0);
		ck_assert_int_eq(m.src, 2);
		ck_assert_int_eq(m.step, 10 + s);
		free(m.data);
	}
	for (int s = 0; s < 5; s++) {
		ck_assert_int_eq(comm_recv(c, 1, COMM_ANY, 0, COMM_SHARD, &m, &err), 0);
		ck_assert_int_eq(m.src, 0);
		ck_assert_int_eq(m.step, s);
		ck_assert(m.data[0] == s);
		free(m.data);
	}
	comm_destroy(c);
}
END_TEST

START_TEST(payload_moves_not_copies)
{
	struct comm *c;
	struct dm_err err;
	struct comm_msg m;
	double *p = tu_payload(42);
	ck_assert_int_eq(comm_inproc_new(&c, 2, COMM_UNBOUNDED, 0, &err), 0);
	struct comm_msg out = { .src = 0, .dst = 1, .step = 3, .kind = COMM_SHARD, .index = 7,
				.rows = 1, .cols = 1, .data = p };
	ck_assert_int_eq(comm_send(c, &out, &err), 0);
	ck_assert_ptr_null(out.data);
	ck_assert_int_eq(comm_recv(c, 1, 0, 3, COMM_SHARD, &m, &err), 0);
	ck_assert_ptr_eq(m.data, p);
	ck_assert_int_eq(m.index, 7);
	ck_assert_int_eq(m.step, 3);
	free(m.data);
	comm_destroy(c);
}
END_TEST

/* Capacity k: k sends to an idle rank complete, the next one can never
 * complete, and the transport says so instead of hanging. */
START_TEST(capacity_bounds_the_inbox)
{
	static const size_t caps[] = { 0, 1, 2, 5 };
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		struct comm *c;
		struct dm_err err;
		ck_assert_int_eq(comm_inproc_new(&c, 2, caps[i], 0, &err), 0);
		comm_set_idle(c, 1, 1);
		for (size_t k = 0; k < caps[i]; k++)
			ck_assert_int_eq(send1(c, 0, 1, (int)k, 1), 0);
		struct comm_msg m = { .src = 0, .dst = 1, .step = 99, .kind = COMM_SHARD,
				      .rows = 1, .cols = 1, .data = tu_payload(1) };
		ck_assert_int_eq(comm_send(c, &m, &err), DM_EDEADLOCK);
		ck_assert_msg(strstr(err.msg, "rank 0 sends shard (step 99) to rank 1"), "%s", err.msg);
		comm_destroy(c);
	}
}
END_TEST

START_TEST(unbounded_never_blocks)
{
	struct comm *c;
	struct dm_err err;
	ck_assert_int_eq(comm_inproc_new(&c, 2, COMM_UNBOUNDED, 0, &err), 0);
	comm_set_idle(c, 1, 1);
	for (int k = 0; k < 1000; k++)
		ck_assert_int_eq(send1(c, 0, 1, k, k), 0);
	comm_destroy(c); /* frees the 1000 messages nobody took */
}
END_TEST

struct pingpong {
	struct comm *c;
	int rank, count, rc;
};

static void *pingpong_main(void *arg)
{
	struct pingpong *p = arg;
	struct dm_err err;
	struct comm_msg m;
	int other = 1 - p->rank;
	for (int i = 0; i < p->count; i++) {
		/* rank 0 sends first, rank 1 receives first: the order that never deadlocks */
		for (int half = 0; half < 2; half++) {
			if ((half == 0) == (p->rank == 0)) {
				if ((p->rc = send1(p->c, p->rank, other, i, i)))
					return NULL;
			} else {
				if ((p->rc = comm_recv(p->c, p->rank, other, i, COMM_SHARD, &m, &err)))
					return NULL;
				if (m.step != i || m.data[0] != i)
					p->rc = -100;
				free(m.data);
				if (p->rc)
					return NULL;
			}
		}
	}
	return NULL;
}

START_TEST(pingpong_in_order_at_any_capacity)
{
	static const size_t caps[] = { 0, 1, 3, COMM_UNBOUNDED };
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		struct comm *c;
		struct dm_err err;
		pthread_t t[2];
		struct pingpong p[2];
		ck_assert_int_eq(comm_inproc_new(&c, 2, caps[i], 10000, &err), 0);
		for (int r = 0; r < 2; r++) {
			p[r] = (struct pingpong){ c, r, 5000, 0 };
			pthread_create(&t[r], NULL, pingpong_main, &p[r]);
		}
		for (int r = 0; r < 2; r++) {
			pthread_join(t[r], NULL);
			ck_assert_int_eq(p[r].rc, 0);
		}
		comm_destroy(c);
	}
}
END_TEST

/* How a ring driver makes its transfer: the orders and fixes of order.h,
 * written out over the transport's calls alone. */
enum ring_how { RING_PARITY, RING_SEND_FIRST, RING_RECV_FIRST, RING_SENDRECV, RING_BUFFERED,
		RING_RX_THREAD };

struct ringdev {
	struct comm *c;
	int rank, n, how, rc;
	double got;
	char msg[DM_ERR_MSG_MAX];
};

/* The receive-thread fix's second thread, for one receive. */
static void *ring_rx_main(void *arg)
{
	struct ringdev *d = arg;
	struct dm_err err = { 0, "" };
	struct comm_msg m;
	int left = (d->rank + d->n - 1) % d->n;
	if (!(d->rc = comm_rx_recv(d->c, d->rank, left, 0, COMM_SHARD, &m, &err))) {
		d->got = *m.data;
		free(m.data);
	} else {
		memcpy(d->msg, err.msg, sizeof d->msg);
	}
	return NULL;
}

static int ring_recv(struct ringdev *d, int left, struct dm_err *err)
{
	struct comm_msg m;
	int rc = comm_recv(d->c, d->rank, left, 0, COMM_SHARD, &m, err);
	if (!rc) {
		d->got = *m.data;
		free(m.data);
	}
	return rc;
}

static void *ring_main(void *arg)
{
	struct ringdev *d = arg;
	struct dm_err err = { 0, "" };
	int right = (d->rank + 1) % d->n, left = (d->rank + d->n - 1) % d->n;
	struct comm_msg m = { .src = d->rank, .dst = right, .step = 0, .kind = COMM_SHARD,
			      .index = d->rank, .rows = 1, .cols = 1, .data = tu_payload(d->rank) };
	if (d->how == RING_SENDRECV) {
		struct comm_msg got;
		if (!(d->rc = comm_sendrecv(d->c, &m, left, 0, COMM_SHARD, &got, &err))) {
			d->got = *got.data;
			free(got.data);
		}
	} else if (d->how == RING_RX_THREAD) {
		struct ringdev rx = *d;
		pthread_t t;
		comm_rx_arm(d->c, d->rank);
		pthread_create(&t, NULL, ring_rx_main, &rx);
		d->rc = comm_send(d->c, &m, &err);
		int jrc = comm_rx_join(d->c, d->rank, left, 0, COMM_SHARD, &err);
		pthread_join(t, NULL);
		if (!d->rc)
			d->rc = jrc ? jrc : rx.rc;
		d->got = rx.got;
	} else if (d->how == RING_BUFFERED ||
		   (d->how != RING_RECV_FIRST && (d->how == RING_SEND_FIRST || d->rank % 2 == 0))) {
		d->rc = d->how == RING_BUFFERED ? comm_bsend(d->c, &m, &err) : comm_send(d->c, &m, &err);
		if (!d->rc)
			d->rc = ring_recv(d, left, &err);
	} else {
		if (!(d->rc = ring_recv(d, left, &err)))
			d->rc = comm_send(d->c, &m, &err);
		else
			free(m.data);
	}
	memcpy(d->msg, err.msg, sizeof d->msg);
	comm_set_exited(d->c, d->rank);
	return NULL;
}

static void ring_once(int n, size_t cap, int how, int want)
{
	struct comm *c;
	struct dm_err err;
	pthread_t t[64];
	struct ringdev d[64];
	ck_assert_int_eq(comm_inproc_new(&c, n, cap, 0, &err), 0);
	for (int r = 0; r < n; r++) {
		d[r] = (struct ringdev){ .c = c, .rank = r, .n = n, .how = how, .got = -1 };
		pthread_create(&t[r], NULL, ring_main, &d[r]);
	}
	for (int r = 0; r < n; r++)
		pthread_join(t[r], NULL);
	for (int r = 0; r < n; r++) {
		ck_assert_msg(d[r].rc == want, "n=%d cap=%zu how=%d rank %d: rc %d (%s)", n, cap,
			      how, r, d[r].rc, d[r].msg);
		if (want == 0) /* each got its left neighbour's message */
			ck_assert_msg(d[r].got == (r + n - 1) % n, "n=%d how=%d rank %d got %g", n,
				      how, r, d[r].got);
	}
	comm_destroy(c);
}

START_TEST(naive_ring_deadlocks_only_when_synchronous)
{
	for (int n = 2; n <= 16; n++) {
		ring_once(n, 0, RING_SEND_FIRST, DM_EDEADLOCK);
		ring_once(n, 0, RING_PARITY, 0);
		ring_once(n, 1, RING_SEND_FIRST, 0);
		ring_once(n, COMM_UNBOUNDED, RING_SEND_FIRST, 0);
	}
}
END_TEST

/* Receiving first everywhere hangs at any capacity; the three fixes that
 * are more than an order complete at every one, odd rings included. */
START_TEST(orders_and_fixes_at_every_capacity)
{
	static const size_t caps[] = { 0, 1, 2, COMM_UNBOUNDED };
	for (int n = 2; n <= 9; n++)
		for (size_t k = 0; k < 4; k++) {
			ring_once(n, caps[k], RING_RECV_FIRST, DM_EDEADLOCK);
			ring_once(n, caps[k], RING_PARITY, 0);
			ring_once(n, caps[k], RING_SENDRECV, 0);
			ring_once(n, caps[k], RING_BUFFERED, 0);
			ring_once(n, caps[k], RING_RX_THREAD, 0);
		}
}
END_TEST

/* A buffered send returns at capacity 0 with nobody receiving. */
START_TEST(buffered_send_never_waits)
{
	struct comm *c;
	struct dm_err err;
	ck_assert_int_eq(comm_inproc_new(&c, 2, 0, 0, &err), 0);
	for (int i = 0; i < 3; i++) {
		struct comm_msg m = { .src = 0, .dst = 1, .step = i, .kind = COMM_SHARD, .index = 0,
				      .rows = 1, .cols = 1, .data = tu_payload(i) };
		ck_assert_int_eq(comm_bsend(c, &m, &err), 0);
	}
	ck_assert_uint_eq(comm_pending(c, 1, NULL), 3);
	comm_destroy(c);
}
END_TEST

/* The receive thread's wait counts: a rank whose receive thread waits for a
 * rank that is gone, and which joins it, is a deadlock, named as such. */
START_TEST(receive_thread_waits_are_seen)
{
	struct comm *c;
	struct dm_err err;
	ck_assert_int_eq(comm_inproc_new(&c, 2, COMM_UNBOUNDED, 0, &err), 0);
	struct ringdev rx = { .c = c, .rank = 0, .n = 2, .got = -1 };
	pthread_t t;
	comm_rx_arm(c, 0);
	pthread_create(&t, NULL, ring_rx_main, &rx);
	comm_set_exited(c, 1); /* rank 1 will never send */
	int rc = comm_rx_join(c, 0, 1, 0, COMM_SHARD, &err);
	pthread_join(t, NULL);
	/* whichever thread completed the picture found it; the join itself may
	 * then end with its receive thread's end (0), never otherwise */
	ck_assert_msg((rc == DM_EDEADLOCK || rc == 0) && rx.rc == DM_EDEADLOCK,
		      "join %d, receive %d: %s", rc, rx.rc, rx.msg);
	ck_assert_msg(strstr(rx.msg, "rank 0 waits for its receive thread") &&
			      strstr(rx.msg, "rank 0's receive thread waits for shard (step 0) "
					      "from rank 1"),
		      "%s", rx.msg);
	struct comm_wait w;
	comm_get_wait(c, 0, &w);
	ck_assert(w.state == COMM_WAIT_RECV && w.via_rx && w.peer == 1);
	comm_get_rx_wait(c, 0, &w);
	ck_assert(w.state == COMM_WAIT_RECV && !w.via_rx && w.peer == 1);
	comm_get_rx_wait(c, 1, &w);
	ck_assert_int_eq(w.state, COMM_IDLE);
	comm_destroy(c);
}
END_TEST

START_TEST(lost_message_is_reported)
{
	struct comm *c;
	struct dm_err err;
	struct comm_msg m;
	ck_assert_int_eq(comm_inproc_new(&c, 2, COMM_UNBOUNDED, 0, &err), 0);
	comm_set_exited(c, 1);
	ck_assert_int_eq(comm_recv(c, 0, 1, 3, COMM_SHARD, &m, &err), DM_EDEADLOCK);
	ck_assert_msg(strstr(err.msg, "rank 0 waits for shard (step 3) from rank 1"), "%s",
		      err.msg);
	/* the cycle stays readable after the waits ended */
	struct comm_wait w;
	comm_get_wait(c, 0, &w);
	ck_assert_int_eq(w.state, COMM_WAIT_RECV);
	ck_assert_int_eq(w.peer, 1);
	ck_assert_int_eq(w.step, 3);
	comm_get_wait(c, 1, &w);
	ck_assert_int_eq(w.state, COMM_EXITED);
	comm_destroy(c);
}
END_TEST

START_TEST(timeout_names_the_wait)
{
	struct comm *c;
	struct dm_err err;
	struct comm_msg m;
	/* rank 1 stays "running" and never sends: only the deadline ends this */
	ck_assert_int_eq(comm_inproc_new(&c, 2, COMM_UNBOUNDED, 50, &err), 0);
	ck_assert_int_eq(comm_recv(c, 0, 1, 2, COMM_BLOCK, &m, &err), DM_ETIMEOUT);
	ck_assert_msg(strstr(err.msg, "rank 0 timed out waiting for row block (step 2) from rank 1"),
		      "%s", err.msg);
	comm_destroy(c);
}
END_TEST

struct waiter {
	struct comm *c;
	int rc;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct dm_err err;
	struct comm_msg m;
	w->rc = comm_recv(w->c, 0, 1, 0, COMM_SHARD, &m, &err);
	return NULL;
}

START_TEST(close_ends_every_wait)
{
	struct comm *c;
	struct dm_err err;
	pthread_t t;
	struct waiter w = { 0, 1 };
	ck_assert_int_eq(comm_inproc_new(&c, 2, 0, 0, &err), 0);
	w.c = c;
	pthread_create(&t, NULL, waiter_main, &w);
	comm_close(c); /* before or after the wait began: either way it ends */
	pthread_join(t, NULL);
	ck_assert_int_eq(w.rc, DM_ESTOPPED);
	ck_assert_int_eq(send1(c, 1, 0, 0, 0), DM_ESTOPPED);
	comm_destroy(c);
}
END_TEST

START_TEST(bad_ranks_are_refused)
{
	struct comm *c;
	struct dm_err err;
	struct comm_msg m;
	ck_assert_int_eq(comm_inproc_new(&c, 0, 0, 0, &err), DM_EINVAL);
	ck_assert_int_eq(comm_inproc_new(&c, 2, 0, 0, &err), 0);
	ck_assert_int_eq(send1(c, 0, 2, 0, 0), DM_EINVAL);
	ck_assert_int_eq(send1(c, -1, 1, 0, 0), DM_EINVAL);
	ck_assert_int_eq(comm_recv(c, 2, 0, 0, COMM_SHARD, &m, &err), DM_EINVAL);
	ck_assert_int_eq(comm_recv(c, 0, 5, 0, COMM_SHARD, &m, &err), DM_EINVAL);
	ck_assert_int_eq(comm_size(c), 2);
	comm_destroy(c);
}
END_TEST

static Suite *comm_suite(void)
{
	Suite *s = suite_create("comm");
	TCase *tc = tcase_create("messages");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, fifo_per_pair);
	tcase_add_test(tc, payload_moves_not_copies);
	tcase_add_test(tc, pingpong_in_order_at_any_capacity);
	tcase_add_test(tc, bad_ranks_are_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("capacity");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, capacity_bounds_the_inbox);
	tcase_add_test(tc, unbounded_never_blocks);
	suite_add_tcase(s, tc);
	tc = tcase_create("deadlock and stopping");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, naive_ring_deadlocks_only_when_synchronous);
	tcase_add_test(tc, orders_and_fixes_at_every_capacity);
	tcase_add_test(tc, buffered_send_never_waits);
	tcase_add_test(tc, receive_thread_waits_are_seen);
	tcase_add_test(tc, lost_message_is_reported);
	tcase_add_test(tc, timeout_names_the_wait);
	tcase_add_test(tc, close_ends_every_wait);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(comm_suite());
}
