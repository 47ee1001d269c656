// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms for report: registering 100,000 symbols one by one with
 * tep_register_function() (a malloc and two strdup each, then a sort) was
 * most of the time to print a first line that needs one.  Here they are one
 * array, and libtraceevent asks through tep_set_function_resolver().  The
 * answers are its own map's: the same lines kept (absolute symbols left
 * out, as parse_kallsyms_fast() in trace-input.c), the same order (by
 * address; equal addresses latest line first, as its stable sort of its
 * reversed list gives) and the same binary search (an address matches the
 * entry it equals, or lies strictly before the next one's; the last entry
 * only by equality).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-kallsyms.h"

struct sym {
	unsigned long long	addr;
	char			*name;
	char			*mod;
	int			line;
};

struct kallsyms {
	char		*text;		/* a copy, cut into the names */
	struct sym	*syms;		/* sorted, then an entry of address 0 */
	int		nr;
	char		**names;	/* registered by name already */
	int		nr_names;
};

/* One line into @s; 0 when it is no function. */
static int parse_line(char *line, struct sym *s)
{
	char *q, *name, *mod = NULL;

	s->addr = 0;
	for (q = line; q - line < 16 && isxdigit((unsigned char)*q); q++)
		s->addr = s->addr << 4 | (unsigned int)(*q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10);
	/* More than 16 digits, a 0x, spaces or a sign: strtoull()'s rules, as before. */
	if (isxdigit((unsigned char)*q) || q == line || (line[0] == '0' && (line[1] | 0x20) == 'x'))
		s->addr = strtoull(line, &q, 16);
	if (q == line || *q != ' ' || !q[1] || q[2] != ' ' || !q[3])
		return 0;
	if (q[1] == 'A' || q[1] == 'a')
		return 0;
	name = q + 3;
	q = strchr(name, '\t');
	if (q) {
		*q = 0;
		if (q[1] == '[') {
			mod = q + 2;
			q = strchr(mod, ']');
			if (q)
				*q = 0;
		}
	}
	name[strcspn(name, " ")] = 0;
	s->name = name;
	s->mod = mod;
	return 1;
}

/*
 * By address, equal addresses latest line first: a stable radix sort of the
 * list taken from its end, one byte at a time, skipping bytes all share.
 */
static void sort_syms(struct sym *syms, int nr)
{
	struct sym *tmp = xmalloc(sizeof(*tmp) * nr), *from = syms, *to = tmp;

	for (int i = 0; i < nr / 2; i++) {
		struct sym t = syms[i];

		syms[i] = syms[nr - 1 - i];
		syms[nr - 1 - i] = t;
	}
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };

		for (int i = 0; i < nr; i++)
			count[((from[i].addr >> shift) & 0xff) + 1]++;
		if (count[((from[0].addr >> shift) & 0xff) + 1] == (size_t)nr)
			continue;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (int i = 0; i < nr; i++)
			to[count[(from[i].addr >> shift) & 0xff]++] = from[i];
		struct sym *t = from;
		from = to;
		to = t;
	}
	if (from != syms)
		memcpy(syms, from, sizeof(*syms) * nr);
	free(tmp);
}

struct kallsyms *kallsyms_parse(const char *text)
{
	struct kallsyms *ks = xcalloc(1, sizeof(*ks));
	size_t lines = 1;
	int sorted = 1;
	char *p;

	ks->text = xstrdup(text);
	for (p = ks->text; (p = strchr(p, '\n')); p++)
		lines++;
	ks->syms = xcalloc(lines + 1, sizeof(*ks->syms));
	for (p = ks->text; *p;) {
		char *end = strchr(p, '\n');
		struct sym *s = &ks->syms[ks->nr];

		if (end)
			*end = 0;
		if (parse_line(p, s)) {
			s->line = ks->nr;
			if (ks->nr && s->addr <= s[-1].addr)
				sorted = 0;
			ks->nr++;
		}
		p = end ? end + 1 : p + strlen(p);
	}
	if (!ks->nr) {
		kallsyms_free(ks);
		return NULL;
	}
	/* Kernel lists are mostly in address order already. */
	if (!sorted)
		sort_syms(ks->syms, ks->nr);
	memset(&ks->syms[ks->nr], 0, sizeof(ks->syms[0]));
	return ks;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	for (int i = 0; i < ks->nr_names; i++)
		free(ks->names[i]);
	free(ks->names);
	free(ks->syms);
	free(ks->text);
	free(ks);
}

/* glibc's bsearch() with libtraceevent's func_bcmp(). */
static struct sym *find(struct kallsyms *ks, unsigned long long addr)
{
	size_t l = 0, u = ks->nr;

	while (l < u) {
		size_t i = (l + u) / 2;
		struct sym *s = &ks->syms[i];

		if (addr == s->addr || (addr > s->addr && addr < s[1].addr))
			return s;
		if (addr < s->addr)
			u = i;
		else
			l = i + 1;
	}
	return NULL;
}

static char *resolve(void *priv, unsigned long long *addr, char **mod)
{
	struct sym *s = find(priv, *addr);

	if (!s)
		return NULL;
	*addr = s->addr;
	*mod = s->mod;
	return s->name;
}

void kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep)
{
	tep_set_function_resolver(tep, resolve, ks);
}

void kallsyms_register_name(struct kallsyms *ks, struct tep_handle *tep, const char *name)
{
	struct sym **match = NULL;
	int n = 0;

	for (int i = 0; i < ks->nr_names; i++)
		if (!strcmp(ks->names[i], name))
			return;
	ks->names = xrealloc(ks->names, sizeof(*ks->names) * (ks->nr_names + 1));
	ks->names[ks->nr_names++] = xstrdup(name);
	for (int i = 0; i < ks->nr; i++) {
		if (strcmp(ks->syms[i].name, name))
			continue;
		match = xrealloc(match, sizeof(*match) * (n + 1));
		match[n++] = &ks->syms[i];
	}
	/* In file order, as a full registration would have added them. */
	for (int i = 0; i < n; i++) {
		struct sym *first = match[i];

		for (int j = i + 1; j < n; j++)
			if (match[j]->line < first->line) {
				struct sym *t = match[j];

				match[j] = first;
				first = t;
			}
		match[i] = first;
		tep_register_function(tep, first->name, first->addr, first->mod);
	}
	free(match);
}
