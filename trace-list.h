/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `list` prints that another command prints too (trace-list.c).
 */
#ifndef TRACE_LIST_H
#define TRACE_LIST_H

/*
 * list -O (and the options command): each loaded plugin's options and
 * report's own (fgraph), as libtraceevent prints them.  0, or an exit
 * status when the event parser cannot be had (printed).
 */
int list_plugin_options(void);

#endif
