// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/ui/edit.sh: an event's trigger file in a
 * fixture tree (--tracefs DIR) behaves as the kernel's does, enough for
 * edit in place to be tested on the host.
 *
 * A write of "hist:..." to DIR/.../events/SYS/EVENT/trigger adds a hist
 * trigger: the trigger file then lists every trigger (" [active]" after
 * each, as the kernel prints them) and the event's hist file holds one
 * histogram each, with two entries made up from the keys and values.  A
 * key or value that names no field of the event's format file is
 * refused as 6.1 and 6.12 refuse it: EINVAL, and an entry in the
 * instance's error_log with its caret under the field.  The same trigger
 * twice is EEXIST; "!hist:..." removes one (ENOENT when none matches);
 * ":pause", ":cont" and ":clear" are taken and do nothing.  Opening a
 * trigger file with O_TRUNC removes every trigger of the event, as 6.1's
 * kernel does.  Every other file is left to libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_TRIGS 16
#define LINE_MAX_ 4096

static int (*real_open)(const char *, int, ...);
static ssize_t (*real_write)(int, const void *, size_t);

static void init(void)
{
	if (!real_open) {
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	}
}

/* dir/name into buf */
static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	if (!f)
		return buf;
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_all(const char *path, const char *text)
{
	int fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return;
	if (real_write(fd, text, strlen(text)) < 0)
		perror(path);
	close(fd);
}

/* The triggers the trigger file lists now, " [active]" cut off. */
static int load(const char *dir, char trigs[MAX_TRIGS][LINE_MAX_])
{
	char path[4096], *text, *line, *save = NULL;
	int n = 0;

	path_in(path, sizeof(path), dir, "trigger");
	text = read_all(path);
	for (line = strtok_r(text, "\n", &save); line && n < MAX_TRIGS;
	     line = strtok_r(NULL, "\n", &save)) {
		char *act = strstr(line, " [active]");

		if (line[0] == '#' || !act)
			continue;
		*act = '\0';
		snprintf(trigs[n++], LINE_MAX_, "%s", line);
	}
	free(text);
	return n;
}

/* The list "a.sym,b" of parameter name= in trigger (new), or NULL. */
static char *param(const char *trigger, const char *name)
{
	size_t nl = strlen(name), len;
	const char *p = trigger;

	while ((p = strchr(p, ':'))) {
		p++;
		if (!strncmp(p, name, nl) && p[nl] == '=') {
			p += nl + 1;
			len = strcspn(p, ": ");
			return strndup(p, len);
		}
	}
	return NULL;
}

/* One histogram of trigger, as the kernel prints it, two entries. */
static void print_hist(FILE *f, const char *trigger)
{
	char *keys = param(trigger, "keys"), *vals = param(trigger, "vals");
	int e;

	fprintf(f, "# event histogram\n#\n# trigger info: %s [active]\n#\n\n", trigger);
	for (e = 1; e <= 2; e++) {
		char *dup = strdup(keys ? keys : "x"), *k, *save = NULL;
		int i = 0;

		fputs("{ ", f);
		for (k = strtok_r(dup, ",", &save); k; k = strtok_r(NULL, ",", &save), i++) {
			size_t base = strcspn(k, ".");

			if (strstr(k, ".log2"))
				fprintf(f, "%s%.*s: ~ 2^%-2d", i ? ", " : "", (int)base, k, 4 + e);
			else
				fprintf(f, "%s%.*s: %10d", i ? ", " : "", (int)base, k, 100 * e + i);
		}
		fprintf(f, " } hitcount: %10d", 10 * e);
		free(dup);
		if (vals) {
			dup = strdup(vals);
			for (k = strtok_r(dup, ",", &save); k; k = strtok_r(NULL, ",", &save))
				if (strcmp(k, "hitcount"))
					fprintf(f, "  %s: %10d", k, 1000 * e);
			free(dup);
		}
		fputc('\n', f);
	}
	fprintf(f, "\nTotals:\n    Hits: 30\n    Entries: 2\n    Dropped: 0\n");
	free(keys);
	free(vals);
}

/* The trigger file and the hist file of the event in dir, from trigs. */
static void store(const char *dir, char (*trigs)[LINE_MAX_], int n)
{
	char path[4096], *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int i;

	fputs("# Available triggers:\n# traceon traceoff snapshot stacktrace enable_event "
	      "disable_event enable_hist disable_hist hist\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s [active]\n", trigs[i]);
	fclose(f);
	path_in(path, sizeof(path), dir, "trigger");
	write_all(path, buf);
	free(buf);
	f = open_memstream(&buf, &size);
	for (i = 0; i < n; i++) {
		if (i)
			fputs("\n\n", f);
		print_hist(f, trigs[i]);
	}
	fclose(f);
	path_in(path, sizeof(path), dir, "hist");
	write_all(path, buf);
	free(buf);
}

