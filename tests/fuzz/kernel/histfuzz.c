// SPDX-License-Identifier: GPL-2.0
/*
 * histfuzz: a fuzzer for the kernel's hist triggers, run in the debug guest.
 *
 *   histfuzz [-s SEED] [-w WORKERS] [-n OPS] [-t SECS] [-T TRACEFS] [-l FILE] [-q]
 *            [-K] [--worker W]
 *   histfuzz --dry-run [-s SEED] [-w WORKERS] [-n OPS]
 *
 * WORKERS processes (default 4) each make OPS operations (default 2000) on
 * tracefs: hist trigger strings from a grammar of the 6.1 syntax and
 * mutations of them, appended (never O_TRUNC) to trigger files; reads of
 * hist files whole, in small pieces and part-way on a kept fd continued
 * later; pause, cont, clear and removal of triggers the worker added;
 * kprobe, kretprobe, eprobe and synthetic events created and deleted;
 * instances made and removed.  A background process makes the events fire.
 *
 * The sequence of operations of worker W is a pure function of SEED and W:
 * an operation is drawn from the worker's generator alone, never from what
 * the kernel answered.  Each one is logged on stdout as one line,
 * "wW I VERB ARGS" (bytes outside printable ASCII as \xHH), before it runs,
 * so the last lines of a crashed run are the operations in flight; its
 * result follows as "rW I RC MS START" (RC: bytes, or -errno; MS: how long
 * it took; START: when it started, in seconds since the run's start).
 * --dry-run prints the "w" lines without touching anything: the host regenerates the log of any
 * seed, and a run's log can be checked against it.  -t stops every worker
 * after SECS seconds (default 0: no limit) whatever OPS says; a read in
 * progress then stops too, at a read() boundary (its "r" line has the bytes
 * it got).  -l FILE
 * appends a copy of the log to FILE; -q leaves the "r" lines out.
 * -K also makes what is known to crash the kernel (repro/: a 'snapshot'
 * trigger, which beside an onmax().snapshot() panics 6.1); without it the
 * generator writes '!snapshot:1' there.  A seed's operations depend on -K.
 * --worker W runs worker W alone, the same operations it makes among the
 * others: a failing seed taken apart, one worker at a time, without racing.
 * The seed, and the start and end of the run, also go to /dev/kmsg, so the
 * kernel console says which run a report belongs to (not with -T: a tree
 * that is not the kernel's, as the host's tests/unit/histfuzz.sh makes).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 16
#define HIST_KEEP 24		/* trigger strings a worker remembers */
#define SLOTS 4			/* part-way read fds a worker keeps */
#define STR_MAX 6000
#define PIECES_CALLS 500	/* read() calls of a read in small pieces */

/* --- the generator: splitmix64, one state per worker ------------------- */

struct rng {
	uint64_t s;
};

static uint64_t rnext(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rn(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)(rnext(r) % n) : 0;
}

static int chance(struct rng *r, unsigned int pct)
{
	return rn(r, 100) < pct;
}

#define PICK(r, a) ((a)[rn((r), sizeof(a) / sizeof((a)[0]))])

/* --- string building -------------------------------------------------- */

struct sb {
	char b[STR_MAX];
	size_t len;
};

static void sb_reset(struct sb *s)
{
	s->len = 0;
	s->b[0] = 0;
}

static void __attribute__((format(printf, 2, 3))) sb_add(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->len >= sizeof(s->b) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->b + s->len, sizeof(s->b) - s->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s->len += (size_t)n;
	if (s->len > sizeof(s->b) - 1)
		s->len = sizeof(s->b) - 1;
}

/* --- the events the fuzzer aims at ------------------------------------ */

/*
 * Field kinds: n number, i signed number, p pid, y syscall number,
 * a address, s string.
 */
struct fld {
	const char *name;
	char kind;
};

struct event {
	const char *sys, *name;
	struct fld f[8];
};

static const struct event events[] = {
	{ "syscalls", "sys_enter_read",
	  { { "__syscall_nr", 'y' }, { "fd", 'n' }, { "buf", 'a' }, { "count", 'n' } } },
	{ "syscalls", "sys_exit_read", { { "__syscall_nr", 'y' }, { "ret", 'i' } } },
	{ "syscalls", "sys_enter_write",
	  { { "__syscall_nr", 'y' }, { "fd", 'n' }, { "buf", 'a' }, { "count", 'n' } } },
	{ "kmem", "kmalloc",
	  { { "call_site", 'a' }, { "ptr", 'a' }, { "bytes_req", 'n' },
	    { "bytes_alloc", 'n' }, { "gfp_flags", 'n' } } },
	{ "kmem", "kfree", { { "call_site", 'a' }, { "ptr", 'a' } } },
	{ "sched", "sched_switch",
	  { { "prev_comm", 's' }, { "prev_pid", 'p' }, { "prev_prio", 'i' },
	    { "prev_state", 'n' }, { "next_comm", 's' }, { "next_pid", 'p' },
	    { "next_prio", 'i' } } },
	{ "sched", "sched_process_fork",
	  { { "parent_comm", 's' }, { "parent_pid", 'p' }, { "child_comm", 's' },
	    { "child_pid", 'p' } } },
	{ "raw_syscalls", "sys_enter", { { "id", 'y' } } },
	{ "sched", "sched_wakeup",
	  { { "comm", 's' }, { "pid", 'p' }, { "prio", 'i' }, { "target_cpu", 'n' } } },
	/* dynamic events: present only while created */
	{ "kprobes", "fz_kp0", { { "__probe_ip", 'a' }, { "count", 'n' } } },
	{ "kprobes", "fz_kr0",
	  { { "__probe_func", 'a' }, { "__probe_ret_ip", 'a' }, { "ret", 'i' } } },
	{ "eprobes", "fz_ep0", { { "cnt", 'n' }, { "fd", 'n' } } },
	{ "synthetic", "fz_syn0", { { "lat", 'n' }, { "pid", 'p' } } },
	{ "synthetic", "fz_syn1", { { "v", 'i' } } },
};
#define N_EVENTS (sizeof(events) / sizeof(events[0]))

