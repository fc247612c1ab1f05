/* SPDX-License-Identifier: GPL-2.0 */
/* Tables of fixture text for the unit tests (after tap.h, hp.h, table.h). */
#ifndef HISTTOP_TEST_LOAD_H
#define HISTTOP_TEST_LOAD_H

/* A table of one frame of hist text (what names it in a bail-out). */
static inline struct table *load_text(const char *what, const char *buf, size_t len)
{
	struct table *t = table_new();
	char *err = NULL;
	struct hp_snapshot *s = hp_parse(buf, len, &err);

	if (!s) {
		printf("Bail out! %s: %s\n", what, err);
		exit(1);
	}
	table_update(t, &s->hists[0], 1.0);
	hp_snapshot_free(s);
	return t;
}

/* A table of the fixture NAME. */
static inline struct table *load(const char *name)
{
	size_t len;
	char *buf = fixture(name, &len);
	struct table *t = load_text(name, buf, len);

	free(buf);
	return t;
}

#endif
