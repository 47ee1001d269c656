// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's function at a host kvm event's rip, for report -i HOST -i
 * GUEST: libtraceevent's kvm plugin calls tep_plugin_kvm_get_func() (a weak
 * symbol of its own, replaced by ours as the Makefile exports it) and prints
 * " func+0xOFF" after the rip, as upstream 3.4 does.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-cursor.h"
#include "trace-input.h"
#include "trace-kvm-guest.h"

/* A host task running a vCPU of a guest whose file report has open. */
struct vcpu_task {
	int			pid;
	struct trace_input	*guest;
};

struct kvm_guests {
	const struct tep_handle	*host;	/* the host file's: only its events are looked up */
	struct vcpu_task	*tasks;	/* by pid */
	int			nr;
};

/*
 * The plugin's hook takes the event, the record and the rip, no context of
 * ours: the map of report's files can only be reached from a file-scope
 * pointer, set by kvm_guest_map() and cleared by kvm_guest_unmap().
 */
static struct kvm_guests guests;

static int cmp_task(const void *a, const void *b)
{
	const struct vcpu_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The file among @files (but @self) whose TRACEID is @id, or NULL. */
static struct trace_input *file_by_id(struct trace_input **files, int nr_files,
				      const struct trace_input *self, uint64_t id)
{
	for (int i = 0; i < nr_files; i++) {
		struct cursor c;
		const void *p;
		size_t len;
		uint64_t v;

		if (files[i] == self || !(p = trace_input_option(files[i], TRACE_OPT_TRACEID, 0, &len)) ||
		    len < sizeof(v))
			continue;
		cur_init(&c, p, len, 0, trace_input_big_endian(files[i]), trace_input_file(files[i]));
		if (cur_u64(&c, &v, "trace id") == 0 && v == id)
			return files[i];
	}
	return NULL;
}

static void add_task(int pid, struct trace_input *guest)
{
	struct vcpu_task *t;

	guests.tasks = xrealloc(guests.tasks, sizeof(*guests.tasks) * (guests.nr + 1));
	t = &guests.tasks[guests.nr++];
	t->pid = pid;
	t->guest = guest;
}

/*
 * One GUEST option of @host (trace-cmd.dat.v7(5): the guest's name, its
 * trace id, the vCPU count, then (vCPU, host pid) pairs): its tasks, when
 * the guest's file is among @files.
 */
static void map_option(struct trace_input *host, const void *p, size_t len,
		       struct trace_input **files, int nr_files)
{
	struct trace_input *guest;
	const char *name;
	uint32_t n, vcpu, pid;
	uint64_t id;
	struct cursor c;

	cur_init(&c, p, len, 0, trace_input_big_endian(host), trace_input_file(host));
	c.within = "GUEST option";
	c.kept = "the guest's functions are not named at its kvm events' rips";
	if (cur_string(&c, &name, "guest name") < 0 || cur_u64(&c, &id, "guest trace id") < 0 ||
	    cur_u32(&c, &n, "guest CPU count") < 0 || cur_need(&c, (uint64_t)n * 8, "guest CPUs") < 0)
		return;
	guest = file_by_id(files, nr_files, host, id);
	for (uint32_t i = 0; guest && i < n; i++)
		if (cur_u32(&c, &vcpu, "guest CPU") == 0 && cur_u32(&c, &pid, "guest CPU's host pid") == 0)
			add_task((int)pid, guest);
}

void kvm_guest_map(struct trace_input **files, int nr_files)
{
	const void *p;
	size_t len;

	kvm_guest_unmap();
	if (nr_files < 2 || !(guests.host = trace_input_tep(files[0])))
		return;
	for (int n = 0; (p = trace_input_option(files[0], TRACE_OPT_GUEST, n, &len)); n++)
		map_option(files[0], p, len, files, nr_files);
	if (guests.nr)
		qsort(guests.tasks, guests.nr, sizeof(*guests.tasks), cmp_task);
}

void kvm_guest_unmap(void)
{
	free(guests.tasks);
	guests.host = NULL;
	guests.tasks = NULL;
	guests.nr = 0;
}

/*
 * The kvm plugin's hook (libtraceevent's plugin_kvm.c): for @record, a kvm
 * event whose rip is *@val, the name of the guest function there, *@val
 * set to the function's start (the plugin prints the difference as
 * "+0x..."), or NULL when its task runs no vCPU of a guest file report has
 * open.  The name belongs to the guest's tep: the plugin's put hook, which
 * would free it, has nothing to do and keeps its own empty default.
 */
const char *tep_plugin_kvm_get_func(struct tep_event *event, struct tep_record *record,
				    unsigned long long *val);
const char *tep_plugin_kvm_get_func(struct tep_event *event, struct tep_record *record,
				    unsigned long long *val)
{
	struct vcpu_task key;
	const struct vcpu_task *t;
	struct tep_handle *tep;
	const char *func;

	/* Not a guest's own kvm events (a nested guest's): 3.4 looks those up too. */
	if (!guests.nr || event->tep != guests.host)
		return NULL;
	key.pid = tep_data_pid(event->tep, record);
	t = bsearch(&key, guests.tasks, guests.nr, sizeof(*guests.tasks), cmp_task);
	if (!t)
		return NULL;
	trace_input_load_functions(t->guest);
	tep = trace_input_tep(t->guest);
	func = tep_find_function(tep, *val);
	if (func)
		*val = tep_find_function_address(tep, *val);
	return func;
}
