/* global_params.c - script globals as module parameters: stap -G NAME=VALUE, staprun MODULE NAME=VALUE. */

#include <linux/moduleparam.h>

/*
 * One scalar global of the script that a module parameter may set. The
 * kernel parses the parameters before init, so the value waits here and
 * _stp_globals_init copies it over the global's initializer when given.
 */
struct _stp_global_param {
	bool is_string;		/* the global is a string (else a long) */
	bool given;		/* the parameter was on the load command line */
	int64_t num;		/* the value of a long global */
	string_t str;		/* the value of a string global, truncated to MAXSTRINGLEN-1 */
};

/* Hook (kernel_param_ops.set): parse NAME=VALUE at load; -EINVAL for a long that is not a number. */
static int _stp_global_param_set(const char *val, const struct kernel_param *kp)
{
	struct _stp_global_param *p = kp->arg;
	long long num;

	if (p->is_string) {
		strscpy(p->str, val ? val : "", sizeof(p->str));
	} else {
		if (!val || kstrtoll(val, 0, &num)) {
			pr_err("%s: global '%s' is a number, not '%s'\n", KBUILD_MODNAME, kp->name,
			       val ? val : "");
			return -EINVAL;
		}
		p->num = num;
	}
	p->given = true;
	return 0;
}

/* Hook (kernel_param_ops.get): the value given (the parameters are not readable in sysfs: mode 0). */
static int _stp_global_param_get(char *buf, const struct kernel_param *kp)
{
	const struct _stp_global_param *p = kp->arg;

	if (p->is_string)
		return scnprintf(buf, PAGE_SIZE, "%s\n", p->str);
	return scnprintf(buf, PAGE_SIZE, "%lld\n", (long long)p->num);
}

static const struct kernel_param_ops _stp_global_param_ops = {
	.set = _stp_global_param_set,
	.get = _stp_global_param_get,
};
