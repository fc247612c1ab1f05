// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "hp.h"
#include "tfs.h"
#include "trig.h"

/* tracefs's f_type (statfs): the real thing, not a fixture directory */
#define TFS_MAGIC 0x74726163

/*
 * An instance whose lock is free is left alone this long after it was
 * made: its owner takes the lock right after mkdir, and may not have yet.
 */
#define TFS_LOCK_GRACE_SECS 10

struct tfs {
	char *root;			/* tracefs root */
	bool real;			/* root is a tracefs mount */
	/*
	 * Every libtracefs call gets an instance made from root: given NULL,
	 * libtracefs looks for the machine's own tracefs in /proc/mounts.
	 */
	struct tracefs_instance *top;
	struct tracefs_instance *inst;	/* the instance in use: top or named */
	char *inst_name;		/* NULL: top level */
	bool created;			/* we made the instance */
	int lock_fd;			/* flock'ed while we own the instance */
	bool no_locking;		/* flock() says ENOSYS: liveness by pid (abandoned_nolock) */
	int hist_fd;
	dev_t hist_dev;
	ino_t hist_ino;
	char *hist_path;
	bool no_hist_poll;		/* the hist file has no poll(): always read */
	char *readme;
	/* the event's hist_interval file, holding histtop's interval hist */
	int interval_fd;
	char *interval_path;
};

static const char *tfs_readme(struct tfs *t);
static void (*warn_fn)(void *, const char *);
static void *warn_ctx;

void tfs_set_warn_sink(void (*fn)(void *ctx, const char *msg), void *ctx)
{
	warn_fn = fn;
	warn_ctx = ctx;
}

/* libtracefs calls tracefs_warning() for its messages; keep them off screen. */
int tracefs_warning(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!warn_fn)
		return 0;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	warn_fn(warn_ctx, msg);
	free(msg);
	return 0;
}

struct tfs *tfs_open(const char *dir, char **err)
{
	struct tfs *t;
	const char *root;
	struct stat st;

	tracefs_set_loglevel(TEP_LOG_NONE);
	if (dir) {
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			*err = xasprintf("--tracefs %s: %s", dir,
					 errno ? strerror(errno) : "not a directory");
			return NULL;
		}
		/* libtracefs takes a char * and keeps a copy */
		char *d = xstrdup(dir);
		int rc = tracefs_set_tracing_dir(d);

		free(d);
		if (rc) {
			*err = xasprintf("--tracefs %s: libtracefs refused it", dir);
			return NULL;
		}
	}
	root = tracefs_tracing_dir();
	if (!root) {
		*err = xstrdup(geteuid() ?
			"tracefs is not mounted and only root can mount it: run as root, or "
			"mount -t tracefs nodev /sys/kernel/tracing" :
			"tracefs is not mounted and mounting it failed: is CONFIG_FTRACE on? "
			"Try: mount -t tracefs nodev /sys/kernel/tracing");
		return NULL;
	}
	if (access(root, R_OK | X_OK)) {
		*err = xasprintf("%s: %s%s", root, strerror(errno),
				 errno == EACCES ? " (histtop needs root to use tracefs)" : "");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->root = xstrdup(root);
	t->hist_fd = -1;
	t->lock_fd = -1;
	t->interval_fd = -1;
	t->top = tracefs_instance_alloc(t->root, NULL);
	if (!t->top) {
		*err = xasprintf("%s: %s", root, strerror(errno));
		tfs_close(t);
		return NULL;
	}
	t->inst = t->top;
	{
		struct statfs sf;

		t->real = !statfs(t->root, &sf) && sf.f_type == TFS_MAGIC;
	}
	return t;
}

void tfs_close(struct tfs *t)
{
	if (!t)
		return;
	if (t->hist_fd >= 0)
		close(t->hist_fd);
	tfs_interval_close(t);
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	free(t->hist_path);
	if (t->inst != t->top)
		tracefs_instance_free(t->inst);
	tracefs_instance_free(t->top);
	free(t->inst_name);
	free(t->readme);
	free(t->root);
	free(t);
}

const char *tfs_root(const struct tfs *t)
{
	return t->root;
}

