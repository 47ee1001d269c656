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
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-kallsyms.h"

#define KPTR_RESTRICT		"/proc/sys/kernel/kptr_restrict"

/* A line's symbol: its name is found in the text only when asked for. */
struct sym {
	unsigned long long	addr;
	uint32_t		name_off;	/* into the text */
	uint32_t		line;
};

struct kallsyms {
	const char	*text;		/* the file's text, not ours, not cut */
	size_t		len;
	struct sym	*syms;		/* sorted, then an entry of address 0 */
	int		nr;
	/* Per sorted entry, its name and module as strings, made when first asked. */
	char		**name_str, **mod_str;
	char		**names;	/* registered by name already */
	int		nr_names;
};

static int hex_value(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* One line [@line, @end) into @s; 0 when it is no function. */
static int parse_line(const char *text, const char *line, const char *end, struct sym *s)
{
	const char *q;
	char buf[64];

	s->addr = 0;
	for (q = line; q < end && q - line < 16 && isxdigit((unsigned char)*q); q++)
		s->addr = s->addr << 4 | (unsigned int)hex_value(*q);
	/* More than 16 digits, a 0x, spaces or a sign: strtoull()'s rules, as before. */
	if (q == line || (q < end && isxdigit((unsigned char)*q)) ||
	    (line[0] == '0' && end - line > 1 && (line[1] | 0x20) == 'x')) {
		size_t n = end - line < (long)sizeof(buf) ? (size_t)(end - line) : sizeof(buf) - 1;
		char *stop;

		memcpy(buf, line, n);
		buf[n] = 0;
		s->addr = strtoull(buf, &stop, 16);
		q = line + (stop - buf);
	}
	if (q == line || end - q < 4 || *q != ' ' || q[2] != ' ')
		return 0;
	if (q[1] == 'A' || q[1] == 'a')
		return 0;
	s->name_off = q + 3 - text;
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

/* A list in address order already: only its runs of equal addresses turn round. */
static void reverse_equal_runs(struct sym *syms, int nr)
{
	for (int i = 0; i < nr;) {
		int j = i + 1;

		while (j < nr && syms[j].addr == syms[i].addr)
			j++;
		for (int a = i, b = j - 1; a < b; a++, b--) {
			struct sym t = syms[a];

			syms[a] = syms[b];
			syms[b] = t;
		}
		i = j;
	}
}

struct kallsyms *kallsyms_parse(const char *text, size_t len)
{
	struct kallsyms *ks = xcalloc(1, sizeof(*ks));
	const char *p = text, *stop = text + len;
	size_t cap = len / 24 + 16;	/* a line is about 40 bytes: seldom grown */
	int sorted = 1;

	ks->text = text;
	ks->len = len;
	ks->syms = xmalloc(sizeof(*ks->syms) * (cap + 1));
	while (p < stop) {
		const char *end = memchr(p, '\n', stop - p);
		struct sym *s = &ks->syms[ks->nr];

		if (!end)
			end = stop;
		if (parse_line(text, p, end, s)) {
			s->line = ks->nr;
			if (ks->nr && s->addr < s[-1].addr)
				sorted = 0;
			if ((size_t)++ks->nr == cap) {
				cap *= 2;
				ks->syms = xrealloc(ks->syms, sizeof(*ks->syms) * (cap + 1));
			}
		}
		p = end + 1;
	}
	if (!ks->nr) {
		kallsyms_free(ks);
		return NULL;
	}
	/* Kernel lists are in address order already, but for aliases. */
	if (sorted)
		reverse_equal_runs(ks->syms, ks->nr);
	else
		sort_syms(ks->syms, ks->nr);
	memset(&ks->syms[ks->nr], 0, sizeof(ks->syms[0]));
	/* Big and zeroed: untouched pages cost nothing. */
	ks->name_str = xcalloc(ks->nr, sizeof(*ks->name_str));
	ks->mod_str = xcalloc(ks->nr, sizeof(*ks->mod_str));
	return ks;
}

/* Marks a symbol known to have no module, so its line is read once. */
static char no_module[1];

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	for (int i = 0; i < ks->nr_names; i++)
		free(ks->names[i]);
	for (int i = 0; ks->name_str && i < ks->nr; i++) {
		free(ks->name_str[i]);
		if (ks->mod_str[i] != no_module)
			free(ks->mod_str[i]);
	}
	free(ks->name_str);
	free(ks->mod_str);
	free(ks->names);
	free(ks->syms);
	free(ks);
}

static char *cut(const char *p, size_t n)
{
	char *str = xmalloc(n + 1);

	memcpy(str, p, n);
	str[n] = 0;
	return str;
}

/*
 * The rest of a symbol's line: the name runs to a tab or the line's end and
 * stops at a space; a "\t[" starts the module, which runs to ']' or the end.
 */
static size_t name_len(const struct kallsyms *ks, const struct sym *s, const char **mod,
		       size_t *mod_len)
{
	const char *name = ks->text + s->name_off, *stop = ks->text + ks->len;
	const char *end = memchr(name, '\n', stop - name);
	const char *tab, *close;
	size_t n = 0;

	if (!end)
		end = stop;
	tab = memchr(name, '\t', end - name);
	while (name + n < (tab ? tab : end) && name[n] != ' ')
		n++;
	*mod = NULL;
	if (tab && tab + 1 < end && tab[1] == '[') {
		*mod = tab + 2;
		close = memchr(*mod, ']', end - *mod);
		*mod_len = (close ? close : end) - *mod;
	}
	return n;
}

static char *name_of(struct kallsyms *ks, struct sym *s)
{
	char **str = &ks->name_str[s - ks->syms];
	const char *mod;
	size_t mod_len;

	if (!*str)
		*str = cut(ks->text + s->name_off, name_len(ks, s, &mod, &mod_len));
	return *str;
}

static char *mod_of(struct kallsyms *ks, struct sym *s)
{
	char **str = &ks->mod_str[s - ks->syms];
	const char *mod;
	size_t mod_len;

	if (!*str) {
		name_len(ks, s, &mod, &mod_len);
		*str = mod ? cut(mod, mod_len) : no_module;
	}
	return *str == no_module ? NULL : *str;
}

/* glibc's bsearch() with libtraceevent's func_bcmp(). */
static struct sym *find(const struct kallsyms *ks, unsigned long long addr)
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
	struct kallsyms *ks = priv;
	struct sym *s = find(ks, *addr);

	if (!s)
		return NULL;
	*addr = s->addr;
	*mod = mod_of(ks, s);
	return name_of(ks, s);
}

