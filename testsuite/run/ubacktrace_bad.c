/* corrupt(), written without CFI, calls leaf() with a frame pointer into unmapped memory. */
__attribute__((noinline)) int leaf(int x)
{
	return x + 1;
}

int corrupt(int x);
__asm__(".text\n"
	".globl corrupt\n"
	".type corrupt, @function\n"
	"corrupt:\n"
	"	push %rbp\n"
	"	movabs $0x7fff0000dead0, %rbp\n"
	"	call leaf\n"
	"	pop %rbp\n"
	"	ret\n"
	".size corrupt, .-corrupt\n");

int main(void)
{
	return corrupt(1) == 2 ? 0 : 1;
}
