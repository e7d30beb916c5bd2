/* lock.c - bounded try-locks for script globals: never sleep, never spin without limit. */

/*
 * One reader/writer lock per script global, a single atomic_t:
 * -1 while a writer holds it, 0 when free, N > 0 with N readers.
 * Every acquisition is a compare-and-swap retried at most MAXTRYLOCK
 * times, with cpu_relax() and a STP_TRYLOCK_DELAY_NS busy wait in
 * between (so the budget is real time, not a number of instructions,
 * whatever the CPU or emulator); on failure the caller skips its probe
 * hit instead of waiting. The full barrier of a successful cmpxchg orders
 * the critical section after the acquisition; unlock uses release
 * ordering.
 *
 * The budget, about 10 ms by default, is not a bound on how long a body
 * holds a lock but on how long its CPU may stop running meanwhile: a
 * holder cannot deadlock the waiter (locks are taken in one global order,
 * and the busy flag keeps a CPU from waiting on itself). It is also how
 * long a waiter may spin with interrupts off, so it stays short on real
 * hardware. On a virtual machine the host can preempt the vCPU that holds
 * a lock for several of its own scheduling slices: the test suite, which
 * runs a 2-CPU TCG guest on a loaded host and counts hits exactly, builds
 * its modules with -D MAXTRYLOCK=100000 (about 100 ms).
 */

static void _stp_rwlock_init(struct _stp_rwlock *l)
{
	atomic_set(&l->v, 0);
}

/*
 * Each lock is split in two: an inlined first attempt, which is all an
 * uncontended lock costs (one compare-and-swap), and the bounded retry
 * loop out of line.
 */
static noinline int _stp_read_trylock_slow(struct _stp_rwlock *l)
{
	int tries;

	for (tries = 1; tries < MAXTRYLOCK; tries++) {
		int v;

		cpu_relax();
		ndelay(STP_TRYLOCK_DELAY_NS);
		v = atomic_read(&l->v);
		if (v >= 0 && atomic_cmpxchg(&l->v, v, v + 1) == v)
			return 1;
	}
	return 0;
}

static __always_inline int _stp_read_trylock(struct _stp_rwlock *l)
{
	int v = atomic_read(&l->v);

	if (likely(v >= 0 && atomic_cmpxchg(&l->v, v, v + 1) == v))
		return 1;
	return _stp_read_trylock_slow(l);
}

static noinline int _stp_write_trylock_slow(struct _stp_rwlock *l)
{
	int tries;

	for (tries = 1; tries < MAXTRYLOCK; tries++) {
		cpu_relax();
		ndelay(STP_TRYLOCK_DELAY_NS);
		if (atomic_read(&l->v) == 0 && atomic_cmpxchg(&l->v, 0, -1) == 0)
			return 1;
	}
	return 0;
}

static __always_inline int _stp_write_trylock(struct _stp_rwlock *l)
{
	if (likely(atomic_cmpxchg(&l->v, 0, -1) == 0))
		return 1;
	return _stp_write_trylock_slow(l);
}

static void _stp_read_unlock(struct _stp_rwlock *l)
{
	atomic_fetch_sub_release(1, &l->v);
}

static void _stp_write_unlock(struct _stp_rwlock *l)
{
	atomic_set_release(&l->v, 0);
}