/* What creates and deletes each dynamic event (file under the tracefs). */
static const struct {
	const char *file, *add, *del;
} dyn[] = {
	{ "kprobe_events", "p:fz_kp0 vfs_read count=%dx:u64", "-:fz_kp0" },
	{ "kprobe_events", "r:fz_kr0 vfs_read ret=$retval:s64", "-:kprobes/fz_kr0" },
	{ "dynamic_events", "e:fz_ep0 syscalls/sys_enter_write cnt=$count:u64 fd=$fd:u32",
	  "-:eprobes/fz_ep0" },
	{ "synthetic_events", "fz_syn0 u64 lat; pid_t pid", "!fz_syn0" },
	{ "synthetic_events", "fz_syn1 s64 v", "!fz_syn1" },
};
#define N_DYN (sizeof(dyn) / sizeof(dyn[0]))

static const char *const instances[] = { "", "instances/fz0/", "instances/fz1/" };

static unsigned int nfields(const struct event *e)
{
	unsigned int n = 0;

	while (n < 8 && e->f[n].name)
		n++;
	return n;
}

/* --- the grammar ------------------------------------------------------ */

static const char *const huge[] = {
	"18446744073709551615", "18446744073709551616", "9223372036854775807",
	"-9223372036854775808", "4294967296", "4294967295", "2147483648", "-1",
	"0", "99999999999999999999999999", "0x7fffffffffffffff", "1e9",
};

static const struct fld *pick_field(struct rng *r, const struct event *e)
{
	static const struct fld common[] = {
		{ "common_pid", 'p' }, { "common_flags", 'n' },
		{ "common_preempt_count", 'n' }, { "common_cpu", 'n' }, { "cpu", 'n' },
	};
	unsigned int n = nfields(e);

	if (!n || chance(r, 20))
		return &PICK(r, common);
	return &e->f[rn(r, n)];
}

static const char *fitting_key_mod(struct rng *r, char kind)
{
	static const char *const any[] = {
		".hex", ".sym", ".sym-offset", ".execname", ".syscall", ".log2",
		".buckets=10", ".usecs", ".percent", ".graph", ".stacktrace",
		".buckets=0", ".buckets=18446744073709551615", ".max", ".min",
		".descending", ".", ".hex.log2", ".sym.hex",
	};

	if (chance(r, 5))
		return PICK(r, any);
	switch (kind) {
	case 'p': return PICK(r, ((const char *const[]){ "", ".execname", ".hex", ".log2" }));
	case 'y': return PICK(r, ((const char *const[]){ "", ".syscall", ".hex" }));
	case 'a': return PICK(r, ((const char *const[]){ "", ".sym", ".sym-offset", ".hex" }));
	case 's': return "";
	default:
		switch (rn(r, 6)) {
		case 0: return ".log2";
		case 1: return PICK(r, ((const char *const[]){ ".buckets=1", ".buckets=7",
							     ".buckets=100", ".buckets=4096" }));
		case 2: return ".hex";
		default: return "";
		}
	}
}

static void gen_key(struct rng *r, const struct event *e, struct sb *s)
{
	const struct fld *f;

	switch (rn(r, 24)) {
	case 0: sb_add(s, "stacktrace"); return;
	case 1: sb_add(s, chance(r, 25) ? "common_stacktrace" : "stacktrace"); return;
	case 2: sb_add(s, "common_pid.execname"); return;
	case 3: sb_add(s, "common_timestamp%s", chance(r, 50) ? ".usecs" : ""); return;
	}
	f = pick_field(r, e);
	sb_add(s, "%s%s", f->name, fitting_key_mod(r, f->kind));
}

/*
 * One value; PREV is the field of the value before it (or ""): a value
 * often keeps the same field as another extreme (vals=x,x.max,x.min),
 * which shares the fetch of the value before it.
 */
static void gen_val(struct rng *r, const struct event *e, struct sb *s, int have_var,
		    const char *prev)
{
	static const char *const mods[] = {
		"", "", "", ".max", ".min", ".hex", ".percent", ".graph", ".max", ".min",
	};
	static const char *const odd_mods[] = {
		".usecs", ".log2", ".sym", ".max.min", ".execname", ".min.max", ".buckets=2",
	};
	const struct fld *f, *g;

	if (*prev && chance(r, 35)) {
		sb_add(s, "%s%s", prev, PICK(r, ((const char *const[]){ "", ".max", ".min", ".max", ".min", ".hex" })));
		return;
	}
	switch (rn(r, 14)) {
	case 0: sb_add(s, "hitcount"); return;
	case 1:
		if (chance(r, 25)) {	/* 6.3's: not on 6.1 */
			sb_add(s, "hitcount.%s", chance(r, 50) ? "percent" : "graph");
			return;
		}
		break;
	case 2:
		if (have_var) {
			sb_add(s, "$fz_v%u", rn(r, 2));
			return;
		}
		break;
	case 3:
		f = pick_field(r, e);
		g = pick_field(r, e);
		sb_add(s, "%s%s%s", f->name, PICK(r, ((const char *const[]){ "+", "-", "*", "/" })),
		       chance(r, 50) ? g->name : PICK(r, ((const char *const[]){ "2", "0", "3" })));
		return;
	}
	f = pick_field(r, e);
	if (f->kind == 's' && chance(r, 80))	/* a string is no value */
		f = pick_field(r, e);
	sb_add(s, "%s%s", f->name, chance(r, 5) ? PICK(r, odd_mods) : PICK(r, mods));
}

static void gen_filter(struct rng *r, const struct event *e, struct sb *s)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };
	unsigned int i, n = 1 + rn(r, 3);
	const struct fld *f;

	sb_add(s, " if ");
	for (i = 0; i < n; i++) {
		if (i)
			sb_add(s, "%s", chance(r, 60) ? " && " : " || ");
		f = pick_field(r, e);
		if (f->kind == 's')
			sb_add(s, "%s %s \"%s\"", f->name, chance(r, 70) ? "==" : "~",
			       PICK(r, ((const char *const[]){ "fz*", "*w*", "sh", "", "*" })));
		else if (chance(r, 10))
			sb_add(s, "%s %s %s", f->name, PICK(r, ops), PICK(r, huge));
		else
			sb_add(s, "%s %s %u", f->name, PICK(r, ops), rn(r, 4) ? rn(r, 4096) : 1);
	}
}

