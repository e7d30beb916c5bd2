/* mm_types.h - fake: as 5.10 declares it (no struct folio: 5.16 added it) */
struct page {
	unsigned long flags;
};
