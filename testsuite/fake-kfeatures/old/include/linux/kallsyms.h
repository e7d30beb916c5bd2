/* Stand-in: kallsyms_on_each_symbol as 5.10 and 6.1 declare it (the callback gets the module). */
int kallsyms_on_each_symbol(int (*fn)(void *, const char *, struct module *,
				      unsigned long),
			    void *data);
