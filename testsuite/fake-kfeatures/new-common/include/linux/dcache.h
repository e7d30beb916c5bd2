/* Stand-in: struct dentry as 7.2 declares it, the alias node in an anonymous union. */
struct dentry {
	union {
		/* positives: inode alias list */
		struct hlist_node d_alias;
		struct rcu_head d_rcu;
	};
};
