// SPDX-License-Identifier: GPL-2.0
/*
 * The printk map, kept as libtraceevent keeps it: each line split at its
 * first ':' (strtok_r(), so leading colons are skipped), the address read
 * with strtoull(), one character after the colon skipped, an opening quote
 * dropped, then a closing quote, and a "\n" only from before a dropped
 * closing quote (tep_register_print_string()).
 */
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-printk.h"

struct printk_entry {
	uint64_t	addr;
	char		*str;
	int		ambiguous;	/* another entry has this address and another string */
};

struct printk_table {
	struct printk_entry	*entries;	/* by address, one per address */
	int			nr;
};

static void add_entry(struct printk_table *t, uint64_t addr, const char *fmt)
{
	size_t len;
	char *str;

	if (fmt[0] == '"')
		fmt++;
	str = xstrdup(fmt);
	len = strlen(str);
	if (len && str[len - 1] == '"') {
		str[--len] = 0;
		if (len >= 2 && !strcmp(str + len - 2, "\\n"))
			str[len - 2] = 0;
	}
	t->entries = xrealloc(t->entries, sizeof(*t->entries) * (t->nr + 1));
	t->entries[t->nr].addr = addr;
	t->entries[t->nr].str = str;
	t->entries[t->nr].ambiguous = 0;
	t->nr++;
}

static int by_addr(const void *a, const void *b)
{
	const struct printk_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Equal addresses become one entry, marked when their strings differ. */
static void merge_equal(struct printk_table *t)
{
	int n = 0;

	for (int i = 0; i < t->nr; i++) {
		if (n && t->entries[n - 1].addr == t->entries[i].addr) {
			if (strcmp(t->entries[n - 1].str, t->entries[i].str))
				t->entries[n - 1].ambiguous = 1;
			free(t->entries[i].str);
			continue;
		}
		t->entries[n++] = t->entries[i];
	}
	t->nr = n;
}

struct printk_table *printk_table_parse(const char *text)
{
	struct printk_table *t = xcalloc(1, sizeof(*t));
	char *copy = xstrdup(text), *next = NULL;

	for (char *line = strtok_r(copy, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		char *fmt = NULL, *addr = strtok_r(line, ":", &fmt);

		/* libtraceevent stops at a line of colons only. */
		if (!addr)
			break;
		/* It would read past the line here: usable_printk() drops such lines. */
		if (!fmt || !*fmt)
			continue;
		add_entry(t, strtoull(addr, NULL, 16), fmt + 1);
	}
	free(copy);
	qsort(t->entries, t->nr, sizeof(*t->entries), by_addr);
	merge_equal(t);
	return t;
}

void printk_table_free(struct printk_table *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nr; i++)
		free(t->entries[i].str);
	free(t->entries);
	free(t);
}

int printk_table_find(const struct printk_table *t, uint64_t addr, const char **str)
{
	int l = 0, u = t->nr;

	while (l < u) {
		int i = l + (u - l) / 2;

		if (t->entries[i].addr == addr) {
			*str = t->entries[i].str;
			return t->entries[i].ambiguous ? -1 : 1;
		}
		if (t->entries[i].addr < addr)
			l = i + 1;
		else
			u = i;
	}
	return 0;
}
