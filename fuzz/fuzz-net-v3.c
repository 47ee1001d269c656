// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the v3 messages of `record -N` / `listen`, as a peer
 * sends them: a stream of messages read one by one, the first parsed as
 * TINIT (the listener's side), the others as RINIT (the client's side) and
 * as the metadata stream (SEND_DATA, FIN_DATA, CLOSE).
 */
#include <string.h>

#include "trace-net.h"
#include "fuzz.h"

#define MAX_MESSAGES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_peer p = { .timeout_ms = 1000, .name = "fuzz:1" };
	struct net_msg *m = malloc(sizeof(*m));
	struct net_init init = { .cpus = 1 };
	unsigned int ports[NET_MAX_CPUS];
	size_t meta = 0;

	if (size > (64 << 10))
		size = 64 << 10;
	p.fd = fuzz_peer_socket(data, size);
	if (!net_recv_msg(&p, m) && net_parse_tinit(&p, m, &init) < 0)
		init.cpus = 1 + (m->len & 7);
	for (int i = 0; i < MAX_MESSAGES; i++) {
		if (net_recv_msg(&p, m) < 0)
			break;
		net_parse_rinit(&p, m, init.cpus, ports);
		if (m->cmd == NET_SEND_DATA)
			meta += m->len - m->fixed_len;
		else if (m->cmd == NET_CLOSE)
			break;
		net_cmd_name(m->cmd);
	}
	close(p.fd);
	free(m);
	return meta == (size_t)-1;
}
