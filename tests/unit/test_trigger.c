// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger model: histtop finds the trigger it installed by meaning, not
 * spelling.  Every fixture's trigger info is matched against the trigger as
 * it was written (tests/fixtures/capture.sh, for the 6.1 and the 6.12
 * captures, and the hand-made fixtures' own comments), and against every
 * other one.
 */
#include "hp.h"
#include "tap.h"
#include "trig.h"

/* Each histogram of each fixture, in file order, and the trigger written for it. */
static const struct {
	const char *fixture;
	const char *written;
} cases[] = {
	{ "kmalloc-callsite.hist", "hist:keys=call_site:vals=bytes_req" },
	{ "kmalloc-hex.hist", "hist:keys=call_site.hex:vals=bytes_req" },
	{ "kmalloc-sym.hist",
	  "hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_alloc.descending" },
	{ "kmalloc-symoffset.hist", "hist:keys=call_site.sym-offset:vals=bytes_req" },
	{ "kmalloc-stacktrace.hist",
	  "hist:keys=stacktrace:vals=bytes_req,bytes_alloc:sort=bytes_alloc" },
	{ "kmalloc-hexval.hist", "hist:keys=common_pid.execname:vals=bytes_req.hex" },
	{ "kmalloc-percent-graph.hist",
	  "hist:keys=call_site.sym:vals=bytes_req.percent,bytes_alloc.graph:sort=bytes_req.descending" },
	{ "read-execname.hist",
	  "hist:keys=common_pid.execname:vals=count:sort=count.descending if comm ~ \"fx*\"" },
	{ "raw-syscall.hist", "hist:keys=id.syscall:vals=hitcount" },
	{ "raw-compound.hist",
	  "hist:keys=common_pid.execname,id.syscall:vals=hitcount if comm ~ \"fx_*\"" },
	{ "read-log2.hist", "hist:keys=count.log2:vals=hitcount if comm == \"fx_log\"" },
	{ "read-buckets.hist", "hist:keys=count.buckets=100:vals=hitcount,count if comm == \"fx_b\"" },
	{ "read-dropped.hist", "hist:keys=count:vals=hitcount:size=128 if comm == \"fx_size\"" },
	{ "fork-paused.hist", "hist:keys=child_comm:vals=hitcount:size=256" },
	{ "two-hists.hist", "hist:keys=count:vals=hitcount if comm == \"fx_two\"" },
	{ "two-hists.hist",
	  "hist:name=fxnamed:keys=common_pid.execname:vals=count if comm == \"fx_two\"" },
	{ "onmax.hist",
	  "hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(prev_comm,prev_pid)" },
	{ "read-minmax.hist",
	  "hist:keys=common_pid.execname:vals=ret,ret.max,ret.min:sort=ret.min if comm ~ \"fx_m*\"" },
	/* Debian's 6.12.118: the same forms (stacktrace printed common_stacktrace) */
	{ "612-kmalloc-callsite.hist", "hist:keys=call_site:vals=bytes_req" },
	{ "612-kmalloc-hex.hist", "hist:keys=call_site.hex:vals=bytes_req" },
	{ "612-kmalloc-sym.hist",
	  "hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_alloc.descending" },
	{ "612-kmalloc-symoffset.hist", "hist:keys=call_site.sym-offset:vals=bytes_req" },
	{ "612-kmalloc-stacktrace.hist",
	  "hist:keys=stacktrace:vals=bytes_req,bytes_alloc:sort=bytes_alloc" },
	{ "612-kmalloc-hexval.hist", "hist:keys=common_pid.execname:vals=bytes_req.hex" },
	{ "612-kmalloc-percent-graph.hist",
	  "hist:keys=call_site.sym:vals=bytes_req.percent,bytes_alloc.graph:sort=bytes_req.descending" },
	{ "612-read-execname.hist",
	  "hist:keys=common_pid.execname:vals=count:sort=count.descending if comm ~ \"fx*\"" },
	{ "612-raw-syscall.hist", "hist:keys=id.syscall:vals=hitcount" },
	{ "612-raw-compound.hist",
	  "hist:keys=common_pid.execname,id.syscall:vals=hitcount if comm ~ \"fx_*\"" },
	{ "612-read-log2.hist", "hist:keys=count.log2:vals=hitcount if comm == \"fx_log\"" },
	{ "612-read-buckets.hist",
	  "hist:keys=count.buckets=100:vals=hitcount,count if comm == \"fx_b\"" },
	{ "612-read-dropped.hist", "hist:keys=count:vals=hitcount:size=128 if comm == \"fx_size\"" },
	{ "612-fork-paused.hist", "hist:keys=child_comm:vals=hitcount:size=256" },
	{ "612-two-hists.hist", "hist:keys=count:vals=hitcount if comm == \"fx_two\"" },
	{ "612-two-hists.hist",
	  "hist:name=fxnamed:keys=common_pid.execname:vals=count if comm == \"fx_two\"" },
	{ "612-onmax.hist",
	  "hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(prev_comm,prev_pid)" },
	/* and 6.12's own (tests/fixtures/capture.sh of the stock-6.12 capture) */
	{ "612-kfree-common-stacktrace.hist", "hist:keys=stacktrace" },
	{ "612-read-nohitcount.hist",
	  "hist:keys=common_pid.execname:vals=count:nohitcount if comm ~ \"fx*\"" },
	{ "612-read-hitcount-percent.hist",
	  "hist:keys=common_pid.execname:vals=hitcount.percent,count.graph if comm ~ \"fx*\"" },
	{ "612-read-hitcount-graph.hist",
	  "hist:keys=common_pid.execname:vals=hitcount.graph,count if comm ~ \"fx*\"" },
	{ "612-read-nohitcount-percent.hist",
	  "hist:keys=common_pid.execname:vals=hitcount.percent,count.graph:nohitcount "
	  "if comm ~ \"fx*\"" },
	{ "612-synth-stacktrace.hist", "hist:keys=stack.stacktrace:vals=hitcount,lat" },
	{ "612-synth-buckets-stacktrace.hist", "hist:keys=lat.buckets=1000,stack.stacktrace:sort=lat" },
	{ "612-qualified-var.hist",
	  "hist:keys=next_pid:lat=common_timestamp.usecs-sched.sched_waking.$ts0:"
	  "onmatch(sched.sched_waking).trace(fx_wake,$lat,next_pid,sched.sched_waking.$st) "
	  "if next_comm == \"fx_wake\"" },
	{ "612-qualified-var-waking.hist",
	  "hist:keys=pid:ts0=common_timestamp.usecs,st=common_stacktrace if comm == \"fx_wake\"" },
	/* hand-made: qualified and local references as values */
	{ "hand-612-varref.hist", "hist:keys=next_pid:vals=sched.sched_waking.$ts0" },
	{ "hand-612-varref.hist", "hist:keys=next_pid:vals=$ts1:ts1=common_timestamp.usecs" },
	/* 6.16: comm on an event without a comm field is common_comm */
	{ "hand-616-common-comm.hist", "hist:keys=comm,id.syscall if common_pid != 1" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static struct hp_snapshot *snaps[NCASES];	/* each case parses its own copy */
static const char *infos[NCASES];

static void load(void)
{
	size_t i, j;

	for (i = 0; i < NCASES; i++) {
		size_t len, nth = 0;
		char *buf, *err = NULL;

		for (j = 0; j < i; j++)
			nth += !strcmp(cases[j].fixture, cases[i].fixture);
		buf = fixture(cases[i].fixture, &len);
		snaps[i] = hp_parse(buf, len, &err);
		free(buf);
		if (!snaps[i] || nth >= snaps[i]->nhists) {
			printf("Bail out! %s: %s\n", cases[i].fixture, err ? err : "too few hists");
			exit(1);
		}
		infos[i] = snaps[i]->hists[nth].trigger;
	}
}

static void test_every_fixture(void)
{
	size_t i, j, wrong = 0;

	for (i = 0; i < NCASES; i++)
		ok(trig_same(cases[i].written, infos[i]), "%s: '%s' is the kernel's '%s'",
		   cases[i].fixture, cases[i].written, infos[i]);
	/* and no trigger is any other fixture's (the 6.1 and 6.12 captures of one form aside) */
	for (i = 0; i < NCASES; i++)
		for (j = 0; j < NCASES; j++)
			if (strcmp(cases[i].written, cases[j].written) &&
			    trig_same(cases[i].written, infos[j])) {
				printf("#   '%s' matches %s's '%s'\n", cases[i].written,
				       cases[j].fixture, infos[j]);
				wrong++;
			}
	is_u64(wrong, 0, "no written trigger matches another fixture's trigger info");
	for (i = 0; i < NCASES; i++) {
		struct hp_trigger t;
		struct strbuf sb;
		bool same;

		/* -k as given for --attach */
		hp_trigger_parse(cases[i].written, &t);
		sb_init(&sb);
		for (j = 0; t.keys[j]; j++)
			sb_printf(&sb, "%s%s", j ? "," : "", t.keys[j]);
		same = trig_keys_same(sb.buf, infos[i]);
		if (!same)
			printf("#   -k %s vs %s\n", sb.buf, infos[i]);
		wrong += !same;
		sb_free(&sb);
		hp_trigger_free(&t);
	}
	is_u64(wrong, 0, "-k of every written trigger names its fixture's keys");
}

static void same(const char *a, const char *b, const char *why)
{
	ok(trig_same(a, b), "same: %s", why);
}

static void differ(const char *a, const char *b, const char *why)
{
	ok(!trig_same(a, b), "differ: %s", why);
}

static void test_spellings(void)
{
	const char *k = "hist:keys=stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]";

	same("hist:keys=common_stacktrace", k, "common_stacktrace is 6.1's stacktrace");
	same("hist:keys=STACKTRACE", "hist:keys=common_stacktrace", "STACKTRACE too");
	same("hist:key=call_site:values=bytes_req",
	     "hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048", "key=, values=");
	same("hist:keys=a:vals=hitcount,b", "hist:keys=a:vals=b", "an explicit hitcount");
	same("hist:keys=a:size=100", "hist:keys=a:size=128", "size= rounded up to a power of 2");
	same("hist:keys=a:size=0x800", "hist:keys=a", "size= in hex, the default 2048");
	same("hist:keys=a:sort=hitcount.ascending", "hist:keys=a", "ascending is the default");
	same("hist:keys=a.sym:sort=a.descending", "hist:keys=a.sym:sort=a.sym.descending",
	     "a sort key printed with its field's modifier");
	same("hist:keys=a if x  ==  1 &&\ty", "hist:keys=a if x == 1 && y", "filter blanks");
	same("hist:keys=pid:vals=b:nohitcount", "hist:keys=pid:vals=b:NOHC", "NOHC");
	same("hist:keys=pid:vals=hitcount,b:nohitcount", "hist:keys=pid:vals=b:nohitcount",
	     "nohitcount with a plain hitcount: it is the implicit one");
	same("hist:keys=count.bucket=0x64", "hist:keys=count.buckets=100", ".bucket=0x64");
	same("hist:keys=cpu", "hist:keys=common_cpu", "cpu is common_cpu");
	same("hist:keys=cpu,a:sort=cpu", "hist:keys=common_cpu,a:sort=common_cpu",
	     "and so is a sort on cpu");
	same("hist:keys=a:ts0=common_timestamp:b=c", "hist:keys=a:b=c:ts0=common_timestamp",
	     "variables in any order");
	same("hist:keys=a:vals=b:pause", "hist:keys=a:vals=b [paused]", "pause is no part of it");
	same("hist:keys=a:ts=common_timestamp", "hist:keys=a:ts=common_timestamp:clock=global",
	     "clock= is printed only with timestamps");

	differ("hist:keys=a,b", "hist:keys=b,a", "key order");
	differ("hist:keys=a:vals=b,c", "hist:keys=a:vals=c,b", "value order");
	differ("hist:keys=a:vals=b", "hist:keys=a:vals=b:nohitcount", "nohitcount");
	differ("hist:keys=a:sort=b.descending:vals=b", "hist:keys=a:sort=b:vals=b", "direction");
	differ("hist:keys=a:size=4096", "hist:keys=a", "size");
	differ("hist:keys=a if x == 1", "hist:keys=a if x == 2", "filter");
	differ("hist:keys=a if x == 1", "hist:keys=a", "a filter and none");
	differ("hist:keys=a.hex", "hist:keys=a", "a key's modifier");
	differ("hist:name=n:keys=a", "hist:keys=a", "a name");
	differ("hist:keys=a:vals=b.percent", "hist:keys=a:vals=b", "a value's modifier");
	differ("hist:keys=a:vals=$x", "hist:keys=a:vals=s.e.$x", "a local and a qualified reference");
	differ("hist:keys=a:vals=b,hitcount,hitcount:nohitcount", "hist:keys=a:vals=b:nohitcount",
	       "a second hitcount is a value of its own");
	differ("hist:keys=a:onmax($l).save(x)", "hist:keys=a", "an action");
	differ("enable_hist:kmem:kmalloc", "enable_hist:kmem:kmalloc", "not hist triggers");

	ok(trig_keys_same("stacktrace", k), "-k stacktrace names 6.12's common_stacktrace");
	ok(!trig_keys_same("stacktrace,a", k), "-k with one key more does not");
	ok(!trig_keys_same("call_site", k), "-k of another key does not");
}

static void test_counts_and_limits(void)
{
	static const char stock[] =
		"\t    can be any field, or the special string 'common_stacktrace'.\n"
		"\t    Compound keys consisting of up to two fields can be specified\n"
		"\t    by the 'keys' keyword.  Values must correspond to numeric\n";
	static const char patched[] =
		"\t    Compound keys consisting of up to three fields can be specified\n"
		"\t    by the 'keys' keyword.  Values must correspond to numeric\n"
		"\t    fields; up to six can be named besides 'hitcount'.\n";
	struct trig_limits l;
	struct hp_trigger t;
	size_t nk, nv;
	char *m;

	hp_trigger_parse("hist:keys=a,b:vals=hitcount.percent,hitcount.graph:nohitcount", &t);
	trig_counts(&t, &nk, &nv);
	ok(nk == 2 && nv == 2, "nohitcount: hitcount.percent and .graph are two values");
	trig_limits_from_readme(stock, &l);
	ok(!trig_explain_einval(&t, &l), "within 6.12's limits: nothing to explain");
	hp_trigger_free(&t);

	hp_trigger_parse("hist:keys=a:vals=x,hitcount,hitcount,y", &t);
	trig_counts(&t, &nk, &nv);
	is_u64(nv, 3, "only the first plain hitcount is free");
	m = trig_explain_einval(&t, &l);
	ok(m && strstr(m, "at most 3 keys and 2 values besides hitcount (the trigger has 1 key "
			  "and 3 values)"), "three values: the stock limit (%s)", m ? m : "none");
	free(m);
	hp_trigger_free(&t);

	trig_limits_from_readme(stock, &l);
	ok(l.keys == 3 && l.vals == 2, "stock README (says 'up to two' keys): 3 keys, 2 values");
	trig_limits_from_readme(patched, &l);
	ok(l.keys == 3 && l.vals == 6, "README of the series: 3 keys, 6 values");
	trig_limits_from_readme(NULL, &l);
	ok(l.keys == 3 && l.vals == 2, "no README: 6.1 and 6.12's limits");

	hp_trigger_parse("hist:keys=a:vals=x,y,z", &t);
	trig_limits_from_readme(patched, &l);
	ok(!trig_explain_einval(&t, &l), "three values on the series: within its limit");
	hp_trigger_free(&t);

	hp_trigger_parse("hist:keys=a:vals=b:size=100000000:nohitcount", &t);
	m = trig_explain_einval(&t, &l);
	ok(m && strstr(m, "size=100000000 is out of range") && strstr(m, "128 to 131072 entries"),
	   "size=100000000: the range (%s)", m ? m : "none");
	free(m);
	hp_trigger_free(&t);
	hp_trigger_parse("hist:keys=a,b,c,d:vals=hitcount.percent:nohitcount", &t);
	trig_limits_from_readme(stock, &l);
	m = trig_explain_einval(&t, &l);
	ok(m && strstr(m, "4 keys") && strstr(m, "nohitcount hides hitcount"),
	   "four keys with nohitcount (%s)", m ? m : "none");
	free(m);
	hp_trigger_free(&t);

	is_u64(trig_size_rounded(100), 128, "size 100 -> 128");
	is_u64(trig_size_rounded(65), 128, "size 65 -> 128");
	is_u64(trig_size_rounded(64), 0, "size 64 -> 64 entries: below 2^7");
	is_u64(trig_size_rounded(131072), 131072, "size 131072: the largest");
	is_u64(trig_size_rounded(131073), 0, "size 131073: beyond 2^17");
}

static void test_interval(void)
{
	ok(trig_interval_ok("hist:keys=common_pid:vals=hitcount,count.max if comm == \"x\""),
	   "interval: keys, sums and extremes can be read in intervals");
	ok(!trig_interval_ok("hist:keys=common_pid:vals=count.percent"),
	   "interval: not a .percent (a share of one interval)");
	ok(!trig_interval_ok("hist:keys=common_pid:vals=count.graph"), "interval: not a .graph");
	ok(!trig_interval_ok("hist:keys=common_pid:name=foo"), "interval: not a named hist");
	ok(!trig_interval_ok("hist:keys=common_pid:ts=common_timestamp"), "interval: no variables");
	ok(!trig_interval_ok("hist:keys=common_pid:onmax(count).save(count)"),
	   "interval: no actions");
	ok(trig_is_interval("hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048:interval "
			    "if comm == \"x\" [active]"), "interval: the kernel's print is one");
	ok(!trig_is_interval("hist:keys=common_pid:vals=hitcount [active]"),
	   "interval: an ordinary trigger is not");
	ok(trig_same("hist:keys=common_pid:interval if comm == \"x\"",
		     "hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048:interval "
		     "if comm == \"x\" [active]"), "interval: histtop's text is the kernel's");
	ok(!trig_same("hist:keys=common_pid", "hist:keys=common_pid:interval [active]"),
	   "interval: an interval hist is not the same trigger as an ordinary one");
}

int main(void)
{
	size_t i;

	load();
	test_every_fixture();
	test_spellings();
	test_counts_and_limits();
	test_interval();
	for (i = 0; i < NCASES; i++)
		hp_snapshot_free(snaps[i]);
	return done_testing();
}
