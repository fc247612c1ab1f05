// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the parser, the trigger model and the table must take any bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hp.h"
#include "out.h"
#include "table.h"
#include "trig.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* When set (standalone -j FILE), each input's NDJSON frame is written here. */
FILE *fuzz_json_out;

/*
 * Output is printable whatever the input: newlines, and otherwise no C0,
 * DEL or C1 control, no byte that is not valid UTF-8.
 */
static void check_printable(const char *what, const char *s, size_t n)
{
	unsigned int cp;
	size_t i, len;

	for (i = 0; i < n; i += len) {
		len = utf8_seq(s + i, n - i, &cp);
		if (!len || (cp != '\n' && utf8_unsafe(cp))) {
			fprintf(stderr, "%s output has a raw byte 0x%02x at %zu\n", what,
				(unsigned char)s[i], i);
			abort();
		}
	}
}

static void check_outputs(const struct table *t)
{
	int (*const fns[])(FILE *, struct out_ctx *, const struct table *) = {
		out_text, out_json, out_csv };
	static const char *const names[] = { "text", "json", "csv" };
	size_t i;

	for (i = 0; i < 3; i++) {
		struct out_ctx c = { .event = "fuzz:fuzz" };
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		fns[i](f, &c, t);
		fclose(f);
		check_printable(names[i], buf, len);
		if (i == 1 && fuzz_json_out)
			fwrite(buf, 1, len, fuzz_json_out);
		free(buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *err = NULL;
	struct hp_snapshot *s = hp_parse((const char *)data, size, &err);
	size_t i;

	if (s) {
		struct table *t = table_new();
		struct hp_memo memo = { table_known_line, table_known_key, t };
		char *next = malloc(size ? size : 1);

		for (i = 0; i < s->nhists; i++) {
			table_update(t, &s->hists[i], (double)i);
			table_update(t, &s->hists[i], (double)i + 1);
			/* a trigger info that parsed means what it means */
			if (!trig_same(s->hists[i].trigger, s->hists[i].trigger))
				abort();
			trig_same(s->hists[0].trigger, s->hists[i].trigger);
		}
		if (s->nhists)
			check_outputs(t);
		/*
		 * The memo on the same text (every line known), then on the text
		 * with every digit 1-8 moved on (known keys with new values, new
		 * keys): the table must take both, or say to parse again.
		 */
		for (i = 0; i < size; i++)
			next[i] = data[i] >= '1' && data[i] <= '8' ? data[i] + 1 : data[i];
		for (i = 0; i < 2; i++) {
			const char *text = i ? next : (const char *)data;
			struct hp_snapshot *m = hp_parse_memo(text, size, &memo, &err);

			if (m && m->nhists && table_update(t, &m->hists[m->nhists - 1], 10.0 + i)) {
				hp_snapshot_free(m);
				m = hp_parse(text, size, &err);
				if (m && m->nhists)
					table_update(t, &m->hists[m->nhists - 1], 10.0 + i);
			}
			hp_snapshot_free(m);
			free(err);
			err = NULL;
		}
		free(next);
		table_free(t);
	}
	hp_snapshot_free(s);
	free(err);
	return 0;
}
