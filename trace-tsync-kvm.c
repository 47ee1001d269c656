// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of the "kvm" time sync: finding a virtual machine's KVM
 * debugfs directory by its vsock CID, and reading a vCPU's TSC settings.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-tsync-kvm.h"

/* KVM's ratios that mean "no scaling" (Intel's 1.0 in 48 bits, AMD's in 32). */
#define KVM_RATIO_INTEL_ONE	(1ULL << 48)
#define KVM_RATIO_AMD_ONE	(1ULL << 32)

/* Where debugfs is mounted: its first mount in /proc/mounts, else the usual place. */
static char *debugfs_dir(void)
{
	char dev[256], dir[PATH_MAX], type[64];
	char *found = NULL;
	FILE *f = fopen("/proc/mounts", "re");

	while (f && !found && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "debugfs"))
			found = xstrdup(dir);
	if (f)
		fclose(f);
	return found ? found : xstrdup("/sys/kernel/debug");
}

/* Whether a "-device ...,guest-cid=N,..." argument of @cmdline (@len bytes, NULs between) names @cid. */
static int names_cid(const char *cmdline, size_t len, long long cid)
{
	char want[40];
	size_t wlen = (size_t)snprintf(want, sizeof(want), "guest-cid=%lld", cid);

	for (const char *arg = cmdline; arg < cmdline + len; arg += strlen(arg) + 1)
		for (const char *at = strstr(arg, want); at; at = strstr(at + 1, want))
			if ((at == arg || at[-1] == ',') && (at[wlen] == ',' || !at[wlen]))
				return 1;
	return 0;
}

/* The process whose command line gives the vsock device guest-cid=@cid; 0: none. */
static long vm_pid(long long cid)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	long pid = 0;

	while (proc && !pid && (d = readdir(proc))) {
		char path[300], *cmdline;
		size_t len;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		cmdline = read_path_text(path, &len);
		if (cmdline && names_cid(cmdline, len, cid))
			pid = strtol(d->d_name, NULL, 10);
		free(cmdline);
	}
	if (proc)
		closedir(proc);
	return pid;
}

char *kvm_vm_dir(long long cid)
{
	char *debugfs, *kvm, *found = NULL;
	long pid = vm_pid(cid);
	struct dirent *d;
	DIR *dir;

	if (!pid)
		return NULL;
	debugfs = debugfs_dir();
	if (asprintf(&kvm, "%s/kvm", debugfs) < 0)
		kvm = NULL;
	free(debugfs);
	dir = kvm ? opendir(kvm) : NULL;
	/* KVM names each VM's directory PID-FD: the qemu's, and its VM's file descriptor. */
	while (dir && !found && (d = readdir(dir))) {
		char *end, *path;

		if (strtol(d->d_name, &end, 10) != pid || *end != '-')
			continue;
		if (asprintf(&path, "%s/%s/vcpu0/tsc-offset", kvm, d->d_name) < 0)
			continue;
		if (access(path, R_OK) == 0 && asprintf(&found, "%s/%s", kvm, d->d_name) < 0)
			found = NULL;
		free(path);
	}
	if (dir)
		closedir(dir);
	free(kvm);
	return found;
}

/* The number in @vm_dir/vcpu@cpu/@file. */
static int read_vcpu_number(const char *vm_dir, int cpu, const char *file, int is_signed,
			    uint64_t *out)
{
	char *path, *text, *end;
	int ret = -1;

	if (asprintf(&path, "%s/vcpu%d/%s", vm_dir, cpu, file) < 0)
		return error("time sync: out of memory");
	text = read_path_text(path, NULL);
	if (!text) {
		error("time sync: cannot read '%s': %s", path, strerror(errno));
	} else {
		errno = 0;
		*out = is_signed ? (uint64_t)strtoll(text, &end, 10) : strtoull(text, &end, 10);
		if (errno || end == text || (*end && *end != '\n'))
			error("time sync: '%s' holds no number", path);
		else
			ret = 0;
	}
	free(text);
	free(path);
	return ret;
}

static int vcpu_has(const char *vm_dir, int cpu, const char *file)
{
	char *path;
	int ret;

	if (asprintf(&path, "%s/vcpu%d/%s", vm_dir, cpu, file) < 0)
		return 0;
	ret = access(path, F_OK) == 0;
	free(path);
	return ret;
}

int kvm_vcpu_shift(const char *vm_dir, int cpu, struct tsync_sample *s)
{
	uint64_t offset, ratio = 1, frac = 0;

	if (read_vcpu_number(vm_dir, cpu, "tsc-offset", 1, &offset) < 0)
		return -1;
	/* Older kernels and hosts without TSC scaling have no ratio files: no scaling. */
	if (vcpu_has(vm_dir, cpu, "tsc-scaling-ratio") &&
	    read_vcpu_number(vm_dir, cpu, "tsc-scaling-ratio", 0, &ratio) < 0)
		return -1;
	if (ratio == KVM_RATIO_INTEL_ONE || ratio == KVM_RATIO_AMD_ONE)
		ratio = 1;
	if (ratio != 1 && read_vcpu_number(vm_dir, cpu, "tsc-scaling-ratio-frac-bits", 0, &frac) < 0)
		return -1;
	s->offset = -(int64_t)offset;
	s->scaling = ratio;
	s->frac = frac;
	return 0;
}
