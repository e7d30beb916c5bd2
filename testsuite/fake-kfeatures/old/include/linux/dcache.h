/* Stand-in: struct dentry's alias node in the named union d_u (5.10 .. 6.12). */
struct dentry {
	union {
		struct hlist_node d_alias;	/* inode alias list */
		struct rcu_head d_rcu;
	} d_u;
};
