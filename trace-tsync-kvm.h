/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "kvm" time sync's view of the host: where KVM publishes a virtual
 * machine's TSC settings (debugfs kvm/PID-FD/vcpuN: tsc-offset,
 * tsc-scaling-ratio, tsc-scaling-ratio-frac-bits), found by the vsock CID
 * its qemu was started with, as 3.4's record finds them.  The guest's TSC
 * is (host TSC * ratio >> frac) + offset; a guest file's TIME_SHIFT sample
 * takes the offset negated, and a ratio that is KVM's default (no scaling)
 * as 1, as 3.4 writes them.
 */
#ifndef TRACE_TSYNC_KVM_H
#define TRACE_TSYNC_KVM_H

#include "trace-tsync.h"

/*
 * The debugfs directory of the virtual machine whose qemu has a vsock
 * device with guest-cid=@cid and whose vCPU 0 has a tsc-offset file: a
 * string to free, or NULL when there is none (no KVM, or not that VM).
 */
char *kvm_vm_dir(long long cid);

/*
 * vCPU @cpu's TSC settings under @vm_dir into @s (its offset, scaling and
 * fraction bits; the time is left alone): 0, or -1 after a message.
 */
int kvm_vcpu_shift(const char *vm_dir, int cpu, struct tsync_sample *s);

#endif
