/* unit_lock.c - user-space tests of runtime/lock.c: exclusion rules, bounded failure, and a threaded hammer. */

#include <pthread.h>

#include "kshim.h"
#include "runtime_api.h"
#include "lock.c"
#include "unit.h"

int shim_fail_countdown;
long shim_live_allocations;

static void test_rules(void)
{
	struct _stp_rwlock l;

	_stp_rwlock_init(&l);
	CHECK(_stp_read_trylock(&l));
	CHECK(_stp_read_trylock(&l));
	CHECK(!_stp_write_trylock(&l));		/* readers inside */
	_stp_read_unlock(&l);
	CHECK(!_stp_write_trylock(&l));		/* one reader left */
	_stp_read_unlock(&l);
	CHECK(_stp_write_trylock(&l));
	CHECK(!_stp_write_trylock(&l));		/* writer inside */
	CHECK(!_stp_read_trylock(&l));
	_stp_write_unlock(&l);
	CHECK(atomic_read(&l.v) == 0);
	CHECK(_stp_read_trylock(&l));
	_stp_read_unlock(&l);
	CHECK(atomic_read(&l.v) == 0);
}

enum { THREADS = 4, ROUNDS = 200000 };

static struct _stp_rwlock hammer_lock;
static long shared_counter;		/* protected by hammer_lock */
static int writer_inside;		/* set while a writer holds the lock */
static long writes_done[THREADS];	/* successful write sections per thread */
static long violations;			/* readers that saw a writer inside */

static void *hammer(void *arg)
{
	long id = (long)arg, i;

	for (i = 0; i < ROUNDS; i++) {
		if ((i + id) % 4 == 0) {
			if (!_stp_write_trylock(&hammer_lock))
				continue;
			__atomic_store_n(&writer_inside, 1, __ATOMIC_RELAXED);
			shared_counter++;
			writes_done[id]++;
			__atomic_store_n(&writer_inside, 0, __ATOMIC_RELAXED);
			_stp_write_unlock(&hammer_lock);
		} else {
			if (!_stp_read_trylock(&hammer_lock))
				continue;
			if (__atomic_load_n(&writer_inside, __ATOMIC_RELAXED))
				__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
			_stp_read_unlock(&hammer_lock);
		}
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[THREADS];
	long i, total = 0;

	_stp_rwlock_init(&hammer_lock);
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, hammer, (void *)i);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < THREADS; i++)
		total += writes_done[i];
	CHECK(total == shared_counter);
	CHECK(total > 0);
	CHECK(violations == 0);
	CHECK(atomic_read(&hammer_lock.v) == 0);
}

int main(void)
{
	test_rules();
	test_threads();
	return unit_report("unit_lock");
}
