// SPDX-License-Identifier: GPL-2.0
/*
 * needs-functions SYSTEM FORMAT...: parses each event format file (as in
 * tracefs's events/SYSTEM/NAME/format) with libtraceevent's plugins loaded
 * and prints "NAME 0|1": whether report would load kallsyms to print it
 * (trace_print_needs_functions()).
 */
#include <stdio.h>
#include <stdlib.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-print.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text;

	if (!f)
		return NULL;
	text = xmalloc(1 << 16);
	*len = fread(text, 1, (1 << 16) - 1, f);
	text[*len] = 0;
	fclose(f);
	return text;
}

int main(int argc, char **argv)
{
	struct tep_handle *tep;
	int ret = 0;

	current_command = "needs-functions";
	if (argc < 3) {
		fputs("usage: needs-functions SYSTEM FORMAT...\n", stderr);
		return 2;
	}
	tep = tep_alloc();
	tep_load_plugins(tep);
	for (int i = 2; i < argc; i++) {
		struct tep_event *ev = NULL;
		size_t len;
		char *text = read_file(argv[i], &len);

		if (!text || tep_parse_format(tep, &ev, text, len, argv[1]) || !ev) {
			fprintf(stderr, "needs-functions: '%s': not a format\n", argv[i]);
			ret = 1;
		} else {
			printf("%s %d\n", ev->name, trace_print_needs_functions(ev));
		}
		free(text);
	}
	return ret;
}
