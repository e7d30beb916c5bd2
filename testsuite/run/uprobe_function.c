/* A program for uprobe_function.stp: add() is probed at its entry, its return and line 7. */
int add(int a, int b)
{
	int sum;

	sum = a + b;
	sum = sum * 2; /* line 7: the statement probe */
	return sum;
}

int main(void)
{
	int total = 0;

	for (int i = 0; i < 3; i++)
		total += add(i, 10);
	return total == 66 ? 0 : 1;
}
