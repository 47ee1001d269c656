// SPDX-License-Identifier: GPL-2.0
/*
 * A test client for `trace-cmd listen`: replays an existing v6 trace.dat
 * over the record -N protocol (v3, or v1 with -1) as the machine that wrote
 * it would, announcing the file's CPU count and page size, so the listener
 * can be tested without tracefs, with many clients, and with foreign files.
 *
 *   net-replay [-1] [-t] [--kill-after N] [--pace USEC] [--hold MSEC] HOST PORT FILE
 *
 * --kill-after N: die of SIGKILL after N data pages, without saying goodbye.
 * --pace USEC: sleep after each page.  --hold MSEC: wait before saying goodbye.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "trace-cmd.h"
#include "trace-cursor.h"
#include "trace-net.h"

struct replay {
	const unsigned char *map;
	size_t		size;
	uint32_t	cpus, page_size;
	size_t		meta_len;	/* bytes before the flyrecord tag */
	uint64_t	*off, *len;
	int		v1, tcp;
	long		kill_after, pace_us, hold_ms;
	const char	*host, *port;
};

static int skip_sized(struct cursor *c, int n, const char *what)
{
	uint64_t size;

	return cur_uint(c, n, &size, what) < 0 ? -1 : cur_skip(c, size, what);
}

/* Finds the flyrecord part of a v6 file (trace-cmd.dat.v6(5), FLYRECORD). */
static int parse_v6(struct replay *r, const char *name)
{
	struct cursor c;
	const char *s;
	const void *tag;
	uint32_t n, sys;
	uint8_t endian;

	cur_init(&c, r->map, r->size, 0, 0, name);
	if (cur_skip(&c, 10, "magic") < 0 || cur_string(&c, &s, "version") < 0)
		return -1;
	if (strcmp(s, "6"))
		return error("'%s': only v6 files can be replayed", name);
	if (cur_u8(&c, &endian, "endian") < 0 || cur_skip(&c, 1, "long size") < 0)
		return -1;
	c.big_endian = endian;
	if (cur_u32(&c, &r->page_size, "page size") < 0 ||
	    cur_string(&c, &s, "header_page") < 0 || skip_sized(&c, 8, "header page") < 0 ||
	    cur_string(&c, &s, "header_event") < 0 || skip_sized(&c, 8, "header event") < 0 ||
	    cur_u32(&c, &n, "ftrace count") < 0)
		return -1;
	while (n--)
		if (skip_sized(&c, 8, "ftrace format") < 0)
			return -1;
	if (cur_u32(&c, &sys, "systems") < 0)
		return -1;
	while (sys--) {
		if (cur_string(&c, &s, "system") < 0 || cur_u32(&c, &n, "events") < 0)
			return -1;
		while (n--)
			if (skip_sized(&c, 8, "event format") < 0)
				return -1;
	}
	if (skip_sized(&c, 4, "kallsyms") < 0 || skip_sized(&c, 4, "printk") < 0 ||
	    skip_sized(&c, 8, "cmdlines") < 0 || cur_u32(&c, &r->cpus, "cpus") < 0)
		return -1;
	for (;;) {
		size_t at = c.pos;

		if (cur_bytes(&c, 10, &tag, "tag") < 0)
			return -1;
		if (!memcmp(tag, "flyrecord", 10)) {
			r->meta_len = at;
			break;
		}
		if (memcmp(tag, "options  ", 10))
			return error("'%s': not a flyrecord file", name);
		for (uint16_t id = 1; id;) {
			uint32_t size;

			if (cur_u16(&c, &id, "option id") < 0)
				return -1;
			if (id && (cur_u32(&c, &size, "option size") < 0 ||
				   cur_skip(&c, size, "option") < 0))
				return -1;
		}
	}
	r->off = xcalloc(r->cpus, sizeof(*r->off));
	r->len = xcalloc(r->cpus, sizeof(*r->len));
	for (uint32_t i = 0; i < r->cpus; i++)
		if (cur_u64(&c, &r->off[i], "cpu offset") < 0 ||
		    cur_u64(&c, &r->len[i], "cpu size") < 0)
			return -1;
	for (uint32_t i = 0; i < r->cpus; i++)
		if (r->off[i] > r->size || r->len[i] > r->size - r->off[i])
			return error("'%s': cpu %u data past the end", name, i);
	return 0;
}

/*
 * The data goes to the address the control connection reached, as record -N
 * sends it: a name that resolves to ::1 first would take a UDP "connect" to
 * a port no one listens on there, and the pages would be lost.
 */