/* field names the event's format file gives, and the kernel's own */
static int known_field(const char *dir, const char *name, size_t len)
{
	static const char *const own[] = { "hitcount", "common_pid", "stacktrace", "cpu",
					   "comm", "common_stacktrace", "common_cpu" };
	char path[4096], *fmt, *p;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strlen(own[i]) == len && !strncmp(own[i], name, len))
			return 1;
	path_in(path, sizeof(path), dir, "format");
	fmt = read_all(path);
	for (p = fmt; !found && (p = strstr(p, "field:")); p++) {
		char *semi = strchr(p, ';'), *q = semi;

		if (!semi)
			break;
		while (q > p && q[-1] != ' ')
			q--;
		found = (size_t)(semi - q) == len && !strncmp(q, name, len);
	}
	free(fmt);
	return found;
}

/* dir/../../../error_log: the instance's (events/SYS/EVENT/ is three down) */
static void log_error(const char *dir, const char *sys, const char *event, const char *cmd,
		      size_t pos, const char *what, size_t len)
{
	char path[4096], line[LINE_MAX_ * 2];

	snprintf(path, sizeof(path), "%s/../../../error_log", dir);
	snprintf(line, sizeof(line), "[  100.000000] hist:%s:%s: Couldn't find field: %.*s\n"
		 "  Command: %s\n%*s^\n", sys, event, (int)len, what, cmd, (int)(pos + 11), "");
	write_all(path, line);
}

/* Check keys= and vals= of cmd: 0, or -1 with error_log written. */
static int check_fields(const char *dir, const char *cmd)
{
	static const char *const lists[] = { ":keys=", ":vals=" };
	char sys[256] = "", event[256] = "", d[4096];
	const char *p, *slash;
	size_t i;

	/* .../events/SYS/EVENT */
	snprintf(d, sizeof(d), "%s", dir);
	slash = strrchr(d, '/');
	snprintf(event, sizeof(event), "%s", slash + 1);
	d[slash - d] = '\0';
	slash = strrchr(d, '/');
	snprintf(sys, sizeof(sys), "%s", slash + 1);
	for (i = 0; i < 2; i++) {
		p = strstr(cmd, lists[i]);
		if (!p)
			continue;
		p += strlen(lists[i]);
		while (*p && *p != ':' && *p != ' ') {
			size_t len = strcspn(p, ",: "), base = strcspn(p, ".,: ");

			if (!known_field(dir, p, base)) {
				log_error(dir, sys, event, cmd, p - cmd, p, base);
				return -1;
			}
			p += len + (p[len] == ',');
		}
	}
	return 0;
}

/* A write to a trigger file, as the kernel takes it. */
static ssize_t trigger_write(const char *dir, const char *buf, size_t count)
{
	char trigs[MAX_TRIGS][LINE_MAX_], cmd[LINE_MAX_];
	int n = load(dir, trigs), i;
	size_t len = count;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (len >= LINE_MAX_) {
		errno = E2BIG;
		return -1;
	}
	memcpy(cmd, buf, len);
	cmd[len] = '\0';
	if (strstr(cmd, ":pause") || strstr(cmd, ":cont") || strstr(cmd, ":clear"))
		return count;
	if (cmd[0] == '!') {
		for (i = 0; i < n && strcmp(trigs[i], cmd + 1); i++)
			;
		if (i == n) {
			errno = ENOENT;
			return -1;
		}
		memmove(trigs[i], trigs[i + 1], (size_t)(n - i - 1) * sizeof(trigs[0]));
		store(dir, trigs, n - 1);
		return count;
	}
	if (strncmp(cmd, "hist:", 5)) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(trigs[i], cmd)) {
			errno = EEXIST;
			return -1;
		}
	if (check_fields(dir, cmd)) {
		errno = EINVAL;
		return -1;
	}
	if (n == MAX_TRIGS) {
		errno = ENOSPC;
		return -1;
	}
	snprintf(trigs[n++], LINE_MAX_, "%s", cmd);
	store(dir, trigs, n);
	return count;
}

/* The directory of fd's file when it is an event's trigger file (into dir). */
static int trigger_dir(int fd, char *dir, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, dir, size - 1);
	if (n <= 0)
		return 0;
	dir[n] = '\0';
	if (n < 8 || strcmp(dir + n - 8, "/trigger") || !strstr(dir, "/events/"))
		return 0;
	dir[n - 8] = '\0';
	return 1;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	char dir[4096];

	init();
	if (trigger_dir(fd, dir, sizeof(dir)))
		return trigger_write(dir, buf, count);
	return real_write(fd, buf, count);
}

static void truncated(const char *path)
{
	size_t n = strlen(path);
	char dir[4096], trigs[1][LINE_MAX_];

	if (n < 8 || strcmp(path + n - 8, "/trigger") || !strstr(path, "/events/") ||
	    n - 8 >= sizeof(dir))
		return;
	memcpy(dir, path, n - 8);
	dir[n - 8] = '\0';
	store(dir, trigs, 0);	/* 6.1: O_TRUNC on a trigger file removes them all */
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	init();
	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (flags & O_TRUNC)
		truncated(path);
	return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return open(path, flags, mode);
}
