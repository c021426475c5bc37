/*
 * udiff_driver.c - test driver for udiff.c.
 *
 *   udiff_driver diff PATH OLD NEW    print the unified diff blkmig writes for OLD -> NEW
 *   udiff_driver gen SEED OLD NEW     write a random, seeded pair of similar files
 *
 * run.sh round-trips generated pairs through `patch -p1` and `git apply -p1`.
 */
#include "atomic_write.h"
#include "udiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const words[] = { "x", "y", "z", "{", "}", "\tend_request(rq, 1);",
				     "", "\treturn 0;" };

static int gen(unsigned long long seed, const char *oldp, const char *newp)
{
	const char *a[80], *b[200];
	unsigned na, nb, i, k, nops;
	FILE *fa = fopen(oldp, "w"), *fb = fopen(newp, "w");

	if (!fa || !fb)
		return 2;
	rng = seed * 2654435761ULL + 88172645463325252ULL;
	na = rnd(70);
	for (i = 0; i < na; i++)
		a[i] = words[rnd(8)];
	memcpy(b, a, na * sizeof(*a));
	nb = na;
	nops = rnd(9);
	for (k = 0; k < nops; k++) {
		unsigned p = rnd(nb + 1), op = rnd(3);

		if (op == 0 && nb < 190) {
			memmove(b + p + 1, b + p, (nb - p) * sizeof(*b));
			b[p] = rnd(2) ? "new line" : "x";
			nb++;
		} else if (op == 1 && p < nb) {
			memmove(b + p, b + p + 1, (nb - p - 1) * sizeof(*b));
			nb--;
		} else if (p < nb) {
			b[p] = "changed";
		}
	}
	for (i = 0; i < na; i++)
		fprintf(fa, "%s%s", a[i], i + 1 < na || rnd(5) ? "\n" : "");
	for (i = 0; i < nb; i++)
		fprintf(fb, "%s%s", b[i], i + 1 < nb || rnd(5) ? "\n" : "");
	fclose(fa);
	fclose(fb);
	return 0;
}

int main(int argc, char **argv)
{
	char *a, *b, err[512];
	size_t na, nb;
	int rc;

	if (argc == 5 && strcmp(argv[1], "gen") == 0)
		return gen(strtoull(argv[2], NULL, 10), argv[3], argv[4]);
	if (argc != 5 || strcmp(argv[1], "diff") != 0) {
		fprintf(stderr, "usage: %s diff PATH OLD NEW | gen SEED OLD NEW\n", argv[0]);
		return 2;
	}
	if (read_whole_file(argv[3], &a, &na, err, sizeof(err)) < 0 ||
	    read_whole_file(argv[4], &b, &nb, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	rc = udiff_write(stdout, argv[2], a, na, b, nb, 3);
	free(a);
	free(b);
	return rc < 0 ? 2 : 0;
}
