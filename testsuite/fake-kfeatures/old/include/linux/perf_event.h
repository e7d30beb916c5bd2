/* Stand-in: 5.10's perf_event.h, with is_default_overflow_handler only. */
static inline bool is_default_overflow_handler(struct perf_event *event)
{
	return true;
}
