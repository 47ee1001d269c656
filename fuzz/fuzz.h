/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets: the parsers under test take file names
 * or sockets, so each input is put into an in-memory file (memfd) or pushed
 * through a socketpair, and read back exactly as the real command does.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>

/* Replaces the contents of the memfd *fd (created on first use); returns its path. */
static inline const char *fuzz_memfile(int *fd, const void *data, size_t size)
{
	static char path[64];

	if (*fd < 0) {
		*fd = memfd_create("fuzz-input", 0);
		if (*fd < 0) {
			perror("memfd_create");
			abort();
		}
	}
	if (ftruncate(*fd, 0) < 0 || (size && pwrite(*fd, data, size, 0) != (ssize_t)size)) {
		perror("memfd write");
		abort();
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
	return path;
}

/*
 * A socket that reads back @data and then EOF, as a peer that sent it and
 * hung up.  The caller closes it; @size must stay below 64 KiB (the socket
 * buffer), or the write would block.
 */
static inline int fuzz_peer_socket(const void *data, size_t size)
{
	int sv[2], sndbuf = 1 << 20;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		abort();
	}
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (size && write(sv[0], data, size) != (ssize_t)size) {
		perror("socketpair write");
		abort();
	}
	close(sv[0]);
	return sv[1];
}

#endif
