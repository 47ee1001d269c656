// SPDX-License-Identifier: GPL-2.0
/*
 * setup-guest: the FIFOs through which a virtual machine's agent can hand
 * each vCPU's trace data to its host (record -A with fifos), where upstream
 * puts them: /var/lib/trace-cmd/virt/GUEST/trace-pipe-cpuN.{in,out}.  With
 * -a they are attached to the libvirt domain's configuration (virsh).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-cmd.h"

extern const struct command cmd_setup_guest;

#define VIRT_DIR "/var/lib/trace-cmd/virt"
#define MAX_VCPUS 4096

static const char setup_guest_usage[] =
	"usage: trace-cmd setup-guest [-c CPUS] [-p PERM] [-g GROUP] [-a] GUEST\n"
	"  -c CPUS    the guest's number of virtual CPUs (default: the maximum virsh gives)\n"
	"  -p PERM    the FIFOs' permissions, in octal (default 0660)\n"
	"  -g GROUP   the FIFOs' and their directories' group\n"
	"  -a         attach the FIFOs to the guest's libvirt configuration (virsh attach-device)\n"
	"  -h         show this help\n"
	"Makes " VIRT_DIR "/GUEST/trace-pipe-cpuN.in and .out for each vCPU.\n";

static const struct option setup_guest_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct setup_guest {
	const char *guest;
	unsigned long cpus;	/* 0: ask virsh */
	unsigned long perm;
	gid_t gid;		/* (gid_t)-1: leave the group */
	bool attach;
};

static int parse_group(struct setup_guest *sg, const char *name)
{
	struct group *gr = getgrnam(name);

	if (!gr)
		return usage_error(&cmd_setup_guest, "-g: no group '%s'", name);
	sg->gid = gr->gr_gid;
	return PARSE_RUN;
}

static int parse_opt(struct setup_guest *sg, int c, const char *arg)
{
	switch (c) {
	case 'c':
		if (parse_ulong("-c", arg, 1, MAX_VCPUS, &sg->cpus) < 0)
			return usage_follows(&cmd_setup_guest);
		return PARSE_RUN;
	case 'p': {
		char *end;

		errno = 0;
		sg->perm = strtoul(arg, &end, 8);
		if (errno || !*arg || *end || sg->perm > 07777)
			return usage_error(&cmd_setup_guest,
					   "invalid -p value '%s': not an octal mode", arg);
		return PARSE_RUN;
	}
	case 'g':
		return parse_group(sg, arg);
	case 'a':
		sg->attach = true;
		return PARSE_RUN;
	}
	return -2;
}

static int parse(struct setup_guest *sg, int argc, char **argv)
{
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hc:p:g:a", setup_guest_longopts, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_setup_guest);
		ret = parse_opt(sg, c, optarg);
		if (ret == -2)
			return option_error(&cmd_setup_guest, argv, c);
		if (ret != PARSE_RUN)
			return ret;
	}
	if (optind >= argc)
		return usage_error(&cmd_setup_guest, "no GUEST given");
	if (optind + 1 < argc)
		return usage_error(&cmd_setup_guest, "unexpected argument '%s'", argv[optind + 1]);
	sg->guest = argv[optind];
	/* The name is a directory of VIRT_DIR. */
	if (!*sg->guest || strchr(sg->guest, '/') || !strcmp(sg->guest, ".") ||
	    !strcmp(sg->guest, ".."))
		return usage_error(&cmd_setup_guest, "invalid guest name '%s'", sg->guest);
	return PARSE_RUN;
}

/*
 * Runs ARGV (no shell: the guest's name is one word whatever it holds), its
 * output into @out: 0, or why it failed ("not installed", "exit 1") in @why.
 */