/* Known-good inter-event triggers (and their halves), from ftracetest's forms. */
static const struct {
	unsigned int ev;
	const char *t;
} recipes[] = {
	{ 0, "hist:keys=common_pid:fz_ts0=common_timestamp.usecs" },
	{ 1, "hist:keys=common_pid:fz_lat=common_timestamp.usecs-$fz_ts0:onmatch(syscalls.sys_enter_read).fz_syn0($fz_lat,common_pid)" },
	{ 1, "hist:keys=common_pid:fz_lat=common_timestamp.usecs-$fz_ts0:onmatch(syscalls.sys_enter_read).trace(fz_syn0,$fz_lat,common_pid)" },
	{ 1, "hist:keys=common_pid:fz_lat=common_timestamp.usecs-$fz_ts0:onmax($fz_lat).save(ret)" },
	{ 1, "hist:keys=common_pid:fz_lat=common_timestamp.usecs-$fz_ts0:onmax($fz_lat).snapshot()" },
	{ 12, "hist:keys=pid,lat.log2:vals=hitcount,lat.max,lat.min:sort=lat.max.descending" },
	{ 12, "hist:keys=lat.buckets=10:vals=hitcount.percent,lat.graph" },
	{ 3, "hist:keys=call_site.sym:vals=bytes_req,bytes_req.max,bytes_req.min:sort=bytes_req.max.descending" },
	{ 3, "hist:keys=common_pid:fz_v0=bytes_req:onchange($fz_v0).save(call_site,bytes_alloc)" },
	{ 3, "hist:keys=common_pid:fz_v0=bytes_req:onchange($fz_v0).fz_syn1($fz_v0)" },
	{ 3, "hist:keys=stacktrace:vals=bytes_req.max:size=256" },
	{ 13, "hist:keys=v.log2:vals=hitcount,v.max,v.min" },
	{ 9, "hist:keys=count.log2:vals=count,count.max,count.min" },
	{ 9, "hist:name=fz_n0:keys=common_pid:vals=hitcount" },
	{ 10, "hist:keys=ret:vals=hitcount:sort=ret.descending" },
	{ 10, "hist:keys=__probe_func.sym:vals=ret.max,ret.min" },
	{ 11, "hist:keys=cnt.buckets=64:vals=hitcount,cnt.max:sort=cnt.max" },
	{ 2, "hist:name=fz_n0:keys=common_pid:vals=hitcount" },
	{ 0, "hist:name=fz_n0:keys=common_pid:vals=hitcount" },
	{ 5, "hist:keys=next_pid:fz_v0=prev_prio:onmax($fz_v0).save(next_comm,prev_comm)" },
	{ 5, "hist:keys=next_comm:vals=hitcount:sort=hitcount.descending:size=128" },
	{ 6, "hist:keys=parent_pid.execname:vals=child_pid.max,child_pid.percent" },
	{ 7, "hist:keys=id.syscall,common_pid.execname:vals=hitcount:size=2048" },
	{ 8, "hist:keys=pid:vals=prio.min,prio.max" },
};

static void gen_hist(struct rng *r, unsigned int ev, struct sb *s)
{
	const struct event *e = &events[ev];
	char vnames[8][64], prev[64] = "";
	unsigned int i, n, nv = 0;
	int have_var = 0;

	sb_add(s, "hist");
	if (chance(r, 15))
		sb_add(s, ":name=fz_n%u", rn(r, 3));
	sb_add(s, chance(r, 90) ? ":keys=" : ":key=");
	n = 1 + rn(r, 3) + (chance(r, 5) ? 2 : 0);
	for (i = 0; i < n; i++) {
		if (i)
			sb_add(s, ",");
		gen_key(r, e, s);
	}
	if (chance(r, 25)) {
		n = 1 + rn(r, 2);
		for (i = 0; i < n; i++) {
			const struct fld *f = pick_field(r, e);

			if (chance(r, 30))
				sb_add(s, ":fz_v%u=common_timestamp.usecs", i);
			else if (chance(r, 30))
				sb_add(s, ":fz_v%u=%s*2", i, f->name);
			else
				sb_add(s, ":fz_v%u=%s", i, f->name);
		}
		have_var = 1;
	}
	if (chance(r, 75)) {
		sb_add(s, chance(r, 90) ? ":vals=" : ":values=");
		n = 1 + rn(r, 4) + (chance(r, 5) ? 4 : 0);
		for (i = 0; i < n; i++) {
			size_t at;

			if (i)
				sb_add(s, ",");
			at = s->len;
			gen_val(r, e, s, have_var, prev);
			snprintf(vnames[nv], sizeof(vnames[nv]), "%s", s->b + at);
			snprintf(prev, sizeof(prev), "%.*s", (int)strcspn(vnames[nv], ".+-*/"),
				 vnames[nv]);
			if (prev[0] == '$')
				prev[0] = 0;
			nv = nv < 7 ? nv + 1 : nv;
		}
	}
	if (chance(r, 45)) {
		sb_add(s, ":sort=");
		n = 1 + rn(r, 2);
		for (i = 0; i < n; i++) {
			const struct fld *f = pick_field(r, e);

			if (i)
				sb_add(s, ",");
			if (nv && chance(r, 60)) {	/* one of the values, as spelled */
				sb_add(s, "%s%s", vnames[rn(r, nv)],
				       PICK(r, ((const char *const[]){ "", ".ascending", ".descending" })));
				continue;
			}
			sb_add(s, "%s%s%s", chance(r, 40) ? "hitcount" : f->name,
			       chance(r, 8) ? PICK(r, ((const char *const[]){ ".max", ".min", ".hex" })) : "",
			       chance(r, 3) ? ".sideways" :
			       PICK(r, ((const char *const[]){ "", ".ascending", ".descending" })));
		}
	}
	if (chance(r, 30)) {
		/* 64..16384 mostly: a guest of 3 GiB holds dozens of maps */
		if (chance(r, 80))
			sb_add(s, ":size=%u", 1u << (6 + rn(r, 9)));
		else if (chance(r, 40))
			sb_add(s, ":size=%u", 1u << (15 + rn(r, 3)));
		else
			sb_add(s, ":size=%s", PICK(r, huge));
	}
	if (chance(r, 2))
		sb_add(s, ":nohitcount");	/* 6.3's */
	if (chance(r, 6))
		sb_add(s, ":pause");
	if (have_var && chance(r, 40)) {
		const struct fld *f = pick_field(r, e), *g = pick_field(r, e);

		switch (rn(r, 5)) {
		case 0: sb_add(s, ":onmax($fz_v0).save(%s,%s)", f->name, g->name); break;
		case 1: sb_add(s, ":onmax($fz_v0).snapshot()"); break;
		case 2: sb_add(s, ":onchange($fz_v0).save(%s)", f->name); break;
		case 3: sb_add(s, ":onchange($fz_v0).trace(fz_syn1,$fz_v0)"); break;
		default: sb_add(s, ":onchange($fz_v0).fz_syn1($fz_v0)"); break;
		}
	}
	if (chance(r, 25))
		gen_filter(r, e, s);
}

