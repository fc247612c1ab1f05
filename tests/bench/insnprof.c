// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest kernel instructions
 * executed at each address, for tests/bench/profile's per-function
 * breakdown of the event path.
 *
 *   qemu-system-x86_64 ... -plugin insnprof.so,out=FILE
 *
 * At exit FILE gets one "ADDRESS COUNT" line (hex, decimal) per kernel
 * address that ran.  Each instruction gets an inline counter when its
 * block is translated; a REP-prefixed string instruction counts once per
 * iteration, as -icount does.
 *
 * The few declarations of QEMU's plugin API (include/qemu/qemu-plugin.h,
 * API version 1, as in QEMU 7.2) are here, so that no QEMU source or
 * development package is needed.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define KERNEL_BASE 0xffff800000000000ull
#define SLOTS (1u << 22)	/* addresses; at most half used */

struct slot {
	uint64_t addr;
	uint64_t count;
};

static struct slot *slots;
static size_t used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path = "insnprof.out";

/* The counter of ADDR, added on first sight; never moves once handed out */
static uint64_t *counter(uint64_t addr)
{
	size_t i = (addr * 0x9e3779b97f4a7c15ull) >> 42;

	for (;; i = (i + 1) & (SLOTS - 1)) {
		if (slots[i].addr == addr)
			return &slots[i].count;
		if (!slots[i].addr)
			break;
	}
	if (++used > SLOTS / 2) {
		fprintf(stderr, "insnprof: more than %u kernel addresses\n", SLOTS / 2);
		abort();
	}
	slots[i].addr = addr;
	return &slots[i].count;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	pthread_mutex_lock(&lock);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);

		if (addr >= KERNEL_BASE)
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   counter(addr), 1);
	}
	pthread_mutex_unlock(&lock);
}

static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < SLOTS; i++)
		if (slots[i].addr && slots[i].count)
			fprintf(f, "%llx %llu\n", (unsigned long long)slots[i].addr,
				(unsigned long long)slots[i].count);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	slots = calloc(SLOTS, sizeof(*slots));
	if (!slots)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
