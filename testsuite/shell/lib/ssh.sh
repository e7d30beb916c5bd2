# Sourced by shell tests that reach guests over ssh, after lib/kernels.sh.
# ssh_client_config [OPTION...]: a fresh key pair ($PWD/key, key.pub) and a
# client configuration ($PWD/ssh_config) that uses only that key and trusts
# any host key (each guest's is new), plus each OPTION line ("KexAlgorithms X").
ssh_client_config() {
	ssh-keygen -q -t ed25519 -N '' -f "$PWD/key" || fail "ssh-keygen"
	{
		printf 'Host *\n  IdentityFile %s/key\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n' "$PWD"
		printf '  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n'
		for option in "$@"; do
			printf '  %s\n' "$option"
		done
	} > ssh_config
}