static int known_crashers;	/* -K: also what is known to crash the kernel */
/*
 * -g: the generator's version.  1 (the default) makes what every recorded
 * seed was run with.  2 keeps a long run's tables bounded: a worker removes
 * a trigger before its history forgets it, and a whole read with a
 * 100-byte buffer stops after PIECES_CALLS reads, as a read in small pieces
 * does.
 */
static int generator = 1;

/* enable_hist, disable_hist and the other commands that name a hist. */
static void gen_other(struct rng *r, unsigned int ev, struct sb *s)
{
	const struct event *t = &events[rn(r, N_EVENTS)];

	switch (rn(r, 6)) {
	case 0: case 1:
		sb_add(s, "%s%s:%s:%s", chance(r, 30) ? "!" : "",
		       chance(r, 50) ? "enable_hist" : "disable_hist", t->sys, t->name);
		if (chance(r, 30))
			sb_add(s, ":%u", rn(r, 5));
		break;
	case 2:
		sb_add(s, "%senable_event:%s:%s", chance(r, 30) ? "!" : "", t->sys, t->name);
		break;
	case 3:
		sb_add(s, "%sstacktrace:%u", chance(r, 30) ? "!" : "", 1 + rn(r, 3));
		break;
	case 4:
		/*
		 * A snapshot trigger beside an onmax().snapshot() panics 6.1
		 * (repro/snapshot-cond.sh): only with -K, so that runs can
		 * find something else.
		 */
		if (known_crashers)
			sb_add(s, "%ssnapshot:1", chance(r, 30) ? "!" : "");
		else
			sb_add(s, "!snapshot:1");
		break;
	default:
		sb_add(s, "%s", chance(r, 50) ? "enable_hist:" : "disable_hist");
		break;
	}
	if (chance(r, 20))
		gen_filter(r, &events[ev], s);
}

/* Mutations of a valid string: the parser's error paths. */
static void mutate(struct rng *r, struct sb *s)
{
	static const char odd[] = { 0, '\xff', '\n', ' ', '\t', ':', ',', '.', '$', '(', ')',
				    '"', '\\', '%', '=', '!', '\x80', 'x' };
	unsigned int k = rn(r, 9), pos, n, i;
	char tmp[STR_MAX];

	if (!s->len)
		return;
	pos = rn(r, (unsigned int)s->len + 1);
	switch (k) {
	case 0:	/* truncate */
		s->len = pos;
		s->b[pos] = 0;
		break;
	case 1: case 2: {	/* repeat a ':' segment */
		char *a = memchr(s->b + pos, ':', s->len - pos), *b;
		size_t l;

		if (!a)
			a = memchr(s->b, ':', s->len);
		if (!a)
			break;
		b = memchr(a + 1, ':', s->len - (size_t)(a + 1 - s->b));
		l = b ? (size_t)(b - a) : s->len - (size_t)(a - s->b);
		n = 1 + rn(r, 4);
		memcpy(tmp, a, l);
		for (i = 0; i < n && s->len + l < sizeof(s->b) - 1; i++) {
			memmove(a + l, a, s->len - (size_t)(a - s->b));
			memcpy(a, tmp, l);
			s->len += l;
		}
		s->b[s->len] = 0;
		break;
	}
	case 3: {	/* a number becomes huge */
		char *d = s->b + pos;
		size_t tail, hl;
		const char *h = PICK(r, huge);

		while (*d && (*d < '0' || *d > '9'))
			d++;
		if (!*d)
			break;
		tail = strspn(d, "0123456789");
		hl = strlen(h);
		if (s->len - tail + hl >= sizeof(s->b) - 1)
			break;
		memmove(d + hl, d + tail, s->len - (size_t)(d - s->b) - tail + 1);
		memcpy(d, h, hl);
		s->len = s->len - tail + hl;
		break;
	}
	case 4: case 5:	/* odd bytes in */
		n = 1 + rn(r, 3);
		for (i = 0; i < n && s->len < sizeof(s->b) - 2; i++) {
			pos = rn(r, (unsigned int)s->len + 1);
			memmove(s->b + pos + 1, s->b + pos, s->len - pos + 1);
			s->b[pos] = PICK(r, odd);
			s->len++;
		}
		break;
	case 6:	/* a byte replaced */
		if (pos < s->len)
			s->b[pos] = PICK(r, odd);
		break;
	case 7:	/* a long tail */
		n = 100 + rn(r, 4200);
		sb_add(s, ",");
		for (i = 0; i < n; i++)
			sb_add(s, "%c", "abc_x,.:"[rn(r, 8)]);
		break;
	default:	/* doubled */
		memcpy(tmp, s->b, s->len);
		n = (unsigned int)s->len;
		sb_add(s, "%s", chance(r, 50) ? ":" : "");
		if (s->len + n < sizeof(s->b) - 1) {
			memcpy(s->b + s->len, tmp, n);
			s->len += n;
			s->b[s->len] = 0;
		}
		break;
	}
}

/* --- operations ------------------------------------------------------- */

enum verb {
	V_TRIG,		/* append str to path (a trigger file) */
	V_WRITE,	/* append str to path (kprobe_events, ...) */
	V_READ,		/* read path whole, n-byte buffer */
	V_PIECES,	/* read path n bytes a call, at most PIECES_CALLS calls */
	V_OPEN,		/* slot: open path, read n bytes, keep the fd */
	V_CONT,		/* slot: read n more bytes (0: to the end) */
	V_SEEK,		/* slot: lseek to n, read 100 bytes */
	V_CLOSE,	/* slot: close */
	V_MKDIR,
	V_RMDIR,
	V_ERRCLR,	/* open error_log O_TRUNC: clears it */
	V_SLEEP,	/* n microseconds */
	V_SCEN,		/* slot: a scenario of several steps, see exec_scen() */
};

static const char *const verb_names[] = {
	"trig", "write", "read", "pieces", "open", "cont", "seek", "close",
	"mkdir", "rmdir", "errclr", "sleep", "scen",
};

struct op {
	enum verb v;
	unsigned int slot;
	unsigned long n;
	char path[256];
	struct sb s;
};

struct worker {
	unsigned int id;
	struct rng r;
	/* what the worker added, for removal, pause, cont, clear (pure state) */
	struct {
		unsigned int inst, ev;
		char t[STR_MAX];
	} hist[HIST_KEEP];
	unsigned int nhist;
	int fd[SLOTS];
	int forgotten_removed;	/* -g 2: the slot the next add takes is clear */
};

