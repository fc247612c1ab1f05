// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the parser, the trigger model and the table must take any bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "histparse.h"
#include "table.h"
#include "trigger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
