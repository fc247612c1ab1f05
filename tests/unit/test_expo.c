// SPDX-License-Identifier: GPL-2.0
/* The exposition: the mapping of issue 29 on hist text in the kernel's forms. */
#include "expo.h"
#include "hp.h"
#include "table.h"
#include "tap.h"

/* The exposition of one frame of text (new), as trigger NAME with cap max. */
static char *expose(const char *text, long max, enum expo_format f)
{
	struct expo_trig x = { .name = "t", .event = "a:b", .max_series = max };
	struct hp_snapshot *s;
	struct table *t = table_new();
	struct strbuf sb;
	char *err = NULL;

	s = hp_parse(text, strlen(text), &err);
	if (!s) {
		printf("# parse: %s\n", err);
		free(err);
		return xstrdup("");
	}
	table_update(t, &s->hists[0], 1.0);
	x.t = t;
	x.st = expo_state_new();
	expo_update(&x);
	sb_init(&sb);
	expo_render(&sb, f, &x, 1, "9.9");
	expo_state_free(x.st);
	hp_snapshot_free(s);
	table_free(t);
	return sb_detach(&sb);
}

#define HEAD(trig) "# event histogram\n#\n# trigger info: " trig " [active]\n#\n\n"
#define TAIL(h, e) "\nTotals:\n    Hits: " #h "\n    Entries: " #e "\n    Dropped: 0\n"

static void has(const char *out, const char *want, const char *what)
{
	if (!ok(strstr(out, want) != NULL, "%s", what))
		printf("#   want: %s\n#   in:\n%s", want, out);
}

