# -l and -L on a user program built with -g: every function of its symbol
# table is listed, those with DWARF as name@file:line, and -L adds their
# parameters and locals with C types (after the prologue), $return for
# .return, and the variables at a statement.
fail() { echo "FAIL: $*"; exit 1; }
cat > lvars.c <<'PROGRAM'
/* Listed by uprobe_list.sh: functions with parameters, locals and a struct type. */
struct node {
	int value;
	struct node *next;
};

static int depth(const struct node *n)
{
	int d = 0;

	for (; n; n = n->next)
		d++;
	return d;
}

long total(struct node *head, unsigned int limit)
{
	long sum = 0;

	while (head && limit--) {
		sum += head->value;
		head = head->next;
	}
	return sum + depth(head);
}

int main(void)
{
	struct node list[2] = { { 1, &list[1] }, { 2, 0 } };

	return (int)total(list, 5) - 3;
}
PROGRAM
gcc -g -O0 -o lvars lvars.c
p="process(\"$PWD/lvars\")"

"$STAP" -L 'process("./lvars").function("*")' >all.out 2>all.err || fail "-L failed: $(cat all.err)"
[ ! -s all.err ] || fail "-L printed errors: $(cat all.err)"
for line in \
	"$p.function(\"depth@lvars.c:7\") \$n:const struct node* \$d:int" \
	"$p.function(\"total@lvars.c:16\") \$head:struct node* \$limit:unsigned int \$sum:long int" \
	"$p.function(\"main@lvars.c:27\") \$list:struct node[2]"; do
	grep -qxF "$line" all.out || fail "missing from -L: $line (got: $(cat all.out))"
done
want=$(nm --defined-only lvars | grep -c ' [Tt] ')
[ "$(wc -l <all.out)" = "$want" ] || fail "-L listed $(wc -l <all.out) functions, the symbol table has $want"

"$STAP" -L 'process("./lvars").function("total").return' >ret.out
[ "$(cat ret.out)" = "$p.function(\"total@lvars.c:16\").return \$head:struct node* \$limit:unsigned int \$sum:long int \$return:long int" ] ||
	fail "-L .return: $(cat ret.out)"

"$STAP" -L 'process("./lvars").statement("total@lvars.c:21")' >stmt.out
[ "$(cat stmt.out)" = "$p.statement(\"total@lvars.c:21\") \$head:struct node* \$limit:unsigned int \$sum:long int" ] ||
	fail "-L statement: $(cat stmt.out)"

"$STAP" -l 'process("./lvars").function("t*")' >l.out
[ "$(cat l.out)" = "$p.function(\"total@lvars.c:16\")" ] || fail "-l: $(cat l.out)"
