/* unit_print.c - user-space tests of runtime/print.c: the direct number writers printf's plain %d and %u use, and the per-CPU buffer's flush at its end. */

#include <inttypes.h>
#include "kshim.h"
#include "runtime_api.h"
#include "transport_msgs.h"

/* One CPU's buffer, as alloc_percpu gives it; records go to a capture area. */
#define __percpu
#define __maybe_unused __attribute__((unused))
#define STP_PRINT_BUF_SIZE 64
#define alloc_percpu(type) ((type *)calloc(1, sizeof(type)))
#define free_percpu(p) free(p)
#define this_cpu_ptr(p) (p)
#define this_cpu_read(field) (field)
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))

static char records[4096];	/* the texts of the records written, each followed by '|' */
static size_t records_len;
static int nrecords;

static void _stp_transport_write(struct _stp_record_hdr *hdr, size_t text_len, u32 flags)
{
	const char *text = (const char *)(hdr + 1);

	(void)flags;
	memcpy(records + records_len, text, text_len);
	records_len += text_len;
	records[records_len++] = '|';
	records[records_len] = '\0';
	nrecords++;
}

#include "print.c"
#include "unit.h"

static const char *flushed(void)
{
	_stp_print_flush();
	records_len = 0;
	return records;
}

static void check_s64(int64_t v)
{
	char want[32];

	snprintf(want, sizeof(want), "%" PRId64 "|", v);
	_stp_print_s64(v);
	CHECK_STR(flushed(), want);
}

static void check_u64(uint64_t v)
{
	char want[32];

	snprintf(want, sizeof(want), "%" PRIu64 "|", v);
	_stp_print_u64(v);
	CHECK_STR(flushed(), want);
}

int main(void)
{
	static const int64_t s[] = { 0, 1, -1, 9, 10, -10, 99, 100, 123456789, -987654321,
				     INT64_MAX, INT64_MIN, INT64_MIN + 1, 1000000000000000000LL };
	uint64_t x = 88172645463325252ULL;

	CHECK(_stp_print_init() == 0);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		check_s64(s[i]);
		check_u64((uint64_t)s[i]);
	}
	for (int i = 0; i < 2000; i++) {	/* xorshift: values of every length and sign */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_s64((int64_t)x >> (x & 63));
		check_u64(x >> (x & 63));
	}
	/* literal text and values in one record, as printf("pid %d %s\n") writes them */
	_stp_print_bytes("pid ", 4);
	_stp_print_s64(42);
	_stp_print_bytes(" ", 1);
	_stp_print("cat");
	_stp_print_bytes("\n", 1);
	CHECK_STR(flushed(), "pid 42 cat\n|");
	/* a buffer that fills is handed over whole and the rest goes on in the next record */
	nrecords = 0;
	for (int i = 0; i < 10; i++)
		_stp_print("0123456789");
	CHECK_STR(flushed(), "0123456789012345678901234567890123456789012345678901234567890123|"
			     "456789012345678901234567890123456789|");
	CHECK(nrecords == 2);
	/* nothing printed: no record */
	nrecords = 0;
	_stp_print_flush();
	CHECK(nrecords == 0);
	_stp_print_free();
	return unit_report("unit_print");
}
