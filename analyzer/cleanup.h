/*
 * cleanup.h - what a run leaves behind when it stops: nothing.
 *
 * Owns: the SIGINT/SIGTERM/SIGHUP handler (children stopped, private directories and
 * half-written temporary files removed, one line saying how the tree was left, then
 * death by the same signal: exit status 130/143/129); the private directories of dead
 * runs (SIGKILL) in the temporary folder and the marked `.blkmig-tmp.<pid>.XXXXXX` files a
 * killed in-place write left beside a driver, both removed by the next run (the latter
 * only by an in-place run, under the tree lock); the lock that keeps
 * two in-place runs off the same tree; children that die with their parent.
 *
 * Everything the handler touches is registered here beforehand, in fixed tables, so the
 * handler itself only makes async-signal-safe system calls.
 */
#ifndef BLKMIG_CLEANUP_H
#define BLKMIG_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Install the handlers (once, in the main process). PROG names the messages. */
void cleanup_init(const char *prog);

/* A run that cannot go on: children stopped, private directories and temporary files
 * removed as on a signal, then exit(STATUS). */
void cleanup_exit(int status) __attribute__((noreturn));

/* A new private directory of this run, TMPDIR/CLEANUP_DIR_PREFIX "<pid>.XXXXXX" (the
 * owner in the name from the start: a run killed outright at any moment leaves one a
 * later run can tell from a live run's, and removes), removed on a signal; NULL with
 * errno set when it cannot be made.  The caller frees the name. */
char *cleanup_make_dir(void);
/* Where private directories go: $TMPDIR, or /tmp when it is unset or empty. */
const char *cleanup_tmpdir(void);
/* Remove a private directory made by cleanup_make_dir and everything in it (the same
 * removal a signal makes, so a fix to it is made once), then forget it. */
void cleanup_remove_dir(const char *dir);
/* Forget a private directory without removing it (BLKMIG_KEEP_TMP). */
void cleanup_del_dir(const char *dir);

/* A temporary file beside a user's file (atomic_write.c), until renamed or removed. */
void cleanup_add_file(const char *path);
void cleanup_del_file(const char *path, bool renamed);

/* A child to stop on a signal: its whole process group when GROUP (spatch). */
void cleanup_add_child(pid_t pid, bool group);
void cleanup_del_child(pid_t pid);
/* In a freshly forked child: default signal handling, death with the parent.  With
 * NEW_GROUP (spatch, whose -j workers are its own children) the forked process stays
 * as a supervisor: the leader of a new process group and a subreaper, which kills the
 * whole group when the run dies (even by SIGKILL) and what is left of it when the
 * child exits, and exits as the child did; this returns in a child of it. */
void cleanup_in_child(bool new_group);

/* Remove the private directories of runs that are gone (SIGKILL) from $TMPDIR: those
 * named CLEANUP_DIR_PREFIX "<pid>.XXXXXX" (the pid of the run that made it is in the
 * name from the start), and the older kinds with an owner mark inside. */
void cleanup_stale_private_dirs(void);
#define CLEANUP_DIR_PREFIX "blkmig."
/* Whether PATH lies in a private directory of a run (CLEANUP_DIR_PREFIX "<pid>.XXXXXX"). */
bool cleanup_is_private(const char *path);
/* ... the length of PATH's part that names that directory; 0 when it lies in none. */
size_t cleanup_private_root(const char *path);
/* In a private directory an older blkmig made without its owner in the name
 * (blkmig.XXXXXX, blkmig-migrate.XXXXXX): the owner's pid, removed last with the
 * directory.  Still read, so that such leftovers are removed. */
#define OWNER_MARK ".blkmig-owner"
/* A temporary file beside a user's file is named CLEANUP_TMP_PREFIX "<pid>.XXXXXX": the
 * pid of the run that writes it is its owner mark. */
#define CLEANUP_TMP_PREFIX ".blkmig-tmp."

/* Remove the temporary files of killed in-place writes in DIR, saying so; the number
 * removed.  Only files that carry the owner mark of a run that is gone (kill(pid, 0):
 * ESRCH), regular, this user's, with one link: never a user's `.blkmig-config`, an
 * unmarked name or a live run's file.  Call it only in a run that writes the tree,
 * under the tree lock (cleanup_lock_tree). */
unsigned cleanup_leftovers_in(const char *dir);
/* The same in the directory of each of FILES (each directory once). */
unsigned cleanup_leftovers_beside(char *const *files, size_t n);

/* Lock PATHS (files or directories) for an in-place run: every path's directory
 * exclusively, its ancestors shared, so two runs on the same or nested trees exclude
 * each other. 0, or -1 after a message naming the busy directory. Held until exit. */
int cleanup_lock_tree(char *const *paths, size_t n);

/* Called (when set) by the signal handler before it says why the run stops; must be
 * async-signal-safe.  progress.c sets it: stderr back to the terminal first. */
extern void (*cleanup_before_message)(void);

#endif
