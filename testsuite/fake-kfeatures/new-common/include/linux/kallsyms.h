/* Stand-in: kallsyms_on_each_symbol as 6.12 declares it (vmlinux only: no module). */
int kallsyms_on_each_symbol(int (*fn)(void *, const char *, unsigned long),
			    void *data);