int main(void)
{
	char *o;
	struct strbuf sb;

	o = expose(HEAD("hist:keys=call_site.sym:vals=hitcount,bytes_req:sort=hitcount:size=2048")
		   "{ call_site: [ffffffffa13c1454] tomoyo_find_next_domain                       } hitcount:          2  bytes_req:       8192\n"
		   "{ call_site: [ffffffffa13c1432] tomoyo_find_next_domain                       } hitcount:          3  bytes_req:        592\n"
		   "{ call_site: [ffffffffa1293b35] seq_read_iter                                 } hitcount:          1  bytes_req:       4096\n"
		   TAIL(6, 3), 10000, EXPO_PROMETHEUS);
	has(o, "# TYPE histtop_t_hits_total counter\n", "hitcount: a counter named _total");
	has(o, "histtop_t_hits_total{call_site=\"tomoyo_find_next_domain\"} 5\n",
	    ".sym: the symbol only; two call sites in one function are one series, summed");
	has(o, "histtop_t_bytes_req_total{call_site=\"tomoyo_find_next_domain\"} 8784\n",
	    "a summed value: a counter, summed too");
	ok(!strstr(o, "ffffffff"), "no kernel address anywhere");
	ok(!strstr(o, "# EOF"), "the text format has no # EOF");
	free(o);

	o = expose(HEAD("hist:keys=call_site.sym:vals=hitcount:sort=hitcount:size=2048")
		   "{ call_site: [ffffffffa13c1454] a                                             } hitcount:          9\n"
		   "{ call_site: [ffffffffa13c1432] b                                             } hitcount:          3\n"
		   "{ call_site: [ffffffffa1293b35] c                                             } hitcount:          1\n"
		   TAIL(13, 3), 1, EXPO_OPENMETRICS);
	has(o, "# TYPE histtop_t_hits counter\nhisttop_t_hits_total{call_site=\"a\"} 9\n"
	    "histtop_t_hits_total{histtop_overflow=\"true\"} 4\n",
	    "--max-series 1: the top by hits, the rest summed in the overflow series");
	has(o, "histtop_trigger_series_folded{trigger=\"t\"} 2\n", "the folded series counted");
	has(o, "# TYPE histtop_build info\nhisttop_build_info{version=\"9.9\"} 1\n# EOF\n",
	    "OpenMetrics: build info, counter family without _total, # EOF last");
	free(o);

	o = expose(HEAD("hist:keys=count.log2:vals=hitcount,count:sort=hitcount:size=2048")
		   "{ count: ~ 2^3  } hitcount:          2  count:         14\n"
		   "{ count: ~ 2^10 } hitcount:          3  count:       2100\n"
		   TAIL(5, 2), 10000, EXPO_PROMETHEUS);
	has(o, "# TYPE histtop_t_count histogram\nhisttop_t_count_bucket{le=\"1\"} 0\n",
	    ".log2: a histogram from le 2^0");
	has(o, "histtop_t_count_bucket{le=\"4\"} 0\nhisttop_t_count_bucket{le=\"8\"} 2\n",
	    ".log2 key 3 holds (4, 8]: le=\"8\"");
	has(o, "histtop_t_count_bucket{le=\"512\"} 2\nhisttop_t_count_bucket{le=\"1024\"} 5\n"
	    "histtop_t_count_bucket{le=\"+Inf\"} 5\nhisttop_t_count_sum 2114\nhisttop_t_count_count 5\n",
	    "cumulative buckets, +Inf == _count, _sum exact from vals=count");
	free(o);

	o = expose(HEAD("hist:keys=count.buckets=100:vals=hitcount:sort=hitcount:size=2048")
		   "{ count: ~ 400-499 } hitcount:          1\n"
		   "{ count: ~ 100-199 } hitcount:          4\n"
		   TAIL(5, 2), 10000, EXPO_OPENMETRICS);
	has(o, "histtop_t_count_bucket{le=\"199.0\"} 4\nhisttop_t_count_bucket{le=\"499.0\"} 5\n"
	    "histtop_t_count_bucket{le=\"+Inf\"} 5\nhisttop_t_count_count 5\n",
	    ".buckets=100: le the bucket's last value; no _sum without vals of the field");
	ok(!strstr(o, "_sum"), "no _sum that would not be exact");
	free(o);

	o = expose(HEAD("hist:keys=common_pid.execname,id.syscall:vals=hitcount:sort=hitcount:size=2048")
		   "{ common_pid: fx_b            [       193], id: sys_getpid                    [ 39] } hitcount:          9\n"
		   TAIL(9, 1), 10000, EXPO_PROMETHEUS);
	has(o, "histtop_t_hits_total{comm=\"fx_b\",pid=\"193\",id=\"sys_getpid\"} 9\n",
	    ".execname: comm and pid; .syscall: the name; compound: several labels");
	free(o);

	o = expose(HEAD("hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048")
		   "{ common_stacktrace:\n         kstrdup+0x38/0x70\n         ffffffffa1000000\n"
		   "         do_syscall_64+0x87/0x1b0\n} hitcount:          4\n"
		   TAIL(4, 1), 10000, EXPO_PROMETHEUS);
	has(o, "histtop_t_hits_total{stack=\"do_syscall_64+0x87/0x1b0;[unknown];kstrdup+0x38/0x70\"} 4\n",
	    "a stack: folded root first, an unresolved frame never as its address");
	free(o);

	{
		/* the cap across refreshes: a series once exported stays, the overflow only grows */
		static const char *const frames[] = {
			HEAD("hist:keys=pid:vals=hitcount:sort=hitcount:size=2048")
			"{ pid:          1 } hitcount:          5\n"
			"{ pid:          2 } hitcount:          3\n" TAIL(8, 2),
			HEAD("hist:keys=pid:vals=hitcount:sort=hitcount:size=2048")
			"{ pid:          1 } hitcount:          6\n"
			"{ pid:          2 } hitcount:         50\n" TAIL(56, 2),
		};
		struct expo_trig x = { .name = "t", .event = "a:b", .max_series = 1 };
		struct table *t = table_new();
		size_t i;

		x.t = t;
		x.st = expo_state_new();
		for (i = 0; i < 2; i++) {
			char *err = NULL;
			struct hp_snapshot *s = hp_parse(frames[i], strlen(frames[i]), &err);

			table_update(t, &s->hists[0], 1.0 + i);
			hp_snapshot_free(s);
			expo_update(&x);
		}
		sb_init(&sb);
		expo_render(&sb, EXPO_PROMETHEUS, &x, 1, "9.9");
		has(sb.buf, "histtop_t_hits_total{pid=\"1\"} 6\n"
		    "histtop_t_hits_total{histtop_overflow=\"true\"} 50\n",
		    "--max-series 1: pid 1 stays exported though pid 2 overtook it; the "
		    "overflow series goes 3 -> 50, never down");
		sb_free(&sb);
		expo_state_free(x.st);
		table_free(t);
	}

	{
		/*
		 * What the state keeps across refreshes is never stale: after
		 * every frame (values move, a row changes its line, a clear
		 * takes rows away, others come), the exposition of a state that
		 * saw every frame is that of a new state that sees only this
		 * one, and the cap's choice follows the rows.
		 */
		static const char *const frames[] = {
			HEAD("hist:keys=common_pid.execname:vals=hitcount,bytes:sort=hitcount:size=2048")
			"{ common_pid: a\"b             [         1] } hitcount:          5  bytes:         50\n"
			"{ common_pid: c               [         2] } hitcount:          3  bytes:         30\n"
			"{ common_pid: d\xc3\xa9             [         3] } hitcount:          1  bytes:         10\n"
			TAIL(9, 3),
			HEAD("hist:keys=common_pid.execname:vals=hitcount,bytes:sort=hitcount:size=2048")
			"{ common_pid: a\"b             [         1] } hitcount:          7  bytes:         51\n"
			"{ common_pid: c               [         2] } hitcount:          3  bytes:         30\n"
			"{ common_pid: d\xc3\xa9             [         3] } hitcount:          9  bytes:         99\n"
			TAIL(19, 3),
			/* a clear: 1 and 3 gone, 2 back from zero, 4 and 5 new */
			HEAD("hist:keys=common_pid.execname:vals=hitcount,bytes:sort=hitcount:size=2048")
			"{ common_pid: e               [         5] } hitcount:          8  bytes:          8\n"
			"{ common_pid: c               [         2] } hitcount:          2  bytes:          4\n"
			"{ common_pid: x\\y             [         4] } hitcount:          6  bytes:          6\n"
			TAIL(16, 3),
			HEAD("hist:keys=common_pid.execname:vals=hitcount,bytes:sort=hitcount:size=2048")
			"{ common_pid: e               [         5] } hitcount:          9  bytes:          9\n"
			"{ common_pid: c               [         2] } hitcount:          2  bytes:          4\n"
			"{ common_pid: x\\y             [         4] } hitcount:          6  bytes:          7\n"
			"{ common_pid: a\"b             [         1] } hitcount:          1  bytes:          1\n"
			TAIL(18, 4),
		};
		struct expo_trig warm = { .name = "t", .event = "a:b", .max_series = 10000 };
		struct expo_trig capped = { .name = "t", .event = "a:b", .max_series = 2 };
		struct table *t = table_new();
		size_t i, same = 0;

		warm.st = expo_state_new();
		capped.st = expo_state_new();
		for (i = 0; i < 4; i++) {
			struct expo_trig cold = { .name = "t", .event = "a:b", .max_series = 10000 };
			struct strbuf a, b;
			char *err = NULL;
			struct hp_snapshot *s = hp_parse(frames[i], strlen(frames[i]), &err);

			if (!s) {
				ok(0, "frame %zu parses: %s", i, err);
				free(err);
				continue;
			}
			table_update(t, &s->hists[0], 1.0 + i);
			hp_snapshot_free(s);
			warm.t = capped.t = cold.t = t;
			cold.st = expo_state_new();
			expo_update(&warm);
			expo_update(&capped);
			expo_update(&cold);
			sb_init(&a);
			sb_init(&b);
			expo_render(&a, i % 2 ? EXPO_OPENMETRICS : EXPO_PROMETHEUS, &warm, 1, "9.9");
			expo_render(&b, i % 2 ? EXPO_OPENMETRICS : EXPO_PROMETHEUS, &cold, 1, "9.9");
			same += a.len == b.len && !memcmp(a.buf, b.buf, a.len);
			if (i == 3) {
				sb_free(&a);
				sb_init(&a);
				expo_render(&a, EXPO_PROMETHEUS, &capped, 1, "9.9");
			}
			sb_free(&b);
			expo_state_free(cold.st);
			if (i == 3)
				has(a.buf, "histtop_t_hits_total{comm=\"c\",pid=\"2\"} 2\n"
				    "histtop_t_hits_total{comm=\"e\",pid=\"5\"} 9\n"
				    "histtop_t_hits_total{histtop_overflow=\"true\"} 7\n",
				    "--max-series 2 across a clear: pid 2, exported before, keeps "
				    "its place; pid 1 and 3 left it to pid 5, the top newcomer");
			sb_free(&a);
		}
		is_u64(same, 4, "four refreshes: each exposition of the state that saw them all "
		       "is that of a new state");
		expo_state_free(warm.st);
		expo_state_free(capped.st);
		table_free(t);
	}

	sb_init(&sb);
	expo_add_label_value(&sb, "a\\b\"c\nd\xff\xc3\xa9", 10);
	is_str(sb.buf, "a\\\\b\\\"c\\nd\xef\xbf\xbd\xc3\xa9",
	       "label values: \\\\ \\\" \\n escaped, invalid UTF-8 replaced, valid kept");
	sb_free(&sb);
	return done_testing();
}