static char *event_path(struct tfs *t, const char *sys, const char *event, const char *file)
{
	if (t->inst_name)
		return xasprintf("%s/instances/%s/events/%s/%s%s%s", t->root, t->inst_name, sys,
				 event, file ? "/" : "", file ? file : "");
	return xasprintf("%s/events/%s/%s%s%s", t->root, sys, event, file ? "/" : "",
			 file ? file : "");
}

/* The init PID namespace's inode (PROC_PID_INIT_INO, fixed kernel ABI). */
#define TFS_INIT_PIDNS_INO 0xEFFFFFFCUL

/*
 * The inode of histtop's PID namespace: names and liveness are judged by
 * it.  A kernel without CONFIG_NAMESPACES has no /proc/self/ns and only
 * the init namespace.  0: unknown (no /proc).
 */
static unsigned long pidns_ino(void)
{
	struct stat st;

	if (!stat("/proc/self/ns/pid", &st))
		return st.st_ino;
	return errno == ENOENT && !stat("/proc/self/stat", &st) ? TFS_INIT_PIDNS_INO : 0;
}

static char *inst_path(struct tfs *t, const char *name);

/* The whole of a small file (new), or NULL. */
static char *read_all(const char *path)
{
	struct strbuf sb;
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_add(&sb, buf, n);
	close(fd);
	return sb_detach(&sb);
}

/*
 * Ask the tracer: write a mark into our own instance's buffer and read
 * back the pid its line carries ("comm-PID [cpu] ..."), then empty the
 * buffer again.  Only in an instance histtop made: the buffer is ours.
 */
static long marker_pid(struct tfs *t)
{
	char *dir, *path, *text, *line, *p, tag[64];
	long pid = -1;
	int fd;

	if (!t->created || !t->inst_name)
		return -1;
	dir = inst_path(t, t->inst_name);
	snprintf(tag, sizeof(tag), "histtop-self-%d-%ld", (int)getpid(), (long)time(NULL));
	path = xasprintf("%s/trace_marker", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	free(path);
	if (fd < 0 || write(fd, tag, strlen(tag)) < 0) {
		if (fd >= 0)
			close(fd);
		free(dir);
		return -1;
	}
	close(fd);
	path = xasprintf("%s/trace", dir);
	text = read_all(path);
	p = text ? strstr(text, tag) : NULL;
	if (p) {
		char *end, *dash;

		for (line = p; line > text && line[-1] != '\n'; line--)
			;
		end = strstr(line, " [");
		if (end && end < p) {
			*end = '\0';
			if ((dash = strstr(line, " (")))	/* record-tgid: "comm-PID (TGID)" */
				*dash = '\0';
			if ((dash = strrchr(line, '-')))
				pid = strtol(dash + 1, NULL, 10);
		}
	}
	free(text);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);	/* our buffer only */
	if (fd >= 0)
		close(fd);
	free(path);
	free(dir);
	return pid > 0 ? pid : -1;
}

/* The first number of NSpid in PATH (a /proc status file), or -1. */
static long status_nspid(const char *path)
{
	char line[256];
	long pid = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			pid = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return pid > 0 ? pid : -1;
}

/*
 * In a child namespace, NSpid's first number is the pid in the namespace
 * of whoever mounted this /proc: the kernel's own only when that is the
 * init namespace (its pid 1 lives there).
 */
static bool proc_is_init_ns(void)
{
	struct stat st;

	return !stat("/proc/1/ns/pid", &st) && st.st_ino == TFS_INIT_PIDNS_INO;
}

long tfs_kernel_pid(struct tfs *t)
{
	long pid;

	if (pidns_ino() == TFS_INIT_PIDNS_INO)
		return getpid();
	if (!proc_is_init_ns())
		return marker_pid(t);
	pid = status_nspid("/proc/self/status");
	return pid > 0 ? pid : marker_pid(t);
}

