/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inside of the trace.dat reader, shared by its modules and by no one
 * else: trace-input.c (file and metadata), trace-tep.c (formats to tep),
 * trace-cpu-stream.c (per-CPU records), trace-merge.c (their merge) and
 * trace-reader.c (open and close, above the others).  Callers use
 * trace-input.h.
 */
#ifndef TRACE_READER_H
#define TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "trace-clock.h"
#include "trace-compress.h"
#include "trace-cursor.h"
#include "trace-input.h"
#include "trace-merge.h"

#define MAX_CPUS		4096
#define MAX_PAGE_SIZE		(1U << 24)
#define MAX_BUFFERS		256
#define MAX_OPTION_SECTIONS	1024
#define MAX_SECTION_SIZE	(1ULL << 30)	/* decompressed metadata */
#define MAX_CHUNK_SIZE		(1U << 26)	/* decompressed CPU data chunk */
#define LAZY_IDS		65536		/* event ids with a done flag */
#define BUFFER_ENTRY		20		/* v7 BUFFER option: u32 CPU, u64 offset, u64 size */
#define SECTION_HEADER		16		/* v7: u16 id, u16 flags, u32 description, u64 size */


struct option_rec {
	uint16_t		id;
	uint32_t		size;
	const unsigned char	*data;
};

struct cpu_data {
	uint64_t		offset;
	uint64_t		size;
};

struct buffer {
	char			*name;
	char			*clock;
	int			cpus;
	unsigned int		page_size;
	int			chunked;	/* v7 compressed data */
	uint64_t		flyrecord;	/* v6: offset of its flyrecord block */
	uint64_t		data_end;	/* v7: end of its section */
	struct cpu_data		*cpu;
};

struct format {
	const char		*system;
	const char		*text;
	size_t			len;
};

struct trace_input {
	char			*file;
	int			fd;
	uint64_t		fsize;
	const unsigned char	*map;
	int			flags;
	int			version;
	int			big_endian;
	int			long_size;
	int			kernel_long_size;
	unsigned int		page_size;
	int			comp;		/* TRACE_COMP_* */
	struct inflater		inflater;	/* the reading thread's */
	char			*comp_name;
	char			*comp_version;
	int			cpus;
	int			cpucount_seen;
	int			latency;
	uint64_t		latency_off;	/* v6: text start; v7: section header */
	struct tep_handle	*tep;
	struct tep_plugin_list	*plugins;
	/*
	 * TRACE_INPUT_LAZY: formats are parsed when a record of theirs is
	 * first met (format_id: each format's "ID:", -1 when it has none;
	 * id_done: ids already looked for), kallsyms when first needed.
	 */
	int			*format_id;
	unsigned char		*id_done;
	unsigned char		*format_done;
	int			funcs_loaded;
	int			all_parsed;	/* trace_input_parse_all(): functions registered */
	struct kallsyms		*ksyms;		/* lazily: see trace_input_load_functions() */
	struct ahead		*ahead;		/* started with the first chunked stream */
	uint64_t		*flex_by_id;	/* 1 + each id's, see id_flex_offset() */
	const unsigned char	*want_ids;	/* trace_input_only_ids() */
	int			common_known;	/* 1: the fields below are set, -1: unusable */
	int			type_offset, type_size;
	int			pid_offset, pid_size;
	int			flags_offset, flags_size;	/* size 0: no usable common_flags */
	struct cursor		type_cursor;	/* decodes common fields in the file's order */

	struct buffer		buffers[MAX_BUFFERS];
	int			nr_buffers;
	struct option_rec	*opts;
	int			nr_opts;
	struct format		*formats;
	int			nr_formats;
	const char		*header_page, *header_event;
	size_t			header_page_len, header_event_len;
	/* kallsyms stays in the map or its section until asked for as text. */
	const char		*kallsyms_at;
	size_t			kallsyms_len;
	uint64_t		kallsyms_section;	/* v7, compressed: not yet decompressed */
	int			kallsyms_damaged;	/* it did not decompress (warned) */
	const char		*extra_kallsyms;	/* report --kallsyms, read after the file's */
	size_t			extra_kallsyms_len;
	char			*kallsyms, *printk, *cmdlines;
	int			traceclock_seen;
	char			*clock;
	/*
	 * The clock times are shown by when the top buffer names another (v7):
	 * TRACECLOCK's, as 3.4 shows them, NULL without one (seconds).
	 */
	char			*shown_clock;
	int			shown_apart;
	int			in_usecs;

	void			**owned;	/* decompressed sections, freed at close */
	int			nr_owned;
	uint64_t		sections[32];	/* v7: section offsets by option id */
	uint64_t		*opt_sects;	/* v7: every options section, in file order */
	unsigned char		*opt_read;	/* whether it was read */
	int			nr_opt_sects;
	uint64_t		tail_at;	/* v7: not a whole section from here to the end */
	uint64_t		options_link;	/* v7: the last DONE's next offset, 0: compressed */
	uint64_t		strings_size;	/* v7: bytes of every STRINGS section */

	struct clock_conv	conv;		/* raw time stamps to report's */

	unsigned char		*skip_cpu;
	int			cpu_order;	/* trace_input_cpu_order(): no merge by time */
	struct cpu_stream		*streams;
	int			nr_streams;
	struct merge_heap	heap;
	int			started;
	int			failed;
};

void reader_own(struct trace_input *in, void *p);
char *reader_strndup(const void *p, size_t n);
/* Decompresses @src into @dst; messages name @at's file (warnings if it says what is kept). */
int reader_decompress(struct trace_input *in, const struct cursor *at, const void *src,
		      size_t csize, void *dst, size_t usize, uint64_t off, const char *what);
/* The kallsyms text, decompressed now if it waited (a damaged one is warned of). */
void reader_kallsyms_text(struct trace_input *in);

/*
 * The file and its metadata, parsed (trace_input_open() does the rest, in
 * trace-reader.c); NULL when it cannot be read (printed).
 */
struct trace_input *reader_open_file(const char *file, int flags);
/* After the tep handle: warns of page sizes and bytes no part of the file claims. */
void reader_check_layout(struct trace_input *in);
/* Frees what reader_open_file() and the tep handle hold (not the merge's streams). */
void reader_free(struct trace_input *in);

/* trace-tep.c: the tep handle from the file's formats (all, or lazily), printk, cmdlines. */
int reader_build_tep(struct trace_input *in);

/* trace-merge.c: frees the per-CPU streams and the heap. */
void merge_free(struct trace_input *in);

#endif