static int run_virsh(char *const argv[], char *out, size_t size, char *why, size_t why_size)
{
	int pipefd[2], status;
	ssize_t n = 0;
	pid_t pid;

	if (pipe(pipefd) < 0 || (pid = fork()) < 0)
		return snprintf(why, why_size, "%s", strerror(errno)), -1;
	if (!pid) {
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	if (out)
		n = read_all(pipefd[0], out, size - 1);
	close(pipefd[0]);
	if (out)
		out[n > 0 ? n : 0] = '\0';
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return snprintf(why, why_size, "killed"), -1;
	if (WEXITSTATUS(status) == 127)
		return snprintf(why, why_size, "virsh is not installed"), -1;
	if (WEXITSTATUS(status))
		return snprintf(why, why_size, "exit %d", WEXITSTATUS(status)), -1;
	return 0;
}

static int guest_cpus(struct setup_guest *sg)
{
	char *argv[] = { "virsh", "vcpucount", "--maximum", (char *)sg->guest, NULL };
	char out[64], why[64];

	if (sg->cpus)
		return 0;
	if (run_virsh(argv, out, sizeof(out), why, sizeof(why)) < 0)
		return error("cannot tell guest '%s''s vCPU count (virsh vcpucount: %s): give -c",
			     sg->guest, why);
	out[strcspn(out, "\n")] = '\0';
	if (parse_ulong("virsh vcpucount", out, 1, MAX_VCPUS, &sg->cpus) < 0)
		return -1;
	return 0;
}

/* A directory of ours: made 0750 in @gid's group when missing. */
static int make_dir(const char *path, gid_t gid)
{
	struct stat st;

	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? 0 : error("'%s' exists and is not a directory", path);
	if (mkdir(path, 0750) < 0 && errno != EEXIST)
		return error("cannot create '%s': %s", path, strerror(errno));
	if (chmod(path, 0750) < 0 || (gid != (gid_t)-1 && chown(path, -1, gid) < 0))
		return error("cannot set the mode or group of '%s': %s", path, strerror(errno));
	return 0;
}

static int make_fifo(const char *path, const struct setup_guest *sg)
{
	struct stat st;

	if (!lstat(path, &st) && !S_ISFIFO(st.st_mode))
		return error("'%s' exists and is not a FIFO", path);
	if (mkfifo(path, sg->perm) < 0 && errno != EEXIST)
		return error("cannot create FIFO '%s': %s", path, strerror(errno));
	/* The umask took bits away; the mode asked is the mode wanted. */
	if (chmod(path, sg->perm) < 0 || (sg->gid != (gid_t)-1 && chown(path, -1, sg->gid) < 0))
		return error("cannot set the mode or group of '%s': %s", path, strerror(errno));
	return 0;
}

/* The libvirt channel of one vCPU's FIFO pair, written to a temporary file. */
static int attach_cpu(const struct setup_guest *sg, const char *base, unsigned long cpu)
{
	char xml[] = "/tmp/trace-cmd-pipexml.XXXXXX", why[64];
	char *argv[] = { "virsh", "attach-device", "--config", (char *)sg->guest, xml, NULL };
	int fd = mkstemp(xml), ret;

	if (fd < 0)
		return error("cannot create a temporary file: %s", strerror(errno));
	ret = dprintf(fd, "<channel type='pipe'>\n"
			  "  <source path='%s%lu'/>\n"
			  "  <target type='virtio' name='trace-pipe-cpu%lu'/>\n"
			  "</channel>", base, cpu, cpu) < 0 ? error("cannot write '%s': %s", xml,
								    strerror(errno)) : 0;
	close(fd);
	if (!ret && run_virsh(argv, NULL, 0, why, sizeof(why)) < 0)
		ret = error("cannot attach vCPU %lu's FIFOs to guest '%s' (virsh attach-device: %s)",
			    cpu, sg->guest, why);
	unlink(xml);
	return ret;
}

static int setup(struct setup_guest *sg)
{
	size_t len = strlen(VIRT_DIR) + strlen(sg->guest) + 64;
	char *dir = xmalloc(len), *base = xmalloc(len), *path = xmalloc(len + 32);
	int ret = 0;

	sprintf(dir, "%s/%s", VIRT_DIR, sg->guest);
	sprintf(base, "%s/trace-pipe-cpu", dir);
	if (make_dir("/var/lib/trace-cmd", (gid_t)-1) < 0 || make_dir(VIRT_DIR, sg->gid) < 0 ||
	    make_dir(dir, sg->gid) < 0)
		ret = -1;
	for (unsigned long cpu = 0; !ret && cpu < sg->cpus; cpu++) {
		sprintf(path, "%s%lu.in", base, cpu);
		ret = make_fifo(path, sg);
		sprintf(path, "%s%lu.out", base, cpu);
		if (!ret)
			ret = make_fifo(path, sg);
	}
	for (unsigned long cpu = 0; !ret && sg->attach && cpu < sg->cpus; cpu++)
		ret = attach_cpu(sg, base, cpu);
	free(path);
	free(base);
	free(dir);
	return ret;
}

static int run_setup_guest(int argc, char **argv)
{
	struct setup_guest sg = { .perm = 0660, .gid = (gid_t)-1 };
	int ret = parse(&sg, argc, argv);

	if (ret != PARSE_RUN)
		return ret;
	if (guest_cpus(&sg) < 0 || setup(&sg) < 0)
		return EXIT_FAILED;
	return EXIT_OK;
}

const struct command cmd_setup_guest = {
	.name = "setup-guest",
	.run = run_setup_guest,
	.usage = setup_guest_usage,
	.summary = "make the FIFOs a guest's trace data reaches its host through",
};