static void event_path(char *p, size_t len, unsigned int inst, unsigned int ev, const char *file)
{
	snprintf(p, len, "%sevents/%s/%s/%s", instances[inst], events[ev].sys, events[ev].name,
		 file);
}

static unsigned int pick_inst(struct rng *r)
{
	return chance(r, 70) ? 0 : 1 + rn(r, 2);
}

/* Insert SUFFIX before a filter (" if ...") or at the end. */
static void with_suffix(struct sb *s, const char *t, const char *suffix)
{
	const char *f = strstr(t, " if ");

	sb_reset(s);
	if (f)
		sb_add(s, "%.*s%s%s", (int)(f - t), t, suffix, f);
	else
		sb_add(s, "%s%s", t, suffix);
}

static void gen_op(struct worker *w, struct op *o)
{
	struct rng *r = &w->r;
	unsigned int k = rn(r, 100), inst, ev, h;

	memset(o, 0, offsetof(struct op, s));
	sb_reset(&o->s);
	if (k < 26 && generator >= 2 && w->nhist >= HIST_KEEP && !w->forgotten_removed) {
		/* the add would forget a trigger: remove it first */
		h = w->nhist % HIST_KEEP;
		o->v = V_TRIG;
		event_path(o->path, sizeof(o->path), w->hist[h].inst, w->hist[h].ev, "trigger");
		sb_add(&o->s, "!%s", w->hist[h].t);
		w->forgotten_removed = 1;
	} else if (k < 26) {		/* add a trigger */
		w->forgotten_removed = 0;
		inst = pick_inst(r);
		if (chance(r, 25)) {
			h = rn(r, sizeof(recipes) / sizeof(recipes[0]));
			ev = recipes[h].ev;
			sb_add(&o->s, "%s", recipes[h].t);
		} else {
			ev = rn(r, N_EVENTS);
			if (chance(r, 10))
				gen_other(r, ev, &o->s);
			else
				gen_hist(r, ev, &o->s);
		}
		if (chance(r, 18))
			mutate(r, &o->s);
		o->v = V_TRIG;
		event_path(o->path, sizeof(o->path), inst, ev, "trigger");
		h = w->nhist++ % HIST_KEEP;
		w->hist[h].inst = inst;
		w->hist[h].ev = ev;
		memcpy(w->hist[h].t, o->s.b, o->s.len + 1);
	} else if (k < 36 && w->nhist) {	/* remove one */
		h = rn(r, w->nhist < HIST_KEEP ? w->nhist : HIST_KEEP);
		o->v = V_TRIG;
		event_path(o->path, sizeof(o->path), w->hist[h].inst, w->hist[h].ev, "trigger");
		sb_add(&o->s, "!%s", w->hist[h].t);
	} else if (k < 44 && w->nhist) {	/* pause, cont, clear */
		h = rn(r, w->nhist < HIST_KEEP ? w->nhist : HIST_KEEP);
		o->v = V_TRIG;
		event_path(o->path, sizeof(o->path), w->hist[h].inst, w->hist[h].ev, "trigger");
		with_suffix(&o->s, w->hist[h].t,
			    PICK(r, ((const char *const[]){ ":pause", ":cont", ":clear", ":continue" })));
	} else if (k < 56) {		/* read whole */
		o->v = V_READ;
		o->n = PICK(r, ((const unsigned long[]){ 4096, 65536, 1 << 20, 100 }));
		event_path(o->path, sizeof(o->path), pick_inst(r), rn(r, N_EVENTS),
			   chance(r, 85) ? "hist" : "trigger");
	} else if (k < 61) {		/* small pieces */
		o->v = V_PIECES;
		o->n = 1 + rn(r, 64);
		event_path(o->path, sizeof(o->path), pick_inst(r), rn(r, N_EVENTS), "hist");
	} else if (k < 69) {		/* part-way */
		o->v = V_OPEN;
		o->slot = rn(r, SLOTS);
		o->n = rn(r, 4) ? 1 + rn(r, 300) : 1 + rn(r, 70000);
		event_path(o->path, sizeof(o->path), pick_inst(r), rn(r, N_EVENTS), "hist");
	} else if (k < 77) {		/* continued */
		o->v = V_CONT;
		o->slot = rn(r, SLOTS);
		o->n = rn(r, 3) ? 1 + rn(r, 500) : 0;
	} else if (k < 79) {
		o->v = V_SEEK;
		o->slot = rn(r, SLOTS);
		o->n = rn(r, 2) ? 0 : rn(r, 20000);
	} else if (k < 82) {
		o->v = V_CLOSE;
		o->slot = rn(r, SLOTS);
	} else if (k < 90) {		/* dynamic events */
		h = rn(r, N_DYN);
		o->v = V_WRITE;
		snprintf(o->path, sizeof(o->path), "%s", dyn[h].file);
		sb_add(&o->s, "%s", chance(r, 50) ? dyn[h].add : dyn[h].del);
		if (chance(r, 5))
			mutate(r, &o->s);
	} else if (k < 93) {		/* a lifetime scenario */
		o->v = V_SCEN;
		o->slot = rn(r, 5);
		o->n = 1 + rn(r, 400);
		if (o->slot == 0) {	/* a dynamic event's hist */
			h = rn(r, N_DYN);
			ev = 9 + h;
			for (inst = 0; inst < sizeof(recipes) / sizeof(recipes[0]); inst++)
				if (recipes[inst].ev == ev && chance(r, 60))
					break;
			if (inst < sizeof(recipes) / sizeof(recipes[0]))
				sb_add(&o->s, "%s", recipes[inst].t);
			else
				gen_hist(r, ev, &o->s);
			event_path(o->path, sizeof(o->path), pick_inst(r), ev, "");
		} else if (o->slot == 4) {	/* an onmatch() chain into fz_syn0 */
			ev = 12;
			if (chance(r, 50))
				sb_add(&o->s, "hist:keys=pid,lat.log2:vals=hitcount,lat.max,lat.min");
			else
				gen_hist(r, ev, &o->s);
			event_path(o->path, sizeof(o->path), pick_inst(r), ev, "");
		} else if (o->slot == 2) {	/* an instance's hist */
			ev = rn(r, 9);
			gen_hist(r, ev, &o->s);
			event_path(o->path, sizeof(o->path), 1 + rn(r, 2), ev, "");
		} else {
			ev = rn(r, 9);
			if (o->slot == 1)
				sb_add(&o->s, "hist:name=fz_n%u:keys=%s", rn(r, 3),
				       chance(r, 50) ? "common_pid" : "common_pid.execname,common_cpu");
			else
				gen_hist(r, ev, &o->s);
			event_path(o->path, sizeof(o->path), pick_inst(r), ev, "");
		}
	} else if (k < 96) {		/* instances */
		o->v = chance(r, 55) ? V_MKDIR : V_RMDIR;
		snprintf(o->path, sizeof(o->path), "instances/fz%u", rn(r, 2));
	} else if (k < 97) {
		o->v = V_ERRCLR;
		snprintf(o->path, sizeof(o->path), "%serror_log", instances[pick_inst(r)]);
	} else if (k < 98) {
		o->v = V_READ;
		o->n = 4096;
		snprintf(o->path, sizeof(o->path), "%s",
			 PICK(r, ((const char *const[]){ "error_log", "dynamic_events",
							 "synthetic_events", "instances/fz0/error_log" })));
	} else {
		o->v = V_SLEEP;
		o->n = rn(r, 20000);
	}
}

