// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "leftovers.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A process's command, state, parent and group from /proc/PID/stat. */
static int proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp,
		     char *comm, size_t commlen)
{
	char path[64], buf[1024], *open, *close;
	int p, g;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid pgrp ...": comm may hold ')' itself */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open ||
	    sscanf(close + 1, " %c %d %d", state, &p, &g) != 3)
		return -1;
	snprintf(comm, commlen, "%.*s", (int)(close - open - 1), open + 1);
	*ppid = p;
	*pgrp = g;
	return 0;
}

/*
 * Children the runner had before it spawned anything (a shell may exec the
 * runner from a process with children of its own): never ended.
 */
static pid_t before[32];
static int nbefore = -1;

/* The runner's children now: the pids in /proc whose parent it is. */
static int children(pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && n < max && (e = readdir(d))) {
		char *end, state, comm[64];
		long v = strtol(e->d_name, &end, 10);
		pid_t ppid, pgrp;

		if (!*end && v > 0 &&
		    !proc_stat((pid_t)v, &state, &ppid, &pgrp, comm,
			       sizeof(comm)) &&
		    ppid == getpid())
			pids[n++] = (pid_t)v;
	}
	if (d)
		closedir(d);
	return n;
}

int leftovers_adopt(void)
{
	if (nbefore < 0)
		nbefore = children(before,
				   (int)(sizeof(before) / sizeof(before[0])));
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

void keep_boot(struct keep *k, pid_t pid, int fd1, int fd2)
{
	const int fds[] = { fd1, fd2 };
	const int maxpid = (int)(sizeof(k->pid) / sizeof(k->pid[0]));
	const int maxpipe = (int)(sizeof(k->pipe) / sizeof(k->pipe[0]));

	if (pid > 0 && k->npid < maxpid)
		k->pid[k->npid++] = pid;
	for (int i = 0; i < 2; i++) {
		struct stat st;

		if (fds[i] >= 0 && !fstat(fds[i], &st) && k->npipe < maxpipe)
			k->pipe[k->npipe++] = (unsigned long)st.st_ino;
	}
}

/* Does pid hold one of k's pipes open (/proc/PID/fd/N -> "pipe:[ino]")? */
static int holds_kept_pipe(pid_t pid, const struct keep *k)
{
	char dir[64];
	struct dirent *e;
	int found = 0;
	DIR *d;

	if (!k->npipe)
		return 0;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char path[384], link[64];
		unsigned long ino;
		ssize_t n;

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(path))
			continue;
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (sscanf(link, "pipe:[%lu]", &ino) != 1)
			continue;
		for (int i = 0; i < k->npipe && !found; i++)
			found = k->pipe[i] == ino;
	}
	closedir(d);
	return found;
}

static int kept(pid_t pid, pid_t pgrp, const struct keep *k)
{
	for (int i = 0; i < nbefore; i++)
		if (before[i] == pid)
			return 1;
	for (int i = 0; i < k->npid; i++)
		if (k->pid[i] == pid || k->pid[i] == pgrp)
			return 1;
	return holds_kept_pipe(pid, k);
}

/*
 * Reap a child just killed, waiting up to a second: one in uninterruptible
 * sleep may take longer, and stays a zombie to reap next time.
 */
static void reap_child(pid_t pid)
{
	const struct timespec ms10 = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 100; i++) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return;
		nanosleep(&ms10, NULL);
	}
}

int leftovers_end(const struct keep *k, char *what, size_t whatlen)
{
	size_t wl = 0;
	int ended = 0;

	if (whatlen)
		what[0] = '\0';
	/* Each round's children leave theirs to the runner: up to 8 deep. */
	for (int round = 0; round < 8; round++) {
		pid_t pids[256];
		int n = children(pids, (int)(sizeof(pids) / sizeof(pids[0])));
		int found = 0;

		for (int i = 0; i < n; i++) {
			char state, comm[64];
			pid_t ppid, pgrp;

			if (proc_stat(pids[i], &state, &ppid, &pgrp, comm,
				      sizeof(comm)) ||
			    kept(pids[i], pgrp, k))
				continue;
			found = 1;
			if (state != 'Z') {
				kill(pids[i], SIGKILL);
				ended++;
				if (wl < whatlen)
					wl += (size_t)snprintf(
						what + wl, whatlen - wl,
						"%spid %d (%s)", wl ? ", " : "",
						(int)pids[i], comm);
			}
			reap_child(pids[i]);
		}
		if (!found)
			break;
	}
	return ended;
}
