/* blk_types.h - fake: as 6.12 declares it */
struct block_device {
	atomic_t		__bd_flags;	// partition number + flags
};
