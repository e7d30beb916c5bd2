/* Stand-in: relay's callbacks as 5.10 .. 6.12 declare them. */
struct rchan_callbacks {
	int (*subbuf_start) (struct rchan_buf *buf,
			     void *subbuf,
			     void *prev_subbuf,
			     size_t prev_padding);
};
