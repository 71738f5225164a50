/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Processes a boot's QEMU leaves behind. QEMU runs in a process group of
 * its own, which the end of a boot kills; a process that moved to a
 * session of its own (setsid: a double-forked daemon) is out of that
 * group's reach, and may keep the boot's pipes open or simply live on. The
 * runner is a child subreaper (PR_SET_CHILD_SUBREAPER), so such a process
 * becomes the runner's child as soon as its parent exits: it can be found
 * (its parent is the runner, and it is no running boot's QEMU) and ended.
 * Only the runner's own children are signalled: a child's pid cannot be
 * reused before the runner reaps it.
 */
#ifndef CRNGBENCH_LEFTOVERS_H
#define CRNGBENCH_LEFTOVERS_H

#include <stddef.h>
#include <sys/types.h>

/* Make the runner a child subreaper; 0, or -1 with errno. */
int leftovers_adopt(void);

/*
 * What still belongs to a running boot: its QEMU's pid (the process group
 * it leads) and the inodes of its pipes (a process holding one is that
 * boot's, to be ended with it).
 */
struct keep {
	pid_t pid[32];
	unsigned long pipe[64];
	int npid, npipe;
};

/* Add a running boot: its QEMU and the pipes of fds (-1: closed). */
void keep_boot(struct keep *k, pid_t pid, int fd1, int fd2);

/*
 * End every child of the runner that belongs to no running boot (SIGKILL,
 * then reap; their own children come to the runner and are ended in turn)
 * and reap exited ones. Names the live ones ended ("pid 12 (sleep)") in
 * what. Returns how many there were.
 */
int leftovers_end(const struct keep *k, char *what, size_t whatlen);

#endif /* CRNGBENCH_LEFTOVERS_H */