size_t tfs_kernel_tids(struct tfs *t, long *tids, size_t max)
{
	bool init_ns = pidns_ino() == TFS_INIT_PIDNS_INO;
	struct dirent *de;
	size_t n;
	DIR *d;

	if (!max || (tids[0] = tfs_kernel_pid(t)) <= 0)
		return 0;
	n = 1;
	if (!init_ns && !proc_is_init_ns())
		return n;
	d = opendir("/proc/self/task");
	if (!d)
		return n;
	while (n < max && (de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);
		char *path;

		if (tid <= 0 || tid == getpid())
			continue;
		if (!init_ns) {
			path = xasprintf("/proc/self/task/%ld/status", tid);
			tid = status_nspid(path);
			free(path);
		}
		if (tid > 0)
			tids[n++] = tid;
	}
	closedir(d);
	return n;
}

/*
 * Instance names histtop makes: histtop-NS-PID or histtop-NS-PID-N, NS the
 * inode of the maker's PID namespace.  Older histtops made histtop-PID:
 * those are not judged (no lock, no namespace) and are left alone.
 */
static bool parse_name(const char *name, unsigned long *ns, long *pid)
{
	const char *p = name + 8;
	char *end;

	if (strncmp(name, "histtop-", 8) || !isdigit((unsigned char)*p))
		return false;
	*ns = strtoul(p, &end, 10);
	if (*end != '-' || !isdigit((unsigned char)end[1]))
		return false;
	*pid = strtol(end + 1, &end, 10);
	if (*end == '-' && isdigit((unsigned char)end[1]))
		for (end++; isdigit((unsigned char)*end); end++)
			;
	return !*end && *pid > 0;
}

/*
 * Is the instance at path (its lock taken by us on fd) abandoned?  Its
 * owner holds the lock from just after mkdir to rmdir, so a free lock
 * means a dead owner, once the grace time since mkdir is over; within it,
 * only a pid of our own namespace that no longer exists says so.
 */
static bool abandoned(int fd, unsigned long ns, long pid)
{
	struct timespec now;
	struct stat st;

	if (fstat(fd, &st) || clock_gettime(CLOCK_REALTIME, &now))
		return false;
	if (now.tv_sec - st.st_ctim.tv_sec >= TFS_LOCK_GRACE_SECS)
		return true;
	return ns == pidns_ino() && kill(pid, 0) && errno == ESRCH;
}

/*
 * A kernel built without CONFIG_FILE_LOCKING (tinyconfig) has no flock():
 * ENOSYS.  No lock says "alive" there, so the reaper falls back to what it
 * can know for sure: an instance whose name holds this PID namespace and a
 * pid that no process has any more.  A live owner's pid exists, so its
 * instance is never removed; a pid reused by another process, or any
 * other namespace's instance, only leaves a stale one in place.
 */
static bool abandoned_nolock(unsigned long ns, long pid)
{
	return ns == pidns_ino() && kill(pid, 0) && errno == ESRCH;
}

bool tfs_no_locking(const struct tfs *t)
{
	return t->no_locking;
}

int tfs_reap_stale(struct tfs *t, char **report)
{
	char *dir = xasprintf("%s/instances", t->root);
	struct strbuf sb;
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	*report = NULL;
	if (!d) {
		free(dir);
		return 0;
	}
	sb_init(&sb);
	while ((de = readdir(d))) {
		unsigned long ns;
		long pid;
		char *path;
		int fd;
		bool dead;

		if (!parse_name(de->d_name, &ns, &pid))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* a held lock: that histtop still runs, in whatever namespace */
		dead = false;
		if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)) {
			dead = abandoned(fd, ns, pid);
		} else if (fd >= 0 && errno == ENOSYS) {
			t->no_locking = true;
			dead = abandoned_nolock(ns, pid);
		}
		if (dead && !rmdir(path)) {
			sb_printf(&sb, "%s%s", n ? ", " : "", de->d_name);
			n++;
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	closedir(d);
	free(dir);
	*report = n ? sb_detach(&sb) : NULL;
	sb_free(&sb);
	return n;
}

static char *inst_path(struct tfs *t, const char *name)
{
	return xasprintf("%s/instances/%s", t->root, name);
}

static int set_instance(struct tfs *t, const char *name, char **err)
{
	t->inst = tracefs_instance_alloc(t->root, name);
	if (!t->inst) {
		t->inst = t->top;
		*err = xasprintf("cannot use tracefs instance '%s': %s", name, strerror(errno));
		return -1;
	}
	t->inst_name = xstrdup(name);
	return 0;
}

