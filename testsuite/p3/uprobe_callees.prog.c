/* leaf called by middle called by top; optimized (the suite builds -O0) so that GCC records its call sites. */
#define TRAVERSED __attribute__((noinline, optimize("O2")))

TRAVERSED int leaf(int x)
{
	return x + 1;
}

TRAVERSED int middle(int x)
{
	return leaf(x) * 2;
}

TRAVERSED int top(int x)
{
	return middle(x) - 1;
}

int main(void)
{
	return top(1) == 3 ? 0 : 1;
}