/* One line: "wW I verb [slot] [n] path 'str'", bytes escaped. */
static void __attribute__((format(printf, 1, 2))) kmsg(const char *fmt, ...);

static int copy_fd = -1;	/* -l FILE */

static void put_line(const char *line, size_t len)
{
	if (write(1, line, len) < 0 || (copy_fd >= 0 && write(copy_fd, line, len) < 0))
		_exit(3);
}

static void log_op(const struct worker *w, unsigned long i, const struct op *o)
{
	static char line[STR_MAX * 4 + 512];
	size_t len, j;
	int n;

	n = snprintf(line, sizeof(line), "w%u %lu %s %u %lu %s '", w->id, i, verb_names[o->v],
		     o->slot, o->n, o->path[0] ? o->path : "-");
	len = n > 0 ? (size_t)n : 0;
	for (j = 0; j < o->s.len && len < sizeof(line) - 8; j++) {
		unsigned char c = (unsigned char)o->s.b[j];

		if (c < 0x20 || c >= 0x7f || c == '\\' || c == '\'')
			len += (size_t)sprintf(line + len, "\\x%02x", c);
		else
			line[len++] = (char)c;
	}
	line[len++] = '\'';
	line[len++] = '\n';
	put_line(line, len);
}

static const char *tracefs = "/sys/kernel/tracing";

static int openat_tfs(const char *path, int flags)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s", tracefs, path);
	return open(full, flags, 0644);
}

static double now(void);
static double stop_at;	/* -t: the worker's deadline, which also ends a read in progress */

static long read_fd(int fd, unsigned long bufsz, unsigned long limit, unsigned long max_calls)
{
	static char *buf;
	static unsigned long have;
	unsigned long total = 0, calls = 0;
	ssize_t n;

	if (bufsz > have) {
		free(buf);
		buf = malloc(bufsz);
		have = buf ? bufsz : 0;
		if (!buf)
			return -ENOMEM;
	}
	while ((!limit || total < limit) && (!max_calls || calls < max_calls)) {
		unsigned long want = bufsz;

		if (limit && limit - total < want)
			want = limit - total;
		if (stop_at && now() > stop_at)
			break;
		n = read(fd, buf, want);
		calls++;
		if (n < 0)
			return total ? (long)total : -errno;
		if (n == 0)
			break;
		total += (unsigned long)n;
	}
	return (long)total;
}

