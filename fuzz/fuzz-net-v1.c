// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the v1 handshake strings of `record -N` / `listen`: the
 * client's cpu count, page size and options as the listener reads them,
 * then the listener's comma-separated port list as the client reads it.
 */
#include "trace-net.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_peer p = { .timeout_ms = 1000, .name = "fuzz:1" };
	struct net_init init = { 0 };
	char first[NET_MAX_STRING];
	unsigned int ports[NET_MAX_CPUS];

	if (size > (64 << 10))
		size = 64 << 10;
	p.fd = fuzz_peer_socket(data, size);
	if (!net_read_string(&p, first, sizeof(first), "the protocol version") &&
	    net_v1_recv_init(&p, first, &init) < 0)
		init.cpus = 1 + (size & 7);
	if (init.cpus > NET_MAX_CPUS)
		abort();
	if (init.cpus)
		net_v1_recv_ports(&p, init.cpus, ports);
	close(p.fd);
	return 0;
}
