/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TRACE_KEYMAP_H
#define TRACE_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A map from a 64-bit key (a pid, a pid and its buffer...) to a value of a
 * fixed size, zeroed when the key is first seen.  A value's address holds
 * until the next key is added (the table then grows and moves).
 */
struct keymap {
	size_t		value_size;
	size_t		nr, slots;	/* slots: 0 or a power of two */
	uint64_t	*keys;
	unsigned char	*used;
	char		*values;
};

#define KEYMAP_INIT(type)	{ .value_size = sizeof(type) }

/* The key's value, added (zeroed, *added set) if it was not there. */
void *keymap_get(struct keymap *map, uint64_t key, bool *added);
/* The value in a slot (0 to map->slots - 1), NULL for an empty one. */
void *keymap_slot(const struct keymap *map, size_t slot);
void keymap_free(struct keymap *map);

#endif
