/* uprobe_register.c - work() called from two places, for arm64/uprobe_register. */
__attribute__((noinline)) int work(int a, int b)
{
	return a * b + 1;
}

__attribute__((noinline)) int outer(int a)
{
	return work(a, 3) + 1;
}

int main(void)
{
	return work(2, 7) == 15 && outer(-1) == -1 ? 0 : 1;
}