const char *kallsyms_lookup(const struct kallsyms *ks, unsigned long long addr, size_t *len,
			    unsigned long long *start)
{
	const struct sym *s = find(ks, addr);
	const char *mod;
	size_t mod_len;

	if (!s)
		return NULL;
	*start = s->addr;
	*len = name_len(ks, s, &mod, &mod_len);
	return ks->text + s->name_off;
}

void kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep)
{
	tep_set_function_resolver(tep, resolve, ks);
}

void kallsyms_register_name(struct kallsyms *ks, struct tep_handle *tep, const char *name)
{
	struct sym **match = NULL;
	size_t len = strlen(name);
	int n = 0;

	for (int i = 0; i < ks->nr_names; i++)
		if (!strcmp(ks->names[i], name))
			return;
	ks->names = xrealloc(ks->names, sizeof(*ks->names) * (ks->nr_names + 1));
	ks->names[ks->nr_names++] = xstrdup(name);
	for (int i = 0; i < ks->nr; i++) {
		const char *at = ks->text + ks->syms[i].name_off;
		const char *m;
		size_t ml;

		/* Most names differ in their first bytes: look at the line only then. */
		if (ks->len - ks->syms[i].name_off < len || strncmp(at, name, len) || name_len(ks, &ks->syms[i], &m, &ml) != len)
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
		tep_register_function(tep, name_of(ks, first), first->addr, mod_of(ks, first));
	}
	free(match);
}

/* Addresses show as zeros unless kptr_restrict is 0: lift it while we read. */
char *kallsyms_read_proc(size_t *len)
{
	char old[16] = "";
	char *buf;
	int fd = open(KPTR_RESTRICT, O_RDWR | O_CLOEXEC);
	int changed = 0;

	if (fd >= 0) {
		ssize_t n = read(fd, old, sizeof(old) - 1);

		if (n > 0 && old[0] != '0') {
			old[n] = '\0';
			changed = pwrite(fd, "0", 1, 0) == 1;
			if (!changed)
				warning("cannot lift kptr_restrict: kallsyms may show no addresses");
		}
	}
	buf = read_path_text(KALLSYMS_PROC, len);
	if (changed && pwrite(fd, old, strlen(old), 0) < 0)
		warning("cannot restore kptr_restrict to %s: %s", old, strerror(errno));
	if (fd >= 0)
		close(fd);
	return buf;
}
