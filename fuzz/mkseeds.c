// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the seed corpora of the fuzz targets from real inputs: pages and
 * file headers cut from trace.dat files, and protocol messages as our own
 * senders put them on the wire.  Run once by `make fuzz-seeds`; the fuzzers
 * grow the corpora from there.
 *
 *   mkseeds OUTDIR TEMPLATE-INDEX:FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-net.h"

static const char *outdir;
static int seq;

static void put(const char *target, const void *a, size_t alen, const void *b, size_t blen)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/seed-%03d", outdir, target, seq++);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write_all(fd, a, alen) < 0 || write_all(fd, b, blen) < 0) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static unsigned char *slurp(const char *file, size_t *size)
{
	int fd = open(file, O_RDONLY);
	struct stat st;
	unsigned char *p;

	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(file);
		exit(1);
	}
	p = xmalloc(st.st_size + 1);
	*size = read_all(fd, p, st.st_size);
	close(fd);
	return p;
}

/* Up to 3 pages of the first CPU with data, each behind its template byte. */
static void page_seeds(int tmpl, const char *file, const unsigned char *d, size_t size)
{
	struct trace_input *in = trace_input_open(file, TRACE_INPUT_NO_PLUGINS | TRACE_INPUT_NO_TEP);
	unsigned char sel = tmpl;

	if (!in)
		exit(1);
	for (int cpu = 0; cpu < trace_input_buffer_cpus(in, 0); cpu++) {
		uint64_t off = trace_input_cpu_offset(in, 0, cpu);
		uint64_t len = trace_input_cpu_size(in, 0, cpu);
		unsigned int ps = trace_input_page_size(in);

		if (!len || trace_input_compression(in)[0] != 'n')
			continue;
		for (uint64_t p = 0; p < 3 && (p + 1) * ps <= len && off + (p + 1) * ps <= size; p++)
			put("page", &sel, 1, d + off + p * ps, ps);
		break;
	}
	trace_input_close(in);
}

/* The file header a client streams: a v6 file up to its flyrecord tag, a v7 file whole. */
static void listen_file_seeds(const unsigned char *d, size_t size)
{
	const unsigned char *fly = memmem(d, size, "flyrecord", 10);
	unsigned char cpus = 0x11;

	if (d[10] == '6' && fly)
		size = fly - d;
	if (size < 64 << 10)
		put("listen-file", &cpus, 1, d, size);
}

/* What a sender wrote into a socketpair, as one seed. */
static int wire[2];

static void wire_open(struct net_peer *p)
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, wire) < 0)
		exit(1);
	p->fd = wire[0];
	p->timeout_ms = 1000;
	p->name = "seed";
}

static void wire_put(const char *target)
{
	unsigned char buf[65536];
	ssize_t n;

	close(wire[0]);
	n = read_all(wire[1], buf, sizeof(buf));
	close(wire[1]);
	put(target, buf, n, NULL, 0);
}

static void net_seeds(void)
{
	static const char meta[] = "\x17\x08\x44tracing6\0\0\x08\0\x10\0\0";
	unsigned int ports[4] = { 40001, 40002, 40003, 40004 };
	struct net_peer p;

	for (int tcp = 0; tcp < 2; tcp++) {
		struct net_init init = { .cpus = 2 + 2 * tcp, .page_size = 4096, .tcp = tcp };

		wire_open(&p);
		net_send_tinit(&p, &init);
		net_send_rinit(&p, init.cpus, ports);
		net_send_data(&p, meta, sizeof(meta));
		net_send_msg(&p, NET_FIN_DATA, NULL, 0, NULL, 0);
		net_send_msg(&p, NET_CLOSE, NULL, 0, NULL, 0);
		wire_put("net-v3");

		wire_open(&p);
		net_write(&p, "-1V3", 5, "version");
		net_write(&p, "766679\0\0", 8, "magic");
		net_send_tinit(&p, &init);
		net_send_msg(&p, NET_NOT_SUPP, NULL, 0, NULL, 0);
		wire_put("net-v3");

		wire_open(&p);
		net_v1_send_init(&p, &init);
		net_v1_send_ports(&p, init.cpus, ports);
		wire_put("net-v1");
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mkseeds OUTDIR TEMPLATE-INDEX:FILE...\n");
		return 2;
	}
	outdir = argv[1];
	net_seeds();
	for (int i = 2; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		size_t size;
		unsigned char *d;

		if (!colon)
			return 2;
		*colon = 0;
		d = slurp(colon + 1, &size);
		if (atoi(argv[i]) >= 0)
			page_seeds(atoi(argv[i]), colon + 1, d, size);
		listen_file_seeds(d, size);
		free(d);
	}
	return 0;
}
