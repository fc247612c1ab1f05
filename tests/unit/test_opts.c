// SPDX-License-Identifier: GPL-2.0
/* Option parsing and the trigger string built from it. */
#include <stdarg.h>
#include "opts.h"
#include "tap.h"

static enum opts_result parse(struct opts *o, char **err, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = "histtop";
	va_start(ap, err);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return opts_parse(argc, argv, false, o, err);
}

static void expect_error(const char *what, const char *part, ...)
{
	/* up to 6 arguments, NULL-terminated */
	struct opts o;
	char *err = NULL, *v[7] = { 0 };
	va_list ap;
	int i;

	va_start(ap, part);
	for (i = 0; i < 6 && (v[i] = va_arg(ap, char *)); i++)
		;
	va_end(ap);
	ok(parse(&o, &err, v[0], v[1], v[2], v[3], v[4], v[5], NULL) == OPTS_ERROR &&
	   err && strstr(err, part), "%s", what);
	if (err && !strstr(err, part))
		printf("#   err: %s\n", err);
	free(err);
}

/* E: one field of a trigger edited in place, checked, the rest kept. */
static void test_edit(void)
{
	struct opts o;
	struct opts_trig n;
	char *err = NULL, *note = NULL, *t;
	int r;

	ok(parse(&o, &err, "-e", "kmem:kmalloc", "-k", "call_site.sym", "-v", "bytes_req",
		 "-s", "bytes_req.descending", "--filter", "bytes_req > 64", "--size", "4096",
		 NULL) == OPTS_RUN, "edit: a trigger to edit");
	t = opts_trig_field(&o.trigs[0], OPTS_FIELD_KEYS);
	is_str(t, "call_site.sym", "edit: the keys' text to start from");
	free(t);
	t = opts_trig_field(&o.trigs[0], OPTS_FIELD_EVENT);
	is_str(t, "kmem:kmalloc", "edit: the event as SYSTEM:EVENT");
	free(t);
	t = opts_trig_field(&o.trigs[0], OPTS_FIELD_FILTER);
	is_str(t, "bytes_req > 64", "edit: the filter");
	free(t);

	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_KEYS, "  call_site.sym,bytes_req.log2 ", &n,
			   &note, &err);
	ok(r == 0 && !note, "edit: new keys taken, the sort kept (its field is a value)");
	t = r ? NULL : opts_trigger(&n, NULL, 0);
	is_str(t, "hist:keys=call_site.sym,bytes_req.log2:vals=bytes_req:sort=bytes_req.descending:size=4096 if bytes_req > 64",
	       "edit: keys: the rest of the trigger as it was");
	free(t);
	if (!r)
		opts_trig_free(&n);

	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_VALS, "", &n, &note, &err);
	ok(r == 0 && note && strstr(note, "sort=bytes_req.descending left out"),
	   "edit: values emptied: a sort= on a value gone is left out, and said");
	t = r ? NULL : opts_trigger(&n, NULL, 0);
	is_str(t, "hist:keys=call_site.sym:size=4096 if bytes_req > 64",
	       "edit: values \"\": hitcount only");
	free(t);
	free(note);
	if (!r)
		opts_trig_free(&n);

	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_FILTER, "", &n, &note, &err);
	t = r ? NULL : opts_trigger(&n, (long[]){ 7 }, 1);
	is_str(t, "hist:keys=call_site.sym:vals=bytes_req:sort=bytes_req.descending:size=4096 if common_pid != 7",
	       "edit: filter \"\": none, histtop's own pid still kept out");
	free(t);
	if (!r)
		opts_trig_free(&n);

	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_EVENT, "kmem/kfree", &n, &note, &err);
	ok(r == 0 && !strcmp(n.system, "kmem") && !strcmp(n.event, "kfree") &&
	   !strcmp(n.name, o.trigs[0].name), "edit: event kmem/kfree, the name kept");
	if (!r)
		opts_trig_free(&n);

	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_KEYS, "call_site.sym", &n, &note, &err);
	is_u64(r, 1, "edit: the same keys: nothing to do");
	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_FILTER, " bytes_req > 64\t", &n, &note, &err);
	is_u64(r, 1, "edit: the same filter with blanks around: nothing to do");

	err = NULL;
	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_KEYS, "call_site:pause", &n, &note, &err);
	ok(r == -1 && err && strstr(err, "':' is not allowed"),
	   "edit: keys with ':' (another parameter) refused");
	free(err);
	err = NULL;
	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_KEYS, "", &n, &note, &err);
	ok(r == -1 && err && strstr(err, "empty field"), "edit: no keys refused");
	free(err);
	err = NULL;
	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_VALS, "a,,b", &n, &note, &err);
	ok(r == -1 && err && strstr(err, "empty field"), "edit: values a,,b refused");
	free(err);
	err = NULL;
	r = opts_trig_edit(&o.trigs[0], OPTS_FIELD_EVENT, "kmalloc", &n, &note, &err);
	ok(r == -1 && err && strstr(err, "expected SYSTEM:EVENT"), "edit: an event without system refused");
	free(err);
	opts_free(&o);
}

