// SPDX-License-Identifier: GPL-2.0
/*
 * The replay source: the *.hist files of a directory (--replay), in name
 * order, a frame each; the times --record wrote beside them, if any.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source_int.h"
#include "trig.h"

struct replay {
	struct source base;
	char **files;
	double *times;		/* NNNNNN.time beside each file, if all have one */
	size_t nfiles, next;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The times --record wrote, NAME.time beside NAME.hist: one number, the
 * seconds at which the frame was read.  Only when every frame has one that
 * reads well, in order; else frames come every -d, as before --record.
 */
static void replay_times(struct replay *s)
{
	size_t i;

	s->times = xcalloc(s->nfiles + 1, sizeof(double));
	for (i = 0; i < s->nfiles; i++) {
		size_t n = strlen(s->files[i]);
		char *path = xasprintf("%.*s.time", (int)(n - 5), s->files[i]);
		FILE *f = fopen(path, "r");
		bool ok = f && fscanf(f, "%lf", &s->times[i]) == 1 &&
			  (!i || s->times[i] >= s->times[i - 1]);

		if (f)
			fclose(f);
		free(path);
		if (!ok) {
			free(s->times);
			s->times = NULL;
			return;
		}
	}
}

static bool replay_frame_time(const struct source *src, double *at)
{
	const struct replay *s = source_container(src, const struct replay);

	if (!s->times || !s->next)
		return false;
	*at = s->times[s->next - 1];
	return true;
}

static bool replay_next_time(const struct source *src, double *next)
{
	const struct replay *s = source_container(src, const struct replay);

	if (!s->times || s->next >= s->nfiles)
		return false;
	*next = s->times[s->next];
	return true;
}

static int replay_read(struct source *src, struct strbuf *out, char **err)
{
	struct replay *s = source_container(src, struct replay);
	char buf[65536];
	ssize_t n;
	int fd;

	if (s->next >= s->nfiles)
		return 1;
	fd = open(s->files[s->next], O_RDONLY);
	if (fd < 0) {
		*err = xasprintf("%s: %s", s->files[s->next], strerror(errno));
		return -1;
	}
	out->len = 0;
	sb_add(out, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_add(out, buf, n);
	close(fd);
	s->next++;
	{
		/* frames an interval hist printed (--export of one) add up */
		const char *info = strstr(out->buf, "# trigger info: ");
		char *line = info ? xstrndup(info + 16, strcspn(info + 16, "\n")) : NULL;

		src->interval = line && trig_is_interval(line);
		free(line);
	}
	return 0;
}

static int replay_close(struct source *src, char **err)
{
	struct replay *s = source_container(src, struct replay);
	size_t i;

	(void)err;
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->times);
	free(s);
	return 0;
}

static const struct source_ops replay_ops = {
	.read = replay_read,
	.frame_time = replay_frame_time,
	.next_time = replay_next_time,
	.refuse_msg = "replay: no kernel to control, no trigger to change",
	.close = replay_close,
};

struct source *source_replay_open(const char *dir, char **err)
{
	struct replay *s = xcalloc(1, sizeof(*s));
	struct dirent *de;
	size_t cap = 0;
	DIR *d = opendir(dir);

	s->base.ops = &replay_ops;
	if (!d) {
		*err = xasprintf("--replay %s: %s", dir, strerror(errno));
		goto fail;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".hist"))
			continue;
		s->files = xgrow(s->files, &cap, s->nfiles + 1, sizeof(char *));
		s->files[s->nfiles++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (!s->nfiles) {
		*err = xasprintf("--replay %s: no *.hist files", dir);
		goto fail;
	}
	qsort(s->files, s->nfiles, sizeof(char *), cmp_str);
	replay_times(s);
	s->base.desc = xasprintf("replay %s", dir);
	return &s->base;

fail:
	replay_close(&s->base, NULL);
	return NULL;
}
