/* time.c - clocks callable from any probe context, NMI included. */

static s64 _stp_gettimeofday_ns(void)
{
	return ktime_get_real_fast_ns();
}
