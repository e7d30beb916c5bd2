/* lock.c - bounded try-locks for script globals: never sleep, never spin without limit. */

/*
 * One reader/writer lock per script global, a single atomic_t:
 * -1 while a writer holds it, 0 when free, N > 0 with N readers.
 * Every acquisition is a compare-and-swap retried at most MAXTRYLOCK
 * times, with cpu_relax() and a STP_TRYLOCK_DELAY_NS busy wait in
 * between (so the budget is about 1 ms of real time, not a number of
 * instructions, whatever the CPU or emulator); on failure the caller
 * skips its probe hit instead of waiting. The full barrier of a successful
 * cmpxchg orders the critical section after the acquisition; unlock
 * uses release ordering.
 */

static void _stp_rwlock_init(struct _stp_rwlock *l)
{
	atomic_set(&l->v, 0);
}

static int _stp_read_trylock(struct _stp_rwlock *l)
{
	int tries;

	for (tries = 0; tries < MAXTRYLOCK; tries++) {
		int v = atomic_read(&l->v);

		if (v >= 0 && atomic_cmpxchg(&l->v, v, v + 1) == v)
			return 1;
		cpu_relax();
		ndelay(STP_TRYLOCK_DELAY_NS);
	}
	return 0;
}

static int _stp_write_trylock(struct _stp_rwlock *l)
{
	int tries;

	for (tries = 0; tries < MAXTRYLOCK; tries++) {
		if (atomic_read(&l->v) == 0 && atomic_cmpxchg(&l->v, 0, -1) == 0)
			return 1;
		cpu_relax();
		ndelay(STP_TRYLOCK_DELAY_NS);
	}
	return 0;
}

static void _stp_read_unlock(struct _stp_rwlock *l)
{
	atomic_fetch_sub_release(1, &l->v);
}

static void _stp_write_unlock(struct _stp_rwlock *l)
{
	atomic_set_release(&l->v, 0);
}
