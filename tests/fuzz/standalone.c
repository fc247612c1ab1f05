// SPDX-License-Identifier: GPL-2.0
/*
 * main() for the fuzz target without libFuzzer: runs every file named on the
 * command line, then N mutations of each (-m N, a fixed seed: repeatable);
 * -j FILE writes each input's NDJSON frame to FILE.
 * tests/fuzz/fuzz.sh runs it on the fixtures in `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern FILE *fuzz_json_out;

static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(void)	/* xorshift32 */
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static void mutate(uint8_t *buf, size_t *len, size_t cap)
{
	static const char *const tokens[] = { "{ ", " }", "} hitcount:", "\n", "Totals:\n",
		"# event histogram\n", ": ", "[paused]", "\t", ", ", "~ 2^", "(%)", "#",
		/* hostile key text: ESC sequences, CR, DEL, C1, invalid UTF-8 */
		"\033[31m", "\033]2;t\007", "\r", "\177", "\302\233", "\377", "\303", "\\" };
	size_t pos = *len ? rnd() % *len : 0, n;

	switch (rnd() % 5) {
	case 0:	/* flip a byte */
		if (*len)
			buf[pos] = rnd();
		break;
	case 1:	/* delete a run */
		n = rnd() % 16;
		if (pos + n <= *len) {
			memmove(buf + pos, buf + pos + n, *len - pos - n);
			*len -= n;
		}
		break;
	case 2:	/* insert a token */
	{
		const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];

		n = strlen(t);
		if (*len + n <= cap) {
			memmove(buf + pos + n, buf + pos, *len - pos);
			memcpy(buf + pos, t, n);
			*len += n;
		}
		break;
	}
	case 3:	/* truncate */
		*len = pos;
		break;
	default:	/* a digit becomes huge */
		if (*len && buf[pos] >= '0' && buf[pos] <= '9' && *len + 20 <= cap) {
			memmove(buf + pos + 20, buf + pos, *len - pos);
			memset(buf + pos, '9', 20);
			*len += 20;
		}
		break;
	}
}

int main(int argc, char **argv)
{
	long rounds = 0;
	int i, first = 1;

	for (;;) {
		if (argc > first + 1 && !strcmp(argv[first], "-m")) {
			rounds = strtol(argv[first + 1], NULL, 10);
			first += 2;
		} else if (argc > first + 1 && !strcmp(argv[first], "-j")) {
			fuzz_json_out = fopen(argv[first + 1], "w");
			if (!fuzz_json_out) {
				perror(argv[first + 1]);
				return 1;
			}
			first += 2;
		} else {
			break;
		}
	}
	for (i = first; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *orig, *buf;
		size_t len, cap;
		long r;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		cap = len * 2 + 4096;
		orig = malloc(cap);
		buf = malloc(cap);
		if (fread(orig, 1, len, f) != len) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(orig, len);
		for (r = 0; r < rounds; r++) {
			size_t l = len;
			int m, nm = 1 + rnd() % 4;

			memcpy(buf, orig, len);
			for (m = 0; m < nm; m++)
				mutate(buf, &l, cap);
			LLVMFuzzerTestOneInput(buf, l);
		}
		free(orig);
		free(buf);
	}
	if (fuzz_json_out && fclose(fuzz_json_out)) {
		perror("-j");
		return 1;
	}
	printf("ran %d inputs x %ld mutations\n", argc - first, rounds);
	return 0;
}
