/* Built with a fixed build-id (process_buildid.cflags), which the script names instead of a path. */
int scale(int x)
{
	return x * 3;
}

int main(void)
{
	int sum = 0;

	for (int i = 1; i <= 3; i++)
		sum += scale(i);
	return sum == 18 ? 0 : 1;
}
