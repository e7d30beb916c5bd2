/* Stand-in: relay's callbacks as 5.10 .. 6.12 declare them. */
struct rchan_callbacks {
	int (*subbuf_start) (struct rchan_buf *buf,
			     void *subbuf,
			     void *prev_subbuf,
			     size_t prev_padding);
};
/* 5.10's relay_open takes the callbacks writable */
struct rchan *relay_open(const char *base_filename,
			 struct dentry *parent,
			 size_t subbuf_size,
			 size_t n_subbufs,
			 struct rchan_callbacks *cb,
			 void *private_data);