int main(void)
{
	struct opts o;
	char *err = NULL, *t;

	ok(parse(&o, &err, "-e", "kmem:kmalloc", "-k", "call_site.sym", "-v", "bytes_req,bytes_alloc",
		 "-s", "bytes_req.descending", "--filter", "bytes_req > 64", "--size", "4096",
		 "-d", "0.5", "-n", "3", "-T", "10", NULL) == OPTS_RUN, "a full command line");
	is_str(o.trigs[0].system, "kmem", "system");
	is_str(o.trigs[0].event, "kmalloc", "event");
	ok(o.delay == 0.5, "fractional delay");
	ok(o.iterations == 3 && o.top == 10 && o.trigs[0].size == 4096, "numbers");
	t = opts_trigger(&o.trigs[0], NULL, 0);
	is_str(t, "hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_req.descending:size=4096 if bytes_req > 64",
	       "trigger string");
	free(t);
	t = opts_trigger(&o.trigs[0], (long[]){ 4242 }, 1);
	is_str(t, "hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_req.descending:size=4096 if (bytes_req > 64) && common_pid != 4242",
	       "histtop's own pid is kept out of the user's filter");
	free(t);
	t = opts_trigger(&o.trigs[0], (long[]){ 4242, 4243 }, 2);
	is_str(t, "hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_req.descending:size=4096 if (bytes_req > 64) && common_pid != 4242 && common_pid != 4243",
	       "and each of its threads' (--listen's)");
	free(t);
	opts_free(&o);

	ok(parse(&o, &err, "-e", "raw_syscalls/sys_enter", "-k", "common_pid.execname,id.syscall",
		 "--json", NULL) == OPTS_RUN && o.batch && o.format == OUT_JSON, "--json implies batch");
	t = opts_trigger(&o.trigs[0], NULL, 0);
	is_str(t, "hist:keys=common_pid.execname,id.syscall", "minimal trigger");
	free(t);
	t = opts_trigger(&o.trigs[0], (long[]){ 7 }, 1);
	is_str(t, "hist:keys=common_pid.execname,id.syscall if common_pid != 7",
	       "no user filter: the filter keeps only histtop's own pid out");
	free(t);
	t = opts_trigger(&o.trigs[0], (long[]){ 7, 9 }, 2);
	is_str(t, "hist:keys=common_pid.execname,id.syscall if common_pid != 7 && common_pid != 9",
	       "no user filter: histtop's pid and its other thread's");
	free(t);
	ok(!o.include_self, "histtop's own pid is kept out by default");
	opts_free(&o);

	ok(parse(&o, &err, "-e", "kmem:kmalloc", "--attach", "--tracefs", "/tmp/x", NULL) == OPTS_RUN &&
	   o.attach && !strcmp(o.tracefs, "/tmp/x"), "--attach needs no keys");
	opts_free(&o);
	ok(parse(&o, &err, "--help", NULL) == OPTS_HELP, "--help");
	ok(parse(&o, &err, "-V", NULL) == OPTS_VERSION, "-V");
	ok(parse(&o, &err, "--replay", "dir", "-b", NULL) == OPTS_RUN && o.replay, "--replay needs no event");
	opts_free(&o);
	ok(opts_parse(1, (char *[]){ "histtop", NULL }, true, &o, &err) == OPTS_ERROR, "no event");
	free(err);
	err = NULL;
	ok(parse(&o, &err, "-e", "a:b", "-k", "x", "-C", NULL) == OPTS_RUN && !o.color, "-C: no colour");
	opts_free(&o);
	ok(opts_parse(5, (char *[]){ "histtop", "-e", "a:b", "-k", "x", NULL }, true, &o, &err) == OPTS_RUN &&
	   !o.color, "NO_COLOR: no colour");
	opts_free(&o);

	expect_error("-e without a colon", "SYSTEM:EVENT", "-e", "kmalloc", "-k", "x", NULL);
	expect_error("-e with two colons", "SYSTEM:EVENT", "-e", "a:b:c", "-k", "x", NULL);
	expect_error("no keys", "no keys", "-e", "a:b", NULL);
	expect_error("empty key in a list", "empty field", "-e", "a:b", "-k", "x,,y", NULL);
	expect_error("a colon in keys", "':' is not allowed", "-e", "a:b", "-k", "x:vals=y", NULL);
	expect_error("a bad delay", "-d", "-e", "a:b", "-k", "x", "-d", "0", NULL);
	expect_error("a word for a number", "-n", "-e", "a:b", "-k", "x", "-n", "many", NULL);
	expect_error("an unknown option", "unknown option", "-e", "a:b", "-k", "x", "--frobnicate", NULL);
	expect_error("--json with --csv", "do not go together",
		     "-e", "a:b", "-k", "x", "--json", "--csv", NULL);
	expect_error("a missing argument", "needs an argument", "-e", NULL);
	expect_error("a stray argument", "unexpected argument", "-e", "a:b", "-k", "x", "extra", NULL);
	expect_error("--attach with -v", "--attach views", "-e", "a:b", "--attach", "-v", "x", NULL);
	ok(parse(&o, &err, "-e", "a:b", "-k", "x", "--include-self", NULL) == OPTS_RUN &&
	   o.include_self, "--include-self");
	opts_free(&o);
	expect_error("--attach with --include-self", "--attach views", "-e", "a:b", "--attach",
		     "--include-self", NULL);
	expect_error("a bad instance name", "--instance", "-e", "a:b", "-k", "x", "--instance", "../x");

	/* --size: what the kernel rounds into its 2^7..2^17 entries */
	expect_error("--size 100000000", "100000000 is out of range: the kernel's hist tables hold "
		     "128 to 131072 entries", "-e", "a:b", "-k", "x", "--size", "100000000");
	expect_error("--size 131073", "131073 is out of range", "-e", "a:b", "-k", "x", "--size",
		     "131073");
	expect_error("--size 64 (64 entries, below 2^7)", "give 65 to 131072", "-e", "a:b", "-k", "x",
		     "--size", "64");
	ok(parse(&o, &err, "-e", "a:b", "-k", "x", "--size", "65", NULL) == OPTS_RUN &&
	   o.trigs[0].size == 65,
	   "--size 65: the kernel makes 128 of it");
	opts_free(&o);
	ok(parse(&o, &err, "-e", "a:b", "-k", "x", "--size", "131072", NULL) == OPTS_RUN,
	   "--size 131072: the largest");
	opts_free(&o);

	/* several triggers: a second -e used to replace the first without a word */
	ok(parse(&o, &err, "-e", "kmem:kmalloc", "-k", "call_site.sym", "-e", "raw_syscalls:sys_enter",
		 "-k", "id.syscall", "--name", "sys", NULL) == OPTS_RUN && o.ntrigs == 2,
	   "two -e groups: two triggers");
	if (o.ntrigs == 2) {
		is_str(o.trigs[0].keys, "call_site.sym", "the first keeps its keys");
		is_str(o.trigs[1].keys, "id.syscall", "the second has its own");
		is_str(o.trigs[0].name, "kmalloc", "default name: the event's");
		is_str(o.trigs[1].name, "sys", "--name applies to the group it follows");
		ok(o.trigs[0].max_series == OPTS_MAX_SERIES_DEFAULT, "--max-series default");
	}
	opts_free(&o);
	ok(parse(&o, &err, "--max-series", "5", "-k", "x", "-e", "a:b", "-e", "c:d", "-k", "y", NULL) ==
	   OPTS_RUN && o.ntrigs == 2 && o.trigs[0].max_series == 5 && o.trigs[1].max_series == 5 &&
	   !strcmp(o.trigs[0].keys, "x") && !strcmp(o.trigs[1].keys, "y"),
	   "options before the first -e apply to every trigger, a group's own override them");
	opts_free(&o);
	expect_error("-k twice in one group", "given twice for one trigger", "-e", "a:b", "-k", "x",
		     "-k", "y", NULL);
	expect_error("two triggers with one name", "two triggers are named 'b'", "-k", "x", "-e",
		     "a:b", "-e", "a:b", NULL);
	expect_error("a bad --name", "not a metric name", "-e", "a:b", "-k", "x", "--name", "a-b", NULL);
	expect_error("--textfile with --json", "run headless", "-k", "x", "-e", "a:b",
		     "--textfile=f", "--json", NULL);

	/* --config: one trigger a line, shell-like words, errors name FILE:LINE */
	ok(parse(&o, &err, "--config", "t.conf", "-d", "2", NULL) == OPTS_RUN, "--config parses");
	ok(opts_config(&o, "# kmalloc by call site\n\n-e kmem:kmalloc -k call_site.sym --name km\n"
		       "-e syscalls:sys_enter_read -k count.log2 --filter 'count > 1 && comm != \"a b\"'\n",
		       &err) == 0 && o.ntrigs == 2, "two triggers from the file");
	if (o.ntrigs == 2) {
		is_str(o.trigs[1].filter, "count > 1 && comm != \"a b\"", "a quoted filter with blanks");
		is_str(o.trigs[0].name, "km", "--name in the file");
	}
	opts_free(&o);
	ok(parse(&o, &err, "--config", "t.conf", NULL) == OPTS_RUN &&
	   opts_config(&o, "-e a:b -k x\n-e c:d -k y -d 2\n", &err) == -1 && err &&
	   strstr(err, "t.conf:2: ") && strstr(err, "-d is not a per-trigger option"),
	   "a global option in the file: FILE:LINE says so");
	if (err)
		printf("#   err: %s\n", err);
	free(err);
	err = NULL;
	opts_free(&o);
	ok(parse(&o, &err, "--config", "t.conf", NULL) == OPTS_RUN &&
	   opts_config(&o, "-e a:b -k 'x\n", &err) == -1 && err && strstr(err, "t.conf:1: a quote"),
	   "an unclosed quote: FILE:LINE");
	free(err);
	err = NULL;
	opts_free(&o);
	test_edit();
	return done_testing();
}
