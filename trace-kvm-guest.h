/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report -i HOST -i GUEST: the host's kvm events (kvm_exit, kvm_entry, ...)
 * name the guest's function at their rip, looked up in the guest file's
 * kallsyms, through the hook libtraceevent's kvm plugin calls.
 */
#ifndef TRACE_KVM_GUEST_H
#define TRACE_KVM_GUEST_H

struct trace_input;

/*
 * @files[0] is the host, as upstream 3.4 takes it: the vCPU tasks of its
 * GUEST options are mapped to the file among the others whose trace id
 * they name.  From now until kvm_guest_unmap(), the host's kvm event of
 * such a task names the function of that guest at its rip.  A damaged
 * GUEST option is warned of and left out.
 */
void kvm_guest_map(struct trace_input **files, int nr_files);
void kvm_guest_unmap(void);

#endif
