// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the parser and the table must take any bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "histparse.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *err = NULL;
	struct hp_snapshot *s = hp_parse((const char *)data, size, &err);
	size_t i;

	if (s) {
		struct table *t = table_new();

		for (i = 0; i < s->nhists; i++) {
			table_update(t, &s->hists[i], (double)i);
			table_update(t, &s->hists[i], (double)i + 1);
		}
		table_free(t);
	}
	hp_snapshot_free(s);
	free(err);
	return 0;
}
