// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-set FILE VALUE: writes VALUE to FILE of the tracing directory
 * through trace-tracefs (saving it first) and puts the old value back, so
 * tests can see how a refusal is explained without changing tracefs.
 */
#include <stdio.h>

#include "trace-cmd.h"
#include "trace-tracefs.h"

int main(int argc, char **argv)
{
	struct tfs_saved *saved;
	int ret;

	current_command = "tracefs-set";
	if (argc != 3) {
		fprintf(stderr, "usage: tracefs-set FILE VALUE\n");
		return 2;
	}
	if (!tfs_dir())
		return 1;
	saved = tfs_saved_new();
	ret = tfs_set(saved, NULL, argv[1], argv[2]);
	if (tfs_restore(saved) < 0)
		ret = -1;
	tfs_saved_free(saved);
	if (ret == 0)
		printf("%s\n", argv[2]);
	return ret < 0 ? 1 : 0;
}
