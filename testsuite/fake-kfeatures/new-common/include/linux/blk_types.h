/* blk_types.h - fake: as 6.12 declares it */
struct block_device {
	atomic_t		__bd_flags;	// partition number + flags
};
typedef __u32 __bitwise blk_opf_t;
struct bio {
	struct bio		*bi_next;
	struct block_device	*bi_bdev;
	blk_opf_t		bi_opf;
};
