/*
 * tests/cocci/include/linux/blkdev.h - just enough of the 2.6.25 block API
 * (our own declarations, written from API-SEMANTICS.md) for the cocci tests
 * to compile-check converted outputs with gcc -fsyntax-only.
 *
 * The 2.6.24 completion calls are declared only with -DBLKMIG_LEGACY_API, so
 * a converted output that still calls one fails to compile.
 */
#ifndef BLKMIG_TEST_BLKDEV_H
#define BLKMIG_TEST_BLKDEV_H

#define NULL ((void *)0)
#define EIO 5
#define ENOMEM 12
#define ENOSPC 28
#define ENXIO 6
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"
#define KERN_ERR "<3>"
#define __init
#define __exit
#define EXPORT_SYMBOL(x) extern int blkmig_export_##x
#define BUG() __builtin_trap()
#define min(a, b) ((a) < (b) ? (a) : (b))
#define DEFINE_SPINLOCK(x) spinlock_t x
#define unlikely(x) __builtin_expect(!!(x), 0)
#define IRQ_HANDLED 1

typedef unsigned long sector_t;
typedef int irqreturn_t;
typedef struct { int slock; } spinlock_t;

struct gendisk {
	void *private_data;
	char disk_name[32];
};

struct bio {
	struct bio *bi_next;
	unsigned long bi_flags;
	unsigned int bi_size;
};

struct request_queue {
	spinlock_t *queue_lock;
	void *queuedata;
};

struct request {
	struct request_queue *q;
	struct gendisk *rq_disk;
	struct bio *bio;
	sector_t sector;
	unsigned long nr_sectors;
	unsigned long hard_nr_sectors;
	unsigned int current_nr_sectors;
	unsigned int hard_cur_sectors;
	unsigned int data_len;
	int errors;
	char *buffer;
	void *special;
};

struct work_struct {
	void (*func)(struct work_struct *work);
};

typedef void (request_fn_proc)(struct request_queue *q);
typedef irqreturn_t (irq_handler_t)(int irq, void *data);

/* the version of this test header's kernel, for the version-guard cases */
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 24)

int request_irq(unsigned int irq, irq_handler_t *handler, unsigned long flags,
		const char *name, void *data);
#define INIT_WORK(w, f) ((w)->func = (f))
typedef int (rq_end_io_callback)(struct request *rq);

int printk(const char *fmt, ...);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
#define spin_lock_irqsave(lock, flags) ((flags) = 0, spin_lock(lock))
#define spin_unlock_irqrestore(lock, flags) ((void)(flags), spin_unlock(lock))

struct request_queue *blk_init_queue(request_fn_proc *fn, spinlock_t *lock);
struct request *elv_next_request(struct request_queue *q);
void blkdev_dequeue_request(struct request *rq);
void add_disk_randomness(struct gendisk *disk);
void blk_queue_end_tag(struct request_queue *q, struct request *rq);
int blk_fs_request(struct request *rq);
int rq_data_dir(struct request *rq);
int blk_pc_request(struct request *rq);
void blk_start_queue(struct request_queue *q);
void blk_stop_queue(struct request_queue *q);
void *kmalloc(unsigned long size, int flags);
void kfree(const void *p);

/* 2.6.25 */
int blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int blk_end_request_callback(struct request *rq, int error,
			     unsigned int nr_bytes,
			     int (drv_callback)(struct request *));
unsigned int blk_rq_bytes(struct request *rq);
unsigned int blk_rq_cur_bytes(struct request *rq);

#ifdef BLKMIG_LEGACY_API
/* 2.6.24 */
int end_that_request_first(struct request *rq, int uptodate, int nr_sectors);
int end_that_request_chunk(struct request *rq, int uptodate, int nr_bytes);
#ifdef BLKMIG_TEST_ONE_ARG_LAST
/* a case that keeps the one-argument form of kernels before 2.6.16 */
void end_that_request_last(struct request *rq, ...);
#else
void end_that_request_last(struct request *rq, int uptodate);
#endif
void end_request(struct request *rq, int uptodate);
void end_queued_request(struct request *rq, int uptodate);
void end_dequeued_request(struct request *rq, int uptodate);
#endif

#endif
