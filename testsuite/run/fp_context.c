/* fp_context: a function with double and float parameters and a double local, for run/fp_context. */
__attribute__((noinline)) double scale(double d, float f, int n)
{
	double r = d * f * n;
	return r;
}

int main(void)
{
	return scale(3.5, -3.25f, 2) < 0 ? 0 : 1;
}
