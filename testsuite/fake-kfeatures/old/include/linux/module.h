/* Stand-in: a module's layout as 5.10 and 6.1 declare it. */
struct module_layout {
	void *base;
	unsigned int size;
	unsigned int text_size;
	unsigned int ro_size;
	unsigned int ro_after_init_size;
};
