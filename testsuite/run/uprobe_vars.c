/*
 * A program for uprobe_vars.stp: scale() is probed after its prologue, at
 * its return and at line 32; clamp() at its entry and return.
 */
struct point {
	int x;
	int y;
	const char *name;
	struct point *next;	/* NULL: reading through it faults */
};

struct shape {
	struct point *corner;
	long area;
	char tag[8];
};

static int clamp(int value, short limit, unsigned char step)
{
	return value > limit ? limit : value + step;
}

long scale(struct shape *s, int factor)
{
	long result;
	int before = s->corner->x;

	result = s->area * factor + before;
	if (result > 20)
		result = clamp((int)result, 30, 1);
	s->corner->x += factor;
	return result; /* line 32: the statement probe */
}

int main(void)
{
	struct point p = { 3, 4, "origin", 0 };
	struct shape sh = { &p, 12, "box" };
	long total = 0;

	for (int i = 1; i <= 2; i++)
		total += scale(&sh, i);
	return total == 15 + 29 ? 0 : 1;
}
