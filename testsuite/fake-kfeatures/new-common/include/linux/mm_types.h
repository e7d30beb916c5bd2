/* mm_types.h - fake: as 6.12 declares it */
struct folio {
	unsigned long flags;
};