static long append(const char *path, const char *str)
{
	long rc;
	int fd = openat_tfs(path, O_WRONLY | O_APPEND);

	if (fd < 0)
		return -errno;
	rc = write(fd, str, strlen(str)) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

/*
 * The lifetimes a reader part-way through a hist must survive, each with
 * its own fd: o->path is an event's directory ("...events/SYS/EVENT/"),
 * o->s a trigger for it, o->n how much to read before the change.
 *   0  a dynamic event: create it, add the trigger, read part-way, remove
 *      the trigger, delete the event, read on; create and add again, read
 *      on again and from the start
 *   1  a named hist: add it, read part-way, remove, add it again with
 *      other keys, read on
 *   2  an instance: make it, add the trigger, read part-way, remove the
 *      trigger, remove the instance (busy or not), read on
 *   3  clear and pause under a part-way reader, then lseek 0 and read
 *   4  an inter-event chain: fz_syn0, a variable on sys_enter_read, an
 *      onmatch() on sys_exit_read that makes fz_syn0, the trigger on
 *      fz_syn0; read it part-way, then take the chain apart in one of three
 *      orders (n % 3: from the end; the wrong way round first, which must
 *      fail; the onmatch() first, under the reader) and read on
 * Returns the bytes read by the last read (or -errno of the first step
 * that failed).
 */
static long exec_scen(const struct op *o)
{
	static struct sb cs;
	static const char chain_var[] = "hist:keys=common_pid:fz_ts0=common_timestamp.usecs";
	static const char chain_match[] =
		"hist:keys=common_pid:fz_lat=common_timestamp.usecs-$fz_ts0:"
		"onmatch(syscalls.sys_enter_read).fz_syn0($fz_lat,common_pid)";
	char trig[320], hist[320], inst[64] = "", ev[64], dir[512], rm[STR_MAX + 2];
	char enter[160], exit_[160];
	const char *d = NULL;
	unsigned int i = 0;
	long rc;
	int fd;

	snprintf(trig, sizeof(trig), "%strigger", o->path);
	snprintf(hist, sizeof(hist), "%shist", o->path);
	snprintf(rm, sizeof(rm), "!%s", o->s.b);
	if (o->slot == 0) {
		for (i = 0; i < N_DYN; i++) {
			snprintf(ev, sizeof(ev), "/%s/", events[9 + i].name);
			if (strstr(o->path, ev)) {
				d = dyn[i].file;
				break;
			}
		}
		if (!d)
			return -EINVAL;
		append(d, dyn[i].add);
	}
	if (o->slot == 4) {
		const char *e = strstr(o->path, "events/");

		snprintf(inst, sizeof(inst), "%.*s", e ? (int)(e - o->path) : 0, o->path);
		snprintf(enter, sizeof(enter), "%sevents/syscalls/sys_enter_read/trigger", inst);
		snprintf(exit_, sizeof(exit_), "%sevents/syscalls/sys_exit_read/trigger", inst);
		append("synthetic_events", dyn[3].add);
		append(enter, chain_var);
		append(exit_, chain_match);
		append(trig, o->s.b);
		usleep(20000);
		fd = openat_tfs(hist, O_RDONLY);
		if (fd < 0)
			return -errno;
		read_fd(fd, o->n, o->n, 0);
		switch (o->n % 3) {
		case 1:	/* each of these is in use: refused */
			append("synthetic_events", dyn[3].del);
			snprintf(rm, sizeof(rm), "!%s", chain_var);
			append(enter, rm);
			break;
		case 2:
			snprintf(rm, sizeof(rm), "!%s", chain_match);
			append(exit_, rm);
			read_fd(fd, 40, 40, 0);
			break;
		}
		snprintf(rm, sizeof(rm), "!%s", o->s.b);
		append(trig, rm);
		read_fd(fd, 40, 40, 0);
		snprintf(rm, sizeof(rm), "!%s", chain_match);
		append(exit_, rm);
		snprintf(rm, sizeof(rm), "!%s", chain_var);
		append(enter, rm);
		append("synthetic_events", dyn[3].del);
		rc = read_fd(fd, 4096, 0, 0);
		close(fd);
		return rc;
	}
	if (o->slot == 2) {
		const char *e = strstr(o->path, "/events/");

		snprintf(inst, sizeof(inst), "%.*s", e ? (int)(e - o->path) : 0, o->path);
		snprintf(dir, sizeof(dir), "%s/%s", tracefs, inst);
		mkdir(dir, 0755);
	}
	append(trig, o->s.b);
	if (o->slot == 3)
		append(trig, "hist:keys=common_pid:vals=hitcount");
	usleep(2000);
	fd = openat_tfs(hist, O_RDONLY);
	if (fd < 0)
		return -errno;
	read_fd(fd, o->n, o->n, 0);
	switch (o->slot) {
	case 0:
		append(trig, rm);
		append(d, dyn[i].del);
		read_fd(fd, 37, 0, 0);
		append(d, dyn[i].add);
		append(trig, o->s.b);
		read_fd(fd, 100, 0, 0);
		lseek(fd, 0, SEEK_SET);
		read_fd(fd, 4096, 0, 0);
		append(trig, rm);
		append(d, dyn[i].del);
		break;
	case 1:
		append(trig, rm);
		append(trig, "hist:name=fz_n0:keys=common_cpu:vals=hitcount");
		read_fd(fd, 64, 0, 0);
		append(trig, "!hist:name=fz_n0:keys=common_cpu:vals=hitcount");
		break;
	case 2:
		append(trig, rm);
		snprintf(dir, sizeof(dir), "%s/%s", tracefs, inst);
		rmdir(dir);
		read_fd(fd, 50, 0, 0);
		break;
	default:
		with_suffix(&cs, o->s.b, ":clear");
		append(trig, cs.b);
		append(trig, "hist:keys=common_pid:vals=hitcount:clear");
		read_fd(fd, 1 + o->n / 3, 1 + o->n / 3, 0);
		append(trig, "hist:keys=common_pid:vals=hitcount:pause");
		read_fd(fd, 30, 0, 0);
		lseek(fd, 0, SEEK_SET);
		read_fd(fd, 4096, 0, 0);
		append(trig, "!hist:keys=common_pid:vals=hitcount");
		append(trig, rm);
		break;
	}
	rc = read_fd(fd, 4096, 0, 0);
	close(fd);
	return rc;
}

static long exec_op(struct worker *w, const struct op *o)
{
	char full[512];
	long rc = 0;
	int fd;

	switch (o->v) {
	case V_TRIG:
	case V_WRITE:
		/* O_APPEND, never O_TRUNC: a truncating open removes every trigger */
		fd = openat_tfs(o->path, O_WRONLY | O_APPEND);
		if (fd < 0)
			return -errno;
		rc = write(fd, o->s.b, o->s.len) < 0 ? -errno : (long)o->s.len;
		close(fd);
		return rc;
	case V_READ:
	case V_PIECES:
		fd = openat_tfs(o->path, O_RDONLY);
		if (fd < 0)
			return -errno;
		rc = o->v == V_PIECES || (generator >= 2 && o->n <= 100) ?
			read_fd(fd, o->n, 0, PIECES_CALLS) : read_fd(fd, o->n, 0, 0);
		close(fd);
		return rc;
	case V_OPEN:
		if (w->fd[o->slot] >= 0)
			close(w->fd[o->slot]);
		w->fd[o->slot] = openat_tfs(o->path, O_RDONLY);
		if (w->fd[o->slot] < 0)
			return -errno;
		return read_fd(w->fd[o->slot], o->n < 4096 ? o->n : 4096, o->n, 0);
	case V_CONT:
		if (w->fd[o->slot] < 0)
			return -EBADF;
		return o->n ? read_fd(w->fd[o->slot], o->n, o->n, 0)
			    : read_fd(w->fd[o->slot], 4096, 0, 0);
	case V_SEEK:
		if (w->fd[o->slot] < 0)
			return -EBADF;
		if (lseek(w->fd[o->slot], (off_t)o->n, SEEK_SET) < 0)
			return -errno;
		return read_fd(w->fd[o->slot], 100, 100, 0);
	case V_CLOSE:
		if (w->fd[o->slot] < 0)
			return -EBADF;
		close(w->fd[o->slot]);
		w->fd[o->slot] = -1;
		return 0;
	case V_MKDIR:
	case V_RMDIR:
		snprintf(full, sizeof(full), "%s/%s", tracefs, o->path);
		rc = o->v == V_MKDIR ? mkdir(full, 0755) : rmdir(full);
		return rc < 0 ? -errno : 0;
	case V_ERRCLR:
		fd = openat_tfs(o->path, O_WRONLY | O_TRUNC);
		if (fd < 0)
			return -errno;
		close(fd);
		return 0;
	case V_SLEEP:
		usleep((useconds_t)o->n);
		return 0;
	case V_SCEN:
		return exec_scen(o);
	}
	return -EINVAL;
}

/* --- processes -------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void worker_init(struct worker *w, uint64_t seed, unsigned int id)
{
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->id = id;
	/* a stream of its own per worker: the seed mixed with the id */
	w->r.s = seed ^ (0xd1b54a32d192ed03ULL * (id + 1));
	rnext(&w->r);
	for (i = 0; i < SLOTS; i++)
		w->fd[i] = -1;
}

