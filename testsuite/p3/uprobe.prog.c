int work(int x)
{
	return x * 2;
}

int main(void)
{
	return work(21) != 42;
}
