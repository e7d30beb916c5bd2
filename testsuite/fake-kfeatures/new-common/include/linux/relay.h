/* Stand-in: relay's callbacks as 7.2 declares them (prev_padding only in a comment). */
struct rchan_callbacks {
	/* 7.2 dropped the size_t prev_padding argument */
	int (*subbuf_start) (struct rchan_buf *buf,
			     void *subbuf,
			     void *prev_subbuf);
};
struct rchan *relay_open(const char *base_filename,
			 struct dentry *parent,
			 size_t subbuf_size,
			 size_t n_subbufs,
			 const struct rchan_callbacks *cb,
			 void *private_data);
