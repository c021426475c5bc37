// SPDX-License-Identifier: GPL-2.0
/*
 * eio_probe.c — block-by-block O_DIRECT probe of a block device.
 *
 * Reads (or with -w writes) every BS-sized block of [OFFSET, OFFSET + LENGTH) with one
 * pread/pwrite each, so each block is its own request, and prints one line per block
 * that did not behave:
 *	bad OFFSET ERRNO	the call failed (ERRNO as a name: EIO, ENOSPC, ...)
 *	short OFFSET N		the call moved only N bytes
 *	corrupt OFFSET		(-c, reads) the data is not the stamp -w wrote there
 * then a summary line "probe blocks=N bad=N short=N corrupt=N".  Offsets are bytes.
 *
 * A written block holds its own offset and the seed (-s) in every 8-byte word, so a read
 * that returns another block's data, or stale data, is caught.  The verdict belongs to
 * the caller, which knows which blocks should fail; the exit status only says whether
 * the probe could run (0) or not (2).  Built with gcc -static for the test guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int err)
{
	static char num[16];

	switch (err) {
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case ENODATA: return "ENODATA";
	case EINVAL: return "EINVAL";
	case ENXIO: return "ENXIO";
	case ENOLINK: return "ENOLINK";
	case EREMOTEIO: return "EREMOTEIO";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EILSEQ: return "EILSEQ";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	}
	snprintf(num, sizeof(num), "E%d", err);
	return num;
}

static void stamp(uint64_t *buf, size_t bs, uint64_t off, uint64_t seed)
{
	size_t i;

	for (i = 0; i < bs / 8; i++)
		buf[i] = (off + i * 8) ^ (seed * 0x9e3779b97f4a7c15ULL);
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-w] [-c] [-b BS] [-s SEED] DEVICE OFFSET LENGTH\n"
		"  -w  write a stamp into each block instead of reading\n"
		"  -c  (read) check each block holds the stamp\n"
		"  -b  block size in bytes, a multiple of 512 (default 4096)\n"
		"  -s  stamp seed (default 1)\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long off, len, end, seed = 1;
	unsigned long bs = 4096;
	unsigned long blocks = 0, bad = 0, shortio = 0, corrupt = 0;
	int do_write = 0, do_check = 0, opt, fd;
	uint64_t *buf, *want;

	while ((opt = getopt(argc, argv, "wcb:s:")) != -1) {
		switch (opt) {
		case 'w': do_write = 1; break;
		case 'c': do_check = 1; break;
		case 'b': bs = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default: return usage(argv[0]);
		}
	}
	if (argc - optind != 3 || bs == 0 || bs % 512)
		return usage(argv[0]);
	off = strtoull(argv[optind + 1], NULL, 0);
	len = strtoull(argv[optind + 2], NULL, 0);
	if (off % bs || len % bs) {
		fprintf(stderr, "eio_probe: OFFSET and LENGTH must be multiples of %lu\n", bs);
		return 2;
	}
	fd = open(argv[optind], (do_write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "eio_probe: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	if (posix_memalign((void **)&buf, 4096, bs) ||
	    posix_memalign((void **)&want, 4096, bs)) {
		fprintf(stderr, "eio_probe: out of memory\n");
		return 2;
	}
	for (end = off + len; off < end; off += bs) {
		ssize_t n;

		blocks++;
		if (do_write) {
			stamp(buf, bs, off, seed);
			n = pwrite(fd, buf, bs, off);
		} else {
			memset(buf, 0xa5, bs);
			n = pread(fd, buf, bs, off);
		}
		if (n < 0) {
			bad++;
			printf("bad %llu %s\n", off, errno_name(errno));
		} else if ((size_t)n != bs) {
			shortio++;
			printf("short %llu %zd\n", off, n);
		} else if (do_check && !do_write) {
			stamp(want, bs, off, seed);
			if (memcmp(buf, want, bs)) {
				corrupt++;
				printf("corrupt %llu\n", off);
			}
		}
	}
	if (do_write && fsync(fd) < 0)
		printf("fsync %s\n", errno_name(errno));
	close(fd);
	printf("probe blocks=%lu bad=%lu short=%lu corrupt=%lu\n",
	       blocks, bad, shortio, corrupt);
	return 0;
}
