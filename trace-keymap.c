// SPDX-License-Identifier: GPL-2.0
/*
 * An open-addressing hash map from 64-bit keys to fixed-size values: the
 * exports keep one entry per task and look it up for every record.
 */
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-keymap.h"

/* Fibonacci hashing: pids are dense, and the top bits of the product are not. */
static size_t slot_of(const struct keymap *map, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (map->slots - 1);
}

static size_t find(const struct keymap *map, uint64_t key)
{
	size_t slot = slot_of(map, key);

	while (map->used[slot] && map->keys[slot] != key)
		slot = (slot + 1) & (map->slots - 1);
	return slot;
}

static void grow(struct keymap *map)
{
	struct keymap old = *map;

	map->slots = old.slots ? old.slots * 2 : 1024;
	map->keys = xcalloc(map->slots, sizeof(*map->keys));
	map->used = xcalloc(map->slots, 1);
	map->values = xcalloc(map->slots, map->value_size);
	for (size_t i = 0; i < old.slots; i++) {
		size_t slot;

		if (!old.used[i])
			continue;
		slot = find(map, old.keys[i]);
		map->used[slot] = 1;
		map->keys[slot] = old.keys[i];
		memcpy(map->values + slot * map->value_size, old.values + i * map->value_size,
		       map->value_size);
	}
	free(old.keys);
	free(old.used);
	free(old.values);
}

void *keymap_get(struct keymap *map, uint64_t key, bool *added)
{
	size_t slot;

	if ((map->nr + 1) * 2 > map->slots)
		grow(map);
	slot = find(map, key);
	*added = !map->used[slot];
	if (*added) {
		map->used[slot] = 1;
		map->keys[slot] = key;
		map->nr++;
	}
	return map->values + slot * map->value_size;
}

void *keymap_slot(const struct keymap *map, size_t slot)
{
	return map->used[slot] ? map->values + slot * map->value_size : NULL;
}

void keymap_free(struct keymap *map)
{
	free(map->keys);
	free(map->used);
	free(map->values);
	map->keys = NULL;
	map->used = NULL;
	map->values = NULL;
	map->nr = map->slots = 0;
}
