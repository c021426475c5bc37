/*
 * gentree.c - deterministic generator of a kernel-drivers-shaped C tree for the benchmark.
 *
 *   gentree OUTDIR NFILES [SEED [LEGACY_PER_MILLE]]
 *
 * Writes NFILES C files under OUTDIR/drivers/<subsystem>/..., about LEGACY_PER_MILLE
 * (default 10, i.e. 1%) of them legacy block drivers assembled from the completion
 * patterns of the conversion catalogue (legacy_parts.h), the rest ordinary driver-like C
 * (ordinary_parts.h), some of which mention the legacy names in comments or have
 * look-alike functions, as real trees do. The same arguments always give the same bytes.
 * Prints "files=N legacy=M" and writes OUTDIR/LEGACY-FILES (one path per line).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "legacy_parts.h"
#include "ordinary_parts.h"

static unsigned long long state;

static unsigned long long next(void)
{
	/* xorshift64*: small, fast, and the same on every machine */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ULL;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(next() % n);
}

static void mkdirs(const char *path)
{
	char buf[4096], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
				perror(buf);
				exit(2);
			}
			*p = '/';
		}
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
		perror(buf);
		exit(2);
	}
}

static const char *const subsystems[] = {
	"block", "net/ethernet/intel", "net/ethernet/realtek", "net/wireless/ath", "scsi",
	"scsi/aic7xxx", "usb/host", "usb/storage", "usb/serial", "gpu/drm/radeon",
	"gpu/drm/i915", "media/video", "media/dvb", "char", "char/tpm", "input/keyboard",
	"input/mouse", "i2c/busses", "spi", "mmc/host", "ide/pci", "hwmon", "watchdog",
	"video/fbdev", "pci/hotplug", "s390/block", "md", "mtd/nand", "acpi", "ata",
};
#define NSUB (sizeof(subsystems) / sizeof(subsystems[0]))

static const char *const syllables[] = {
	"ax", "bel", "cor", "dak", "em", "fal", "gir", "hux", "io", "jet", "kel", "lum",
	"mor", "nex", "op", "pra", "qua", "ril", "sta", "tor", "ul", "vex", "wi", "zen",
};
#define NSYL (sizeof(syllables) / sizeof(syllables[0]))

/* Substitute "@P" in a template with the driver prefix. */
static void emit(FILE *f, const char *tmpl, const char *prefix)
{
	const char *p;

	for (p = tmpl; *p; p++) {
		if (p[0] == '@' && p[1] == 'P') {
			fputs(prefix, f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
}

static void write_legacy(FILE *f, const char *prefix)
{
	unsigned i, n = 2 + pick(3);
	int used[NLEGACY_PATTERNS] = { 0 };

	emit(f, legacy_head, prefix);
	for (i = 0; i < n; i++) {
		unsigned k = pick(NLEGACY_PATTERNS);

		if (used[k])
			continue;
		used[k] = 1;
		emit(f, legacy_patterns[k], prefix);
	}
	emit(f, legacy_tail, prefix);
}

static void write_ordinary(FILE *f, const char *prefix)
{
	unsigned i, n = 3 + pick(10);

	emit(f, ordinary_head, prefix);
	for (i = 0; i < n; i++)
		emit(f, ordinary_blocks[pick(NORDINARY_BLOCKS)], prefix);
	if (pick(50) == 0)
		emit(f, ordinary_lookalike, prefix);
	emit(f, ordinary_tail, prefix);
}

int main(int argc, char **argv)
{
	unsigned long nfiles, i, legacy = 0, per_mille = 10;
	char path[4400], prefix[64];
	FILE *list;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s OUTDIR NFILES [SEED [LEGACY_PER_MILLE]]\n", argv[0]);
		return 2;
	}
	nfiles = strtoul(argv[2], NULL, 10);
	state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
	state = state * 0x9E3779B97F4A7C15ULL + 1;
	if (argc > 4)
		per_mille = strtoul(argv[4], NULL, 10);
	mkdirs(argv[1]);
	snprintf(path, sizeof(path), "%s/LEGACY-FILES", argv[1]);
	list = fopen(path, "w");
	if (!list) {
		perror(path);
		return 2;
	}
	for (i = 0; i < nfiles; i++) {
		const char *sub = subsystems[pick(NSUB)];
		int is_legacy = pick(1000) < per_mille;
		char dir[4096];
		FILE *f;

		snprintf(prefix, sizeof(prefix), "%s%s%lu", syllables[pick(NSYL)],
			 syllables[pick(NSYL)], i);
		snprintf(dir, sizeof(dir), "%s/drivers/%s%s", argv[1], is_legacy ? "block" : sub,
			 pick(4) == 0 ? "/sub" : "");
		mkdirs(dir);
		snprintf(path, sizeof(path), "%s/%s.c", dir, prefix);
		f = fopen(path, "w");
		if (!f) {
			perror(path);
			return 2;
		}
		if (is_legacy) {
			write_legacy(f, prefix);
			fprintf(list, "%s\n", path + strlen(argv[1]) + 1);
			legacy++;
		} else {
			write_ordinary(f, prefix);
		}
		if (fclose(f)) {
			perror(path);
			return 2;
		}
	}
	fclose(list);
	printf("files=%lu legacy=%lu\n", nfiles, legacy);
	return 0;
}
