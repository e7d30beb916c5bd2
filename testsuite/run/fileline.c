/* A call chain main -> top -> middle -> leaf -> getppid() whose only CFI is .debug_frame. */
#include <unistd.h>

__attribute__((noinline)) int leaf(int x)
{
	return (int)getppid() + x;
}

__attribute__((noinline)) int middle(int x)
{
	return leaf(x) * 2 + 1;
}

__attribute__((noinline)) int top(int x)
{
	return middle(x + 1) + 3;
}

int main(void)
{
	return top(1) > 0 ? 0 : 1;
}
