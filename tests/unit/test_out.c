// SPDX-License-Identifier: GPL-2.0
/* Batch output: text, NDJSON and CSV frames, folded stacks, key text. */
#include <stdarg.h>
#include "hp.h"
#include "out.h"
#include "table.h"
#include "tap.h"
#include "load.h"

static char *capture(int (*fn)(FILE *, struct out_ctx *, const struct table *),
		     struct out_ctx *c, const struct table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, c, t);
	fclose(f);
	return buf;
}

/* No name twice in a CSV header line (names without quotes or commas). */
static bool csv_names_unique(const char *hdr)
{
	const char *a, *b;
	size_t la, lb;

	for (a = hdr; *a; a += la + (a[la] == ',')) {
		la = strcspn(a, ",");
		for (b = a + la + (a[la] == ','); *b; b += lb + (b[lb] == ',')) {
			lb = strcspn(b, ",");
			if (la == lb && !strncmp(a, b, la))
				return false;
		}
	}
	return true;
}

int main(void)
{
	struct table *t = load("read-execname.hist");
	struct out_ctx c = { .event = "syscalls:sys_enter_read" };
	char *s, *k, buf[16];
	size_t i, lines = 0;

	k = out_key_text(t, t->rows[0], false);
	is_str(k, "fx_a [649]", "execname key text folds the kernel's padding (fx_a: most hits)");
	free(k);

	s = capture(out_text, &c, t);
	ok(strstr(s, "histtop: syscalls:sys_enter_read  hist:keys=common_pid.execname") != NULL,
	   "text: header names the event and trigger");
	ok(strstr(s, "[paused]") != NULL, "text: state");
	ok(strstr(s, "fx_b [650]") && strstr(s, "10000"), "text: a row with its total");
	free(s);

	s = capture(out_json, &c, t);
	for (i = 0; s[i]; i++)
		lines += s[i] == '\n';
	is_u64(lines, 1, "json: one line per frame");
	ok(strstr(s, "\"state\":\"paused\"") && strstr(s, "\"hits\":12") &&
	   strstr(s, "\"total\":{\"hitcount\":2,\"count\":10000}"), "json: state, hits, totals");
	ok(strstr(s, "{\"key\":\"common_pid: fx c,d [651]\",\"keys\":{\"common_pid.execname\":\"fx c,d\",\"common_pid\":651}") != NULL,
	   "json: .execname key without the kernel's padding, comm and pid as fields");
	free(s);

	s = capture(out_csv, &c, t);
	ok(!strncmp(s, "frame,time,common_pid.execname,common_pid,hitcount,hitcount_delta,hitcount_rate,count,count_delta,count_rate", 107),
	   "csv: header, an .execname key as comm and pid");
	ok(strstr(s, "\n1,0.000,\"fx c,d\",651,3,0,0.000,3,0,0.000") != NULL,
	   "csv: comm without padding (quoted: it has a comma), then the pid");
	free(s);
	s = capture(out_csv, &c, t);
	ok(strncmp(s, "frame,", 6) != 0, "csv: header only once");
	free(s);
	c.top = 1;
	s = capture(out_csv, &c, t);
	lines = 0;
	for (i = 0; s[i]; i++)
		lines += s[i] == '\n';
	is_u64(lines, 1, "-T 1: one row");
	free(s);
	table_free(t);

	t = load("kmalloc-stacktrace.hist");
	{
		char *fb = NULL;
		size_t fl = 0;
		FILE *f = open_memstream(&fb, &fl);

		out_folded(f, &c, t, 0);
		fclose(f);
		ok(strstr(fb, "entry_SYSCALL_64_after_hwframe;do_syscall_64;") != NULL,
		   "folded: root first, offsets stripped");
		ok(!strstr(fb, "+0x"), "folded: no offsets");
		free(fb);
	}
	k = out_key_text(t, t->rows[0], false);
	ok(strstr(k, " <- ") && !strchr(k, '\n'), "stack key folds on one line, hottest first");
	free(k);
	table_free(t);

	t = load("kmalloc-sym.hist");
	k = out_key_text(t, t->rows[0], false);
	ok(k[0] != '[' && strstr(k, " [ffffffff") && k[strlen(k) - 1] == ']',
	   ".sym key shows the name first, then the address (%s)", k);
	free(k);
	table_free(t);

	/* .percent and .graph: the kernel's numbers and bars, not hundredths or zeros */
	t = load("kmalloc-percent-graph.hist");
	c.top = 0;
	s = capture(out_json, &c, t);
	ok(strstr(s, "\"bytes_req (%)\":42.90,\"bytes_alloc\":\"####################\"") != NULL,
	   "json: .percent as the kernel printed it (42.90), .graph as its bar");
	ok(strstr(s, "\"bytes_req (%)\":3.35,") && !strstr(s, ":335"),
	   "json: 3.35%% is 3.35, not 335");
	ok(!strstr(s, "\"delta\":{\"hitcount\":0,\"bytes_req (%)\""),
	   "json: no delta of a percentage or a bar");
	free(s);
	s = capture(out_text, &c, t);
	ok(strstr(s, "42.90") && strstr(s, "##########") && !strstr(s, " 4290 "),
	   "text: 42.90 and the bar");
	free(s);
	s = capture(out_csv, &c, t);
	ok(strstr(s, ",2,0,0.000,42.90,####################") != NULL,
	   "csv: 42.90 and the bar");
	free(s);
	ok(table_col_find(t, "bytes_req.percent.descending") == 1 &&
	   table_col_find(t, "bytes_alloc.graph") == 2,
	   "-s names a .percent or .graph column by its spec");
	table_free(t);

	/* hostile key text: every unprintable byte escaped, JSON valid UTF-8 */
	t = load("hostile-keys.hist");
	for (i = 0; i < t->nrows; i++)
		if (!strncmp(t->rows[i]->parts[0], "AAAA", 4))
			break;
	k = out_key_text(t, t->rows[i], false);
	is_str(k, "AAAA\\x0dBB, cr\\x0dXY [102]", "a CR in a key shows as \\x0d");
	free(k);
	for (i = 0; i < t->nrows; i++) {
		k = out_key_text(t, t->rows[i], false);
		if (!strncmp(k, "ok", 2))
			is_str(k, "ok\\x1b[31mred, e\\x1b[2Jx [101]", "ESC shows as \\x1b");
		else if (!strncmp(k, "bad", 3))
			is_str(k, "bad\\xff\\xc3(, inv\\xfe [105]", "invalid UTF-8 shows as \\xHH");
		else if (!strncmp(k, "c1", 2))
			is_str(k, "c1\\xc2\\x9b2J, c1\\xc2\\x9bm [106]", "a C1 control (CSI) is escaped");
		else if (!strncmp(k, "caf", 3))
			is_str(k, "caf\xc3\xa9, na\xc3\xafve [108]", "valid UTF-8 stays");
		else if (!strncmp(k, "q", 1))
			is_str(k, "q\"uote,\\\\x, bs\\\\n [109]", "a backslash doubles: the form is unambiguous");
		free(k);
	}
	k = out_key_text(t, t->rows[0], true);
	ok(strstr(k, "\\x") != NULL, "ascii: %s", k);
	free(k);
	for (i = 0; i < t->nrows; i++) {
		k = out_key_text(t, t->rows[i], true);
		if (!strncmp(k, "caf", 3))
			is_str(k, "caf\\xc3\\xa9, na\\xc3\\xafve [108]", "ascii: non-ASCII escaped too");
		free(k);
	}
	{
		int (*const fns[])(FILE *, struct out_ctx *, const struct table *) = {
			out_text, out_json, out_csv };
		const char *const names[] = { "text", "json", "csv" };
		size_t f;

		c.top = 0;
		c.csv_header_done = false;
		for (f = 0; f < 3; f++) {
			size_t bad = 0;

			s = capture(fns[f], &c, t);
			for (i = 0; s[i]; i++) {
				unsigned char ch = s[i];

				bad += (ch < 0x20 && ch != '\n') || ch == 0x7f ||
				       (ch == 0xc2 && (unsigned char)s[i + 1] >= 0x80 &&
					(unsigned char)s[i + 1] <= 0x9f) || ch == 0xff || ch == 0xfe;
			}
			is_u64(bad, 0, "%s: no raw control byte or invalid UTF-8", names[f]);
			if (f == 0) {
				/* every row line as wide (in characters) as the header */
				size_t p = 0, want = 0, cells, odd = 0;

				while (s[p] && strncmp(s + p, "\nKEY", 4))
					p++;
				p += s[p] != '\0';

				while (s[p] && s[p] != '\n') {
					for (cells = 0; s[p] && s[p] != '\n'; p++)
						cells += ((unsigned char)s[p] & 0xc0) != 0x80;
					if (!want)
						want = cells;
					odd += cells != want;
					p += s[p] == '\n';
				}
				is_u64(odd, 0, "text: the columns line up after a key with UTF-8 text");
			}
			if (f == 1)
				ok(strstr(s, "\"child_comm\":\"bad\\ufffd\\ufffd(\"") &&
				   strstr(s, "\"child_comm\":\"\\u001b]2;pwned\\u0007\"") &&
				   strstr(s, "\"child_comm\":\"c1\\u009b2J\"") &&
				   strstr(s, "\"child_comm\":\"AAAA\\u000dBB\""),
				   "json: controls as \\u00XX, invalid bytes as \\ufffd");
			if (f == 2)
				ok(strstr(s, "\n1,0.000,\"q\"\"uote,\\\\x\",") != NULL,
				   "csv: a quote and a comma quoted, a backslash escaped");
			free(s);
		}
	}
	table_free(t);

	/* compound keys: each part by its field name, .syscall as name and number */
	t = load("raw-compound.hist");
	s = capture(out_json, &c, t);
	ok(strstr(s, "\"keys\":{\"common_pid.execname\":\"") && strstr(s, "\"id.syscall\":\"sys_") &&
	   strstr(s, "\"id\":") && !strstr(s, "  "), "json: compound .execname,.syscall key as fields, no padding");
	free(s);
	c.csv_header_done = false;
	s = capture(out_csv, &c, t);
	ok(!strncmp(s, "frame,time,common_pid.execname,common_pid,id.syscall,id,hitcount,", 65) && !strstr(s, "  "),
	   "csv: compound key as comm, pid, syscall name and number");
	free(s);
	table_free(t);

	/* a .percent of a zero total: the kernel prints [ERROR], so does histtop */
	{
		static const char zero[] =
			"# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b.percent:"
			"size=64 [active]\n#\n\n"
			"{ a:          1 } hitcount:          1  b (%):[ERROR]\n"
			"\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n";
		char num[TABLE_NUM_MAX];

		t = load_text("[ERROR]", zero, strlen(zero));
		is_str(t->nrows ? table_total_str(t, t->rows[0], 1, num) : "", "[ERROR]",
		       ".percent [ERROR] stays [ERROR], not 0.00");
		s = capture(out_json, &c, t);
		ok(strstr(s, "\"b (%)\":null") != NULL, "json: [ERROR] is null");
		free(s);
		table_free(t);
	}

	/* field names from the file are quoted too: a quote in a key name, a comma in a column */
	{
		static const char odd[] =
			"# event histogram\n#\n# trigger info: hist:keys=a\"b.execname:vals=hitcount:"
			"size=64 [active]\n#\n\n"
			"{ a\"b: x               [        1] } hitcount:          1  c,d:          2\n"
			"\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n";
		t = load_text("odd names", odd, strlen(odd));
		s = capture(out_json, &c, t);
		ok(strstr(s, "\"keys\":{\"a\\\"b.execname\":\"x\",\"a\\\"b\":1}") != NULL,
		   "json: a quote in a key name is escaped");
		free(s);
		c.csv_header_done = false;
		s = capture(out_csv, &c, t);
		ok(!strncmp(s, "frame,time,\"a\"\"b.execname\",\"a\"\"b\",hitcount,hitcount_delta,"
			    "hitcount_rate,\"c,d\",\"c,d_delta\",\"c,d_rate\",gone,unix_time\n", 116),
		   "csv: names with a quote or a comma are quoted in the header");
		free(s);
		table_free(t);
	}

	/* a key and a value of the same field: every CSV column name once */
	{
		static const char log2[] =
			"# event histogram\n#\n# trigger info: hist:keys=bytes_req.log2:"
			"vals=hitcount,bytes_req:sort=hitcount:size=2048 [active]\n#\n\n"
			"{ bytes_req: ~ 2^8  } hitcount:          4  bytes_req:        800\n"
			"\nTotals:\n    Hits: 4\n    Entries: 1\n    Dropped: 0\n";

		static const char *const want[] = { "frame,time,count.buckets,hitcount,",
						    "frame,time,bytes_req.log2,hitcount," };

		for (i = 0; i < 2; i++) {
			t = i ? load_text("log2 and value", log2, strlen(log2)) :
				load("612-read-buckets.hist");
			c.csv_header_done = false;
			s = capture(out_csv, &c, t);
			s[strcspn(s, "\n")] = '\0';
			ok(csv_names_unique(s), "csv: %s key and value of one field: names unique (%s)",
			   i ? ".log2" : ".buckets", s);
			ok(!strncmp(s, want[i], strlen(want[i])), "csv: the key column is named %.*s",
			   (int)strcspn(want[i] + 11, ","), want[i] + 11);
			free(s);
			table_free(t);
		}
	}

	/* a wall-clock time; .sym as symbol and address; .log2/.buckets bounds */
	{
		static const struct {
			const char *fix, *json, *csv_hdr, *csv_row;
		} cases[] = {
			{ "612-kmalloc-sym.hist", "\"call_site.symbol\":\"",
			  ",gone,unix_time,call_site.symbol,call_site.address\n", NULL },
			{ "612-read-log2.hist", "\"count\":\"~ 2^10\",\"count.from\":513,\"count.to\":1024}",
			  ",gone,unix_time,count.from,count.to\n", ",0,1733500000.250,513,1024\n" },
			{ "612-read-buckets.hist",
			  "\"count\":\"~ 100-199\",\"count.from\":100,\"count.to\":199}",
			  ",gone,unix_time,count.from,count.to\n", ",0,1733500000.250,100,199\n" },
		};
		struct out_ctx w = { .event = "e:v", .wall = 1733500000.25 };

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			t = load(cases[i].fix);
			s = capture(out_json, &w, t);
			ok(strstr(s, "\"unix_time\":1733500000.250,") != NULL, "json %s: unix_time",
			   cases[i].fix);
			ok(strstr(s, cases[i].json) != NULL, "json %s: %s", cases[i].fix, cases[i].json);
			free(s);
			w.csv_header_done = false;
			s = capture(out_csv, &w, t);
			ok(strstr(s, cases[i].csv_hdr) != NULL, "csv %s: header ends %s", cases[i].fix,
			   cases[i].csv_hdr);
			ok(!cases[i].csv_row || strstr(s, cases[i].csv_row), "csv %s: row ends %s",
			   cases[i].fix, cases[i].csv_row ? cases[i].csv_row : "(any)");
			free(s);
			table_free(t);
		}
		/* the symbol first, then the address, both whole */
		t = load("612-kmalloc-sym.hist");
		s = capture(out_json, &w, t);
		ok(strstr(s, "\",\"call_site.address\":\"ffffffff") != NULL,
		   "json: the .sym address follows the symbol, as hex text");
		free(s);
		table_free(t);
	}

	is_str(out_human(buf, sizeof(buf), 999), "999", "human: small");
	is_str(out_human(buf, sizeof(buf), 12345), "12.3K", "human: K");
	is_str(out_human(buf, sizeof(buf), 123456789), "123M", "human: M");
	return done_testing();
}
