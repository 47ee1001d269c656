/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The common layer of the trace.dat writer, below the v6 and v7 layouts
 * (trace-output-v6.c, trace-output-v7.c) and the API (trace-output.c): the
 * checked byte stream with its offset, the page size CPU data is aligned to,
 * and the options queued for the next options block.  Calls go downward only.
 */
#ifndef TRACE_DAT_OUT_H
#define TRACE_DAT_OUT_H

#include <stddef.h>
#include <stdint.h>

/* A growing memory buffer (a section body, the STRINGS contents, an option). */
struct membuf {
	char *data;
	size_t len, cap;
};

void mb_add(struct membuf *m, const void *buf, size_t len);
/* Integers in host byte order: the file's endian byte says which. */
void mb_u16(struct membuf *m, uint16_t v);
void mb_u32(struct membuf *m, uint32_t v);
void mb_u64(struct membuf *m, uint64_t v);

struct dat_option {
	uint16_t id;
	uint32_t size;
	char *data;
};

/*
 * The output every layer writes through; its fields are read by the layouts
 * and changed only by the functions below.
 */
struct dat_out {
	int fd;
	char *name;		/* quoted in messages */
	uint64_t pos;		/* bytes written (or captured) so far */
	int failed;		/* a write failed, said why: nothing more is written */
	uint32_t page_size;	/* the prefix's; CPU data starts on such a boundary */
	struct dat_option *opts;	/* queued for the next options block */
	size_t nr_opts;
	struct membuf capture;	/* while capturing, writes land here instead */
	int capturing;
};

/* Takes @fd (closed by dat_out_close); the page size is this machine's until set. */
struct dat_out *dat_out_new(int fd, const char *name);
/* Closes and frees; -1 if the final close failed (printed). */
int dat_out_close(struct dat_out *d);

/* Writes @len bytes (or captures them); -1 after printing why. */
int dat_write(struct dat_out *d, const void *buf, size_t len);
int dat_u16(struct dat_out *d, uint16_t v);
int dat_u32(struct dat_out *d, uint32_t v);
int dat_u64(struct dat_out *d, uint64_t v);
/* @s with its NUL. */
int dat_str(struct dat_out *d, const char *s);
/* Zeros up to offset @offset. */
int dat_pad_to(struct dat_out *d, uint64_t offset);
/* Overwrites @len bytes already written at @at (the output must seek). */
int dat_patch(struct dat_out *d, uint64_t at, const void *buf, size_t len);
/* Copies @len bytes of the regular file @fd, from its offset 0. */
int dat_copy_fd(struct dat_out *d, int fd, uint64_t len);

/*
 * From now on writes go to d->capture (the offset does not move) until
 * dat_capture_end(), which leaves the bytes there for the caller to write.
 */
void dat_capture_begin(struct dat_out *d);
void dat_capture_end(struct dat_out *d);

/* Queues an option (a copy of @data). */
void dat_add_option(struct dat_out *d, uint16_t id, const void *data, uint32_t size);
/* Forgets the queued options (once written). */
void dat_clear_options(struct dat_out *d);

#endif