static unsigned long run_worker(uint64_t seed, unsigned int id, unsigned long ops,
				double t0, double deadline, int dry, int quiet)
{
	static struct worker w;
	static struct op o;
	unsigned long i;
	char res[64];
	double t;
	long rc;
	int n;

	worker_init(&w, seed, id);
	stop_at = dry ? 0 : deadline;
	for (i = 0; i < ops; i++) {
		if (!dry && deadline && now() > deadline)
			break;
		gen_op(&w, &o);
		log_op(&w, i, &o);
		if (dry)
			continue;
		/*
		 * The serial port may hold a few KiB of the log when a panic
		 * reboots the guest; the console, flushed by the panic, says
		 * how far each worker had got.
		 */
		if (i % 25 == 0)
			kmsg("histfuzz: w%u at %lu\n", id, i);
		t = now();
		rc = exec_op(&w, &o);
		if (!quiet) {
			n = snprintf(res, sizeof(res), "r%u %lu %ld %.0f %.1f\n", id, i, rc,
				     (now() - t) * 1000, t - t0);
			put_line(res, (size_t)n);
		}
	}
	return i;
}

static volatile sig_atomic_t load_stop;

static void on_term(int sig)
{
	(void)sig;
	load_stop = 1;
}

/* The event load: reads, writes, pipes, forks, sleeps (sched_switch). */
static void run_load(void)
{
	static char buf[65536];
	unsigned long i = 0;
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);
	int p[2];

	prctl(PR_SET_NAME, "fzload");
	signal(SIGTERM, on_term);
	while (!load_stop) {
		size_t sz = 1 + (i * 7919) % sizeof(buf);

		if (read(zero, buf, sz) < 0 || write(null, buf, sz % 4096) < 0)
			break;
		if (i % 16 == 0 && pipe(p) == 0) {
			close(p[0]);
			close(p[1]);
		}
		if (i % 200 == 0) {
			pid_t c = fork();

			if (c == 0)
				_exit(0);
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		/* a light load: the workers need the guest's two vCPUs */
		usleep(i % 8 ? 200 : 2000);
		i++;
	}
	_exit(0);
}

/* A line on the kernel's console, when fuzzing the kernel's own tracefs. */
static void __attribute__((format(printf, 1, 2))) kmsg(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int fd, n;

	if (strcmp(tracefs, "/sys/kernel/tracing"))
		return;
	fd = open("/dev/kmsg", O_WRONLY);

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) < 0)
			n = 0;
		close(fd);
	}
}

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		put_line(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void usage(void)
{
	fputs("usage: histfuzz [--dry-run] [-s SEED] [-w WORKERS] [-n OPS] [-t SECS] [-T TRACEFS] [-l FILE] [-q] [-K] [-g 1|2] [--worker W]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL);
	unsigned long ops = 2000, done = 0;
	unsigned int workers = 4, i;
	double secs = 0, deadline = 0, t0;
	int dry = 0, quiet = 0, status, a, only = -1;
	pid_t pids[MAX_WORKERS], load = -1;
	FILE *f;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--dry-run"))
			dry = 1;
		else if (!strcmp(argv[a], "-q"))
			quiet = 1;
		else if (!strcmp(argv[a], "-K"))
			known_crashers = 1;
		else if (a + 1 >= argc)
			usage();
		else if (!strcmp(argv[a], "-s"))
			seed = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "-g"))
			generator = atoi(argv[++a]);
		else if (!strcmp(argv[a], "-w"))
			workers = (unsigned int)strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "-n"))
			ops = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "-t"))
			secs = strtod(argv[++a], NULL);
		else if (!strcmp(argv[a], "-T"))
			tracefs = argv[++a];
		else if (!strcmp(argv[a], "--worker"))
			only = atoi(argv[++a]);
		else if (!strcmp(argv[a], "-l")) {
			copy_fd = open(argv[++a], O_WRONLY | O_CREAT | O_APPEND, 0644);
			if (copy_fd < 0) {
				perror(argv[a]);
				return 2;
			}
		}
		else
			usage();
	}
	if (!workers || workers > MAX_WORKERS || generator < 1 || generator > 2)
		usage();
	setvbuf(stdout, NULL, _IONBF, 0);
	say("# histfuzz seed=%llu workers=%u ops=%lu%s%s\n", (unsigned long long)seed, workers, ops,
	    known_crashers ? " -K" : "", generator > 1 ? " -g 2" : "");
	if (dry) {
		for (i = 0; i < workers; i++)
			if (only < 0 || (unsigned int)only == i)
				run_worker(seed, i, ops, 0, 0, 1, 1);
		return 0;
	}
	kmsg("histfuzz: start seed=%llu workers=%u ops=%lu\n", (unsigned long long)seed,
	     workers, ops);
	t0 = now();
	if (secs > 0)
		deadline = t0 + secs;
	load = fork();
	if (load == 0)
		run_load();
	for (i = 0; i < workers; i++) {
		if (only >= 0 && (unsigned int)only != i) {
			pids[i] = -1;
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("histfuzz: fork");
			return 1;
		}
		if (pids[i] == 0) {
			char comm[16], name[64];
			unsigned long n;

			snprintf(comm, sizeof(comm), "fzw%u", i);
			prctl(PR_SET_NAME, comm);
			n = run_worker(seed, i, ops, t0, deadline, 0, quiet);
			/* how many it made, for the parent */
			snprintf(name, sizeof(name), "/tmp/histfuzz.%d", (int)getpid());
			f = fopen(name, "w");
			if (f) {
				fprintf(f, "%lu\n", n);
				fclose(f);
			}
			_exit(0);
		}
	}
	for (i = 0; i < workers; i++) {
		char name[64];
		unsigned long n = 0;

		if (pids[i] < 0)
			continue;
		waitpid(pids[i], &status, 0);
		snprintf(name, sizeof(name), "/tmp/histfuzz.%d", (int)pids[i]);
		f = fopen(name, "r");
		if (f) {
			if (fscanf(f, "%lu", &n) != 1)
				n = 0;
			fclose(f);
			unlink(name);
		}
		say("# histfuzz worker %u: %lu operations%s\n", i, n,
		    WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : " (died)");
		done += n;
	}
	kill(load, SIGTERM);
	waitpid(load, &status, 0);
	say("# histfuzz seed=%llu: %lu operations in %.1f s\n", (unsigned long long)seed, done,
	    now() - t0);
	kmsg("histfuzz: end seed=%llu operations=%lu\n", (unsigned long long)seed, done);
	return 0;
}
