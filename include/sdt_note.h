/*
 * SDT markers written by hand, without <sys/sdt.h>, for stapc's own programs
 * (stap's passes, cache and child processes; staprun; stapio: the
 * stap_staticmarkers tapset probes them) and the test programs sdt_marker.c
 * and process_target_points.c: each marker is a nop plus a
 * note in .note.stapsdt of owner "stapsdt", type 3, whose descriptor holds
 * the nop's address, a base address (0: none), the semaphore's address (0:
 * none), then the provider, the name and the operands as "SIZE@OPERAND"
 * strings, the compiler filling in each operand's assembler spelling
 * (register, memory or constant).
 */
#ifndef SDT_NOTE_H
#define SDT_NOTE_H
#define MARK_NOTE(provider, name, semaphore, args)                              \
	"990: nop\n"                                                            \
	".pushsection .note.stapsdt,\"\",\"note\"\n"                            \
	".balign 4\n"                                                           \
	".4byte 992f-991f, 994f-993f, 3\n"                                      \
	"991: .asciz \"stapsdt\"\n"                                             \
	"992: .balign 4\n"                                                      \
	"993: .8byte 990b, 0, " semaphore "\n"                                  \
	".asciz \"" provider "\"\n"                                             \
	".asciz \"" name "\"\n"                                                 \
	".asciz \"" args "\"\n"                                                 \
	"994: .balign 4\n"                                                      \
	".popsection\n"

#define MARK1(p, n, sem, s1, a1) \
	__asm__ __volatile__(MARK_NOTE(#p, #n, sem, #s1 "@%0") :: "nor"(a1))
/* The same with the operand in memory, for a global: "counter(%rip)". */
#define MARK1_MEMORY(p, n, s1, a1) \
	__asm__ __volatile__(MARK_NOTE(#p, #n, "0", #s1 "@%0") :: "m"(a1))
#define MARK2(p, n, sem, s1, a1, s2, a2) \
	__asm__ __volatile__(MARK_NOTE(#p, #n, sem, #s1 "@%0 " #s2 "@%1") :: "nor"(a1), "nor"(a2))
#define MARK3(p, n, sem, s1, a1, s2, a2, s3, a3) \
	__asm__ __volatile__(MARK_NOTE(#p, #n, sem, #s1 "@%0 " #s2 "@%1 " #s3 "@%2") \
			     :: "nor"(a1), "nor"(a2), "nor"(a3))
/* stapc's own markers: no semaphore, 8-byte operands (pointers, or numbers widened to long). */
#define STAPC_MARK1(p, n, a1) MARK1(p, n, "0", 8, (long)(a1))
#define STAPC_MARK2(p, n, a1, a2) MARK2(p, n, "0", 8, (long)(a1), 8, (long)(a2))
#define STAPC_MARK3(p, n, a1, a2, a3) MARK3(p, n, "0", 8, (long)(a1), 8, (long)(a2), 8, (long)(a3))
#endif
