/* blk_types.h - fake: as 5.10 declares it (a bio names its disk; no blk_opf_t, 6.0 added it) */
struct block_device {
	u8			bd_partno;
};
struct bio {
	struct gendisk		*bi_disk;
	unsigned int		bi_opf;
	u8			bi_partno;
};
