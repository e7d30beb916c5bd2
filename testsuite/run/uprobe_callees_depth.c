/*
 * A program for uprobe_callees_depth.stp (and, built -O2 without frame
 * pointers, uprobe_callees_cfi.stp): leaf() is called by middle(),
 * which is called by top() (leaf(1), leaf(2)), by other() (leaf(10)) and
 * by main (leaf(100)); main also calls leaf(1000) itself.
 */
__attribute__((noinline)) int leaf(int x)
{
	return x + 1;
}

__attribute__((noinline)) int middle(int x)
{
	return leaf(x) * 2;
}

__attribute__((noinline)) int other(int x)
{
	return middle(x) + 3;
}

__attribute__((noinline)) int top(int x)
{
	return middle(x) - 1;
}

int main(void)
{
	int sum = top(1) + other(10) + top(2) + middle(100) + leaf(1000);

	return sum == 3 + 25 + 5 + 202 + 1001 ? 0 : 1;
}
