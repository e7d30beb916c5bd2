/* kshim.h - the few kernel types and functions the generic runtime needs, for user-space unit tests. */
#ifndef STP_KSHIM_H
#define STP_KSHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define noinline __attribute__((noinline))
#ifndef __always_inline /* glibc's sys/cdefs.h has one */
#define __always_inline inline __attribute__((always_inline))
#endif

#define GFP_KERNEL 0

/*
 * Allocation goes through one choke point so tests can make the Nth
 * allocation fail: shim_fail_countdown > 0 counts down, and the
 * allocation that brings it to zero returns NULL.
 */
extern int shim_fail_countdown;
extern long shim_live_allocations;

static inline void *shim_alloc(size_t n, size_t size)
{
	void *p;

	if (shim_fail_countdown > 0 && --shim_fail_countdown == 0)
		return NULL;
	p = calloc(n ? n : 1, size ? size : 1);
	if (p)
		shim_live_allocations++;
	return p;
}

static inline void shim_free(void *p)
{
	if (p)
		shim_live_allocations--;
	free(p);
}

#define kzalloc(size, gfp) shim_alloc(1, (size))
#define kcalloc(n, size, gfp) shim_alloc((n), (size))
#define kvcalloc(n, size, gfp) shim_alloc((n), (size))
#define kfree(p) shim_free(p)
#define kvfree(p) shim_free(p)

/* atomic_t with the kernel's ordering: cmpxchg fully ordered. */
typedef struct {
	int counter;
} atomic_t;

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_set_release(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

static inline int atomic_fetch_sub_release(int i, atomic_t *v)
{
	return __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELEASE);
}

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() do { } while (0)
#endif

/* Only named by runtime_api.h's structures; never used by the generic code. */
struct hrtimer {
	int unused;
};
struct kprobe {
	int unused;
};
struct kretprobe {
	int unused;
};
struct path {
	int unused;
};
struct uprobe_consumer {
	int unused;
};
struct _stp_uprobe_reg {	/* runtime/linux/compat/compat.h's, which needs kernel headers */
	int unused;
};
struct pt_regs;
struct perf_event;

/*
 * Word-at-a-time string reads (runtime/string.c). The kernel's version is
 * a plain load that KASAN is told about; here, a byte-wise read that
 * AddressSanitizer leaves alone, since it may go past the NUL (never past
 * the page, which string.c checks).
 */
#define PAGE_SIZE 4096ul
__attribute__((no_sanitize_address)) static inline uint64_t read_word_at_a_time(const void *p)
{
	const volatile unsigned char *b = p;
	uint64_t w = 0;

	for (int i = 0; i < 8; i++)
		w |= (uint64_t)b[i] << (8 * i);
	return w;
}

/*
 * CPUs: shim_nr_cpus possible CPUs; shim_cpu is the one "running".
 * Tests set them to play several CPUs in one thread.
 */
extern int shim_nr_cpus;
extern int shim_cpu;
#define nr_cpu_ids ((unsigned int)shim_nr_cpus)
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < shim_nr_cpus; (cpu)++)
#define smp_processor_id() shim_cpu


/* The tests need no real delay between lock attempts. */
#define ndelay(ns) do { } while (0)
#ifndef STP_TRYLOCK_DELAY_NS
#define STP_TRYLOCK_DELAY_NS 100
#endif

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 128
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000
#endif
#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20
#endif
#define KSYM_SYMBOL_LEN 128	/* <linux/kallsyms.h>: only sizes the context here */

#endif
