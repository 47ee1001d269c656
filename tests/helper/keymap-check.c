// SPDX-License-Identifier: GPL-2.0
/*
 * Unit check of trace-keymap.c: keys that collide in their low bits (pids
 * of several buffers), a table grown many times, values kept across growth,
 * every key found once by a walk of the slots.  Prints what went wrong and
 * exits 1, else prints "ok N".
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../trace-keymap.h"

struct value {
	uint64_t	key;
	int		count;
};

static uint64_t key_of(int i)
{
	return (uint64_t)(i % 7) << 32 | (uint32_t)(i * 4096);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	struct keymap map = KEYMAP_INIT(struct value);
	size_t walked = 0;
	bool added;

	for (int round = 0; round < 2; round++)
		for (int i = 0; i < n; i++) {
			struct value *v = keymap_get(&map, key_of(i), &added);

			if (added != (round == 0) || (!added && v->key != key_of(i))) {
				printf("key %d round %d: added %d, holds %#llx\n", i, round, added,
				       (unsigned long long)v->key);
				return 1;
			}
			v->key = key_of(i);
			v->count++;
		}
	for (size_t slot = 0; slot < map.slots; slot++) {
		struct value *v = keymap_slot(&map, slot);

		if (v && v->count != 2) {
			printf("key %#llx counted %d times, not 2\n", (unsigned long long)v->key,
			       v->count);
			return 1;
		}
		walked += v != NULL;
	}
	if (walked != (size_t)n || map.nr != (size_t)n) {
		printf("%zu keys walked, %zu counted, %d added\n", walked, map.nr, n);
		return 1;
	}
	keymap_free(&map);
	printf("ok %d\n", n);
	return 0;
}
