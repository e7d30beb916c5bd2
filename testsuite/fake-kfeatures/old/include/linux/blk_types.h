/* blk_types.h - fake: as 5.10 declares it */
struct block_device {
	u8			bd_partno;
};