static int send_cpu(struct replay *r, int control_fd, uint32_t cpu, int port, long *pages)
{
	int fd = net_data_connect(control_fd, port, r->tcp, cpu);

	if (fd < 0)
		return -1;
	for (uint64_t done = 0; done < r->len[cpu]; done += r->page_size) {
		uint64_t n = r->len[cpu] - done < r->page_size ? r->len[cpu] - done : r->page_size;

		if (r->kill_after >= 0 && *pages >= r->kill_after)
			raise(SIGKILL);
		if (write_all(fd, r->map + r->off[cpu] + done, n) < 0)
			return error("cannot send cpu %u data: %s", cpu, strerror(errno));
		++*pages;
		if (r->pace_us)
			usleep(r->pace_us);
	}
	close(fd);
	return 0;
}

static int control(struct replay *r, int *fd)
{
	struct net_peer peer = { .timeout_ms = NET_TIMEOUT_MS, .name = "listener" };
	int ret = 0;

	for (int attempt = 0; attempt < 2; attempt++) {
		peer.fd = *fd = net_connect(r->host, r->port, SOCK_STREAM, "the listener");
		if (*fd < 0)
			return -1;
		ret = net_client_hello(&peer, !r->v1 && !attempt);
		if (ret != 1 || r->v1 || attempt)
			break;
		fprintf(stderr, "net-replay: listener refused v3, using v1\n");
		close(*fd);
	}
	return ret;
}

static int replay(struct replay *r)
{
	struct net_init init = { r->cpus, r->page_size, r->tcp };
	struct net_peer peer = { .timeout_ms = NET_TIMEOUT_MS, .name = "listener" };
	struct net_msg *m = xmalloc(sizeof(*m));
	unsigned int *ports = xcalloc(r->cpus, sizeof(*ports));
	int version = control(r, &peer.fd);
	long pages = 0;

	if (version < 0)
		return -1;
	if (version == 3) {
		if (net_send_tinit(&peer, &init) < 0 || net_recv_msg(&peer, m) < 0 ||
		    net_parse_rinit(&peer, m, r->cpus, ports) < 0 ||
		    net_send_data(&peer, r->map, r->meta_len) < 0 ||
		    net_send_msg(&peer, NET_FIN_DATA, NULL, 0, NULL, 0) < 0)
			return -1;
	} else if (net_v1_send_init(&peer, &init) < 0 ||
		   net_v1_recv_ports(&peer, r->cpus, ports) < 0 ||
		   net_write(&peer, r->map, r->meta_len, "metadata") < 0) {
		return -1;
	}
	for (uint32_t i = 0; i < r->cpus; i++)
		if (send_cpu(r, peer.fd, i, ports[i], &pages) < 0)
			return -1;
	if (r->hold_ms)
		usleep(r->hold_ms * 1000);
	if (version == 3 && net_send_msg(&peer, NET_CLOSE, NULL, 0, NULL, 0) < 0)
		return -1;
	close(peer.fd);
	free(m);
	free(ports);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kill-after", required_argument, NULL, 'k' },
		{ "pace", required_argument, NULL, 'P' },
		{ "hold", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	struct replay r = { .kill_after = -1 };
	struct stat st;
	int c, fd;

	current_command = "net-replay";
	while ((c = getopt_long(argc, argv, "1t", opts, NULL)) != -1) {
		if (c == '1')
			r.v1 = 1;
		else if (c == 't')
			r.tcp = 1;
		else if (c == 'k')
			r.kill_after = atol(optarg);
		else if (c == 'P')
			r.pace_us = atol(optarg);
		else if (c == 'H')
			r.hold_ms = atol(optarg);
		else
			return 2;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: net-replay [-1] [-t] [--kill-after N] [--pace USEC] [--hold MSEC] HOST PORT FILE\n");
		return 2;
	}
	r.host = argv[optind];
	r.port = argv[optind + 1];
	fd = open(argv[optind + 2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		return error("cannot open '%s': %s", argv[optind + 2], strerror(errno)), 1;
	r.size = st.st_size;
	r.map = mmap(NULL, r.size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (r.map == MAP_FAILED)
		return error("cannot map '%s': %s", argv[optind + 2], strerror(errno)), 1;
	signal(SIGPIPE, SIG_IGN);
	if (parse_v6(&r, argv[optind + 2]) < 0 || replay(&r) < 0)
		return 1;
	return 0;
}