/*
 * Take the lock of the instance we just made.  Another histtop starting at
 * the same moment may hold it for an instant: its reaper locks every
 * histtop instance it sees to ask whether the owner lives, and lets go at
 * once (it removes none younger than TFS_LOCK_GRACE_SECS whose pid it
 * cannot see).  So a lock held elsewhere is waited for, up to 2 s, instead
 * of failing the start.
 */
static int lock_new_instance(int fd)
{
	const struct timespec step = { .tv_nsec = 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 200; i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		nanosleep(&step, NULL);
	}
	return -1;
}

/* mkdir the instance and take its lock.  1: the name is taken. */
static int create_instance(struct tfs *t, const char *name, char **err)
{
	char *path = inst_path(t, name);
	bool locked;
	int e;

	if (mkdir(path, 0750)) {
		e = errno;
		free(path);
		if (e == EEXIST)
			return 1;
		*err = xasprintf("cannot create tracefs instance '%s': %s%s", name, strerror(e),
				 e == ENOENT ? " (no instances directory in tracefs)" : "");
		return -1;
	}
	t->created = true;
	t->lock_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	locked = t->lock_fd >= 0 && !lock_new_instance(t->lock_fd);
	if (!locked && t->lock_fd >= 0 && errno == ENOSYS) {
		t->no_locking = true;	/* liveness by pid: abandoned_nolock() */
		locked = true;
	}
	if (!locked) {
		/* unlocked, another histtop would take it for abandoned */
		*err = xasprintf("cannot lock tracefs instance '%s': %s", name, strerror(errno));
		rmdir(path);
		t->created = false;
		free(path);
		return -1;
	}
	if (set_instance(t, name, err)) {
		rmdir(path);
		t->created = false;
		close(t->lock_fd);
		t->lock_fd = -1;
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

int tfs_use_instance(struct tfs *t, const char *name, bool create, char **err)
{
	char *path = inst_path(t, name);
	struct stat st;
	int e = stat(path, &st) ? errno : 0;

	free(path);
	if (!e && S_ISDIR(st.st_mode))
		return set_instance(t, name, err);
	if (!create) {
		*err = xasprintf("no tracefs instance '%s' in %s: %s", name, t->root,
				 e ? strerror(e) : "not a directory");
		return -1;
	}
	if (create_instance(t, name, err) == 1) {
		*err = xasprintf("cannot create tracefs instance '%s': it appeared meanwhile", name);
		return -1;
	}
	return t->inst_name ? 0 : -1;
}

int tfs_use_private_instance(struct tfs *t, char **err)
{
	unsigned long ns = pidns_ino();
	int i, rc = 1;

	for (i = 0; rc == 1 && i < 100; i++) {
		char *name = i ? xasprintf("histtop-%lu-%d-%d", ns, (int)getpid(), i) :
				 xasprintf("histtop-%lu-%d", ns, (int)getpid());

		rc = create_instance(t, name, err);
		free(name);
	}
	if (rc == 1)
		*err = xasprintf("cannot create a tracefs instance: histtop-%lu-%d and 99 "
				 "more names are taken", ns, (int)getpid());
	return rc ? -1 : 0;
}

const char *tfs_instance_name(const struct tfs *t)
{
	return t->inst_name;
}

int tfs_drop_instance(struct tfs *t, char **err)
{
	char *path;

	if (t->hist_fd >= 0) {
		close(t->hist_fd);
		t->hist_fd = -1;
	}
	if (!t->inst_name || !t->created)
		return 0;
	path = inst_path(t, t->inst_name);
	if (rmdir(path)) {
		*err = xasprintf("cannot remove tracefs instance '%s': %s", t->inst_name,
				 strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	t->created = false;
	/* only now: the lock says "alive" until the instance is gone */
	close(t->lock_fd);
	t->lock_fd = -1;
	return 0;
}

/* Up to a few event names of sys that start like event (for "did you mean"). */
static char *similar_events(struct tfs *t, const char *sys, const char *event)
{
	char *dir = event_path(t, sys, "", NULL);
	struct strbuf sb;
	struct dirent *de;
	DIR *d;
	int n = 0;

	dir[strlen(dir) - 1] = '\0';
	d = opendir(dir);
	free(dir);
	if (!d)
		return NULL;
	sb_init(&sb);
	while ((de = readdir(d)) && n < 6) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "enable") ||
		    !strcmp(de->d_name, "filter"))
			continue;
		if (strncmp(de->d_name, event, 3))
			continue;
		sb_printf(&sb, "%s%s:%s", n++ ? ", " : "", sys, de->d_name);
	}
	closedir(d);
	if (!n) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

int tfs_check_event(struct tfs *t, const char *sys, const char *event, char **err)
{
	char *path = event_path(t, sys, event, NULL);
	char *hist = event_path(t, sys, event, "hist");
	int ret = -1;

	if (access(path, F_OK)) {
		char *sysdir = event_path(t, sys, "", NULL);
		char *sim;

		sysdir[strlen(sysdir) - 1] = '\0';
		if (access(sysdir, F_OK)) {
			*err = xasprintf("unknown event system '%s' (see %s/available_events)", sys,
					 t->root);
		} else {
			sim = similar_events(t, sys, event);
			*err = xasprintf("unknown event '%s:%s'%s%s", sys, event,
					 sim ? "; similar: " : "", sim ? sim : "");
			free(sim);
		}
		free(sysdir);
	} else if (access(hist, F_OK)) {
		*err = xasprintf("%s:%s has no hist file: this kernel was built without "
				 "CONFIG_HIST_TRIGGERS", sys, event);
	} else if (access(hist, R_OK)) {
		*err = xasprintf("%s: %s (histtop needs root)", hist, strerror(errno));
	} else {
		ret = 0;
	}
	free(path);
	free(hist);
	return ret;
}

/* The field names of an event, from its format file (new), or NULL. */
static char *event_fields(struct tfs *t, const char *sys, const char *event)
{
	char *fmt = tracefs_event_file_read(t->inst, sys, event, "format", NULL);
	struct strbuf sb;
	char *line, *save = NULL;

	if (!fmt)
		return NULL;
	sb_init(&sb);
	for (line = strtok_r(fmt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *semi, *name;

		if (!f || !(semi = strchr(f, ';')))
			continue;
		*semi = '\0';
		if ((name = strchr(f, '[')))	/* "char comm[16]" */
			*name = '\0';
		name = strrchr(f, ' ');
		name = name ? name + 1 : f + 6;
		if (!strncmp(name, "common_", 7) && strcmp(name, "common_pid"))
			continue;
		sb_printf(&sb, "%s%s", sb.len ? ", " : "", name);
	}
	free(fmt);
	return sb.len ? sb_detach(&sb) : (sb_free(&sb), NULL);
}

/*
 * A kernel that streams the hist file cuts a read when a table it has not
 * finished is cleared or removed, or its event deleted: read() fails with
 * ESTALE after the start of the table, and a read from offset 0 gives the
 * table as it is then.  What was read is never a table: read again, up to
 * this many times.  Other kernels format the whole file at the first read
 * and never cut one.
 */
#define TFS_CUT_TRIES 3

/* The whole file from offset 0 into *out (overwritten), one pread() a block. */
static int read_from_start(int fd, const char *path, struct strbuf *out, char **err)
{
	ssize_t n;
	int cuts = 0;

	out->len = 0;
	for (;;) {
		out->buf = xgrow(out->buf, &out->cap, out->len + 65536 + 1, 1);
		n = pread(fd, out->buf + out->len, 65536, out->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ESTALE && ++cuts < TFS_CUT_TRIES) {
				out->len = 0;	/* a cut read: from the start again */
				continue;
			}
			if (errno == ESTALE)
				*err = xasprintf("read cut short %d times running, the table "
						 "cleared or removed while it was read: %s",
						 cuts, path);
			else
				*err = xasprintf("reading %s: %s", path, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		out->len += n;
	}
	out->buf[out->len] = '\0';
	return 0;
}

/* The kernel can keep what trigger asks for; else -1 and *err says why. */
static int trigger_supported(struct tfs *t, const char *trigger, char **err)
{
	struct hp_trigger tr;
	char **v;
	int ret = 0;

	if (hp_trigger_parse(trigger, &tr))
		return 0;	/* the kernel will say */
	for (v = tr.vals; *v && !hp_col_is_extreme(*v); v++)
		;
	if (*v && !tfs_readme_has(t, TFS_FEATURE_MINMAX)) {
		*err = xasprintf("this kernel cannot keep '%s': its tracefs README lists no "
				 ".max/.min value modifiers\n(they come with the hist "
				 "trigger patches in histtop's linux/ directory; without "
				 "them use a sum, or onmax() on a variable)", *v);
		ret = -1;
	}
	hp_trigger_free(&tr);
	return ret;
}

/* Why the kernel refused trigger with errno e: its error_log entry, or our guess. */
static void trigger_rejected(struct tfs *t, const char *sys, const char *event,
			     const char *trigger, int e, char **err)
{
	struct hp_trigger tr;
	bool parsed = !hp_trigger_parse(trigger, &tr);
	char *elog, *fields;

	elog = tracefs_error_last(t->inst);
	if (elog && *elog) {
		fields = strstr(elog, "Couldn't find field") || strstr(elog, "Invalid field") ?
			 event_fields(t, sys, event) : NULL;
		*err = xasprintf("the kernel rejected the trigger:\n%s%s%s%s", elog,
				 elog[strlen(elog) - 1] == '\n' ? "" : "\n",
				 fields ? "fields of this event: " : "", fields ? fields : "");
		free(fields);
		free(elog);
		goto out;
	}
	free(elog);
	/*
	 * Stock 6.1 and 6.12 say nothing in error_log for too many keys or
	 * values, nor for a size= out of range.
	 */
	if (e == EINVAL && parsed) {
		struct trig_limits lim;
		char *why;

		trig_limits_from_readme(tfs_readme(t), &lim);
		why = trig_explain_einval(&tr, &lim);
		if (why) {
			*err = xasprintf("the kernel rejected the trigger (EINVAL): %s\n%s", trigger,
					 why);
			free(why);
			goto out;
		}
	}
	if (e == EEXIST)
		*err = xasprintf("the same hist trigger is already on %s:%s: %s (use --attach "
				 "to view it)", sys, event, trigger);
	else
		*err = xasprintf("cannot add trigger '%s' to %s:%s: %s%s", trigger, sys, event,
				 strerror(e), e == EACCES || e == EPERM ? " (histtop needs root)" : "");
out:
	if (parsed)
		hp_trigger_free(&tr);
}

int tfs_trigger_add(struct tfs *t, const char *sys, const char *event, const char *trigger,
		    char **err)
{
	if (trigger_supported(t, trigger, err))
		return -1;
	tracefs_error_clear(t->inst);
	if (tracefs_event_file_append(t->inst, sys, event, "trigger", trigger) >= 0)
		return 0;
	trigger_rejected(t, sys, event, trigger, errno, err);
	return -1;
}

bool tfs_interval_supported(struct tfs *t, const char *sys, const char *event)
{
	char *path = event_path(t, sys, event, "hist_interval");
	bool ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

int tfs_interval_open(struct tfs *t, const char *sys, const char *event, const char *trigger,
		      char **err)
{
	size_t len = strlen(trigger);
	ssize_t n;

	char *path;
	int fd;

	if (trigger_supported(t, trigger, err))
		return -1;
	/* the hist open before (an edit's old trigger) stays until this one is made */
	path = event_path(t, sys, event, "hist_interval");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	tracefs_error_clear(t->inst);
	do
		n = write(fd, trigger, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len) {
		trigger_rejected(t, sys, event, trigger, n < 0 ? errno : EIO, err);
		close(fd);
		free(path);
		return -1;
	}
	tfs_interval_close(t);
	t->interval_fd = fd;
	t->interval_path = path;
	return 0;
}

int tfs_interval_read(struct tfs *t, struct strbuf *out, char **err)
{
	/* a read from offset 0 takes the interval; the rest follows on */
	return read_from_start(t->interval_fd, t->interval_path, out, err);
}

int tfs_interval_control(struct tfs *t, const char *word, char **err)
{
	ssize_t n;

	do
		n = write(t->interval_fd, word, strlen(word));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*err = xasprintf("%s: %s: %s", t->interval_path, word, strerror(errno));
		return -1;
	}
	return 0;
}

void tfs_interval_close(struct tfs *t)
{
	if (t->interval_fd >= 0)
		close(t->interval_fd);	/* the kernel removes the hist */
	t->interval_fd = -1;
	free(t->interval_path);
	t->interval_path = NULL;
}

int tfs_trigger_remove(struct tfs *t, const char *sys, const char *event, const char *trigger,
		       char **err)
{
	char *neg = xasprintf("!%s", trigger);
	int ret = tracefs_event_file_append(t->inst, sys, event, "trigger", neg);

	free(neg);
	if (ret < 0) {
		*err = xasprintf("cannot remove trigger '%s' from %s:%s: %s", trigger, sys, event,
				 strerror(errno));
		return -1;
	}
	return 0;
}

char *tfs_trigger_read(struct tfs *t, const char *sys, const char *event, char **err)
{
	char *path = event_path(t, sys, event, "trigger");
	struct strbuf sb;
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	free(path);
	sb_init(&sb);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_add(&sb, buf, n);
	close(fd);
	return sb_detach(&sb);
}

int tfs_hist_read(struct tfs *t, const char *sys, const char *event, struct strbuf *out,
		  char **err)
{
	struct stat st;

	if (!t->hist_path)
		t->hist_path = event_path(t, sys, event, "hist");
	/* a file replaced under us (fixtures, replays): open the new one */
	if (t->hist_fd >= 0 && (stat(t->hist_path, &st) || st.st_ino != t->hist_ino ||
				st.st_dev != t->hist_dev)) {
		close(t->hist_fd);
		t->hist_fd = -1;
	}
	if (t->hist_fd < 0) {
		t->hist_fd = open(t->hist_path, O_RDONLY | O_CLOEXEC);
		if (t->hist_fd < 0 || fstat(t->hist_fd, &st)) {
			*err = xasprintf("%s: %s", t->hist_path, strerror(errno));
			return -1;
		}
		t->hist_dev = st.st_dev;
		t->hist_ino = st.st_ino;
	}
	return read_from_start(t->hist_fd, t->hist_path, out, err);
}

void tfs_hist_forget(struct tfs *t)
{
	if (t->hist_fd >= 0)
		close(t->hist_fd);
	t->hist_fd = -1;
	free(t->hist_path);
	t->hist_path = NULL;
}

int tfs_hist_changed(struct tfs *t)
{
	struct pollfd p;

	if (t->hist_fd < 0 || t->no_hist_poll)
		return 1;
	/*
	 * A file without poll() reports the default mask at once, POLLOUT
	 * included; the hist file's poll() (6.14, and 6.12.y) never has
	 * POLLOUT and sets POLLPRI when the table changed since the last read
	 * or poll.  One call both detects it and asks.
	 */
	p.fd = t->hist_fd;
	p.events = POLLPRI | POLLOUT;
	p.revents = 0;
	if (poll(&p, 1, 0) < 0)
		return 1;
	if (p.revents & (POLLOUT | POLLERR | POLLNVAL)) {
		t->no_hist_poll = !(p.revents & (POLLERR | POLLNVAL));
		return 1;
	}
	return !!(p.revents & POLLPRI);
}


static const char *tfs_readme(struct tfs *t)
{
	if (!t->readme) {
		char *p = xasprintf("%s/README", t->root);
		struct strbuf sb;
		char buf[8192];
		ssize_t n;
		int fd = open(p, O_RDONLY);

		free(p);
		sb_init(&sb);
		if (fd >= 0) {
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				sb_add(&sb, buf, n);
			close(fd);
		}
		t->readme = sb_detach(&sb);
	}
	return t->readme;
}

bool tfs_readme_has(struct tfs *t, const char *s)
{
	return strstr(tfs_readme(t), s) != NULL;
}
