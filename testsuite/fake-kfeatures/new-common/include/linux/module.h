/* Stand-in: a module's memory regions as 6.4+ (6.12) declares them. */
struct module_memory {
	void *base;
	unsigned int size;
};
