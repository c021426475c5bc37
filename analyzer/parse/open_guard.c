/*
 * open_guard.c - what a parse may read: regular files (and directories) only.
 *
 * libclang opens the main file and every header through open(2) (LLVM's
 * sys::fs::openFileForRead, in libLLVM).  A header that is a FIFO blocks that
 * open until the --timeout; one that is a symbolic link to /dev/zero (or an
 * `-include /dev/zero` in a compilation database) is read for ever, and the parse
 * grows past any memory.  While a parse runs (open_guard_parse(true), parse.c), this
 * definition of open() -- the program's own, so it is the one libLLVM's calls bind
 * to -- opens a file for reading without blocking, looks at what it is, and refuses
 * anything that is not a regular file or a directory: libclang then reports
 * "cannot open file 'NAME': No such device" at the #include, a parse error that
 * names the header, and the parse goes on without it.  Outside a parse, and for
 * every open that writes or creates, it is the plain system call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "open_guard.h"

static volatile int guard_on; /* a parse is running (its thread is libclang's own) */
static volatile int refused;  /* opens refused since the last open_guard_parse(true) */

void open_guard_parse(bool on)
{
	if (on)
		refused = 0;
	guard_on = on;
}

unsigned open_guard_refused(void)
{
	return (unsigned)refused;
}

static int sys_open(const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static int guarded_open(const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd, e;

	if (!guard_on || (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_PATH)))
		return sys_open(path, flags, mode);
	/* O_NONBLOCK: a FIFO with no writer opens at once instead of waiting */
	fd = sys_open(path, flags | O_NONBLOCK, mode);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		if (!(flags & O_NONBLOCK))
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	e = fstat(fd, &st) == 0 ? ENODEV : errno;
	close(fd);
	refused++;
	errno = e;
	return -1;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return guarded_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return guarded_open(path, flags, mode);
}
