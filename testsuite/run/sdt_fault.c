/* A program for sdt_fault.stp: a marker whose operand is memory at (%rax) with rax = 0. */
int main(void)
{
	__asm__ __volatile__(
		"990: nop\n"
		".pushsection .note.stapsdt,\"\",\"note\"\n"
		".balign 4\n"
		".4byte 992f-991f, 994f-993f, 3\n"
		"991: .asciz \"stapsdt\"\n"
		"992: .balign 4\n"
		"993: .8byte 990b, 0, 0\n"
		".asciz \"test\"\n"
		".asciz \"null\"\n"
		".asciz \"8@(%%rax)\"\n"
		"994: .balign 4\n"
		".popsection\n"
		:: "a"(0L));
	return 0;
}
