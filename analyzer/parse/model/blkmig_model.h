/*
 * blkmig_model.h - blkmig's own model of the Linux 2.6.24 kernel API that
 * legacy block drivers use, written from the documented interface.  It is
 * used when a file is parsed without the kernel tree's own headers: every
 * <linux/...> or <asm/...> header that blkmig knows is mapped to this file,
 * so the block API calls are fully typed.  It declares, it does not
 * implement; it is never compiled into a kernel.
 */
#ifndef BLKMIG_MODEL_H
#define BLKMIG_MODEL_H

#define __KERNEL__ 1
#ifndef NULL
#define NULL ((void *)0)
#endif
#define __init
#define __exit
#define __devinit
#define __devexit
#define __devinitdata
#define __iomem
#define __user
#define __force
#define __must_check
#define __read_mostly
#define __cacheline_aligned
#define likely(x) (x)
#define unlikely(x) (x)
#define inline inline
#define asmlinkage
#define fastcall
#define irqreturn_t int
#define IRQ_NONE 0
#define IRQ_HANDLED 1
#define IRQ_RETVAL(x) ((x) != 0)
#define IRQF_SHARED 0x80
#define IRQF_DISABLED 0x20
#define SA_SHIRQ IRQF_SHARED
#define SA_INTERRUPT IRQF_DISABLED
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_NOTICE "<5>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"
#define KERN_CRIT "<2>"
#define GFP_KERNEL 0xd0
#define GFP_ATOMIC 0x20
#define GFP_NOIO 0x10
#define HZ 250
#define PAGE_SIZE 4096UL
#define PAGE_SHIFT 12
#define BUG() do { } while (0)
#define BUG_ON(c) do { if (c) BUG(); } while (0)
#define WARN_ON(c) (c)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define offsetof(t, m) __builtin_offsetof(t, m)
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define MODULE_LICENSE(x) extern int __blkmig_module_license
#define MODULE_AUTHOR(x) extern int __blkmig_module_author
#define MODULE_DESCRIPTION(x) extern int __blkmig_module_description
#define MODULE_ALIAS(x) extern int __blkmig_module_alias
#define MODULE_ALIAS_BLOCKDEV_MAJOR(x) extern int __blkmig_module_alias
#define MODULE_PARM_DESC(n, x) extern int __blkmig_module_parm_desc
#define MODULE_DEVICE_TABLE(t, n) extern int __blkmig_module_device_table
#define module_param(n, t, p) extern int __blkmig_module_param
#define module_param_named(n, v, t, p) extern int __blkmig_module_param
#define module_init(f) int init_module(void) { return f(); }
#define module_exit(f) void cleanup_module(void) { f(); }
#define EXPORT_SYMBOL(s) extern int __blkmig_export
#define EXPORT_SYMBOL_GPL(s) extern int __blkmig_export
#define THIS_MODULE ((struct module *)0)

/* errno values */
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EFAULT 14
#define EBUSY 16
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define EROFS 30
#define ENOSYS 38
#define ENOTTY 25
#define ENOMEDIUM 123
#define EMEDIUMTYPE 124
#define ETIMEDOUT 110
#define ECANCELED 125
#define EOPNOTSUPP 95

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long long loff_t;
typedef unsigned long sector_t;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef unsigned int dev_t;
typedef _Bool bool;
typedef unsigned long dma_addr_t;
typedef struct { int counter; } atomic_t;
typedef __builtin_va_list va_list;
#define true 1
#define false 0

/* spinlocks: declared as functions so that calls stay visible */
typedef struct { unsigned int slock; } spinlock_t;
#define SPIN_LOCK_UNLOCKED ((spinlock_t){ 0 })
#define DEFINE_SPINLOCK(x) spinlock_t x = SPIN_LOCK_UNLOCKED
void spin_lock_init(spinlock_t *lock);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
void spin_lock_bh(spinlock_t *lock);
void spin_unlock_bh(spinlock_t *lock);
#define spin_lock_irqsave(lock, flags) ((flags) = __blkmig_spin_lock_irqsave(lock))
unsigned long __blkmig_spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
#define local_irq_save(f) ((f) = 0)
#define local_irq_restore(f) ((void)(f))
void local_irq_disable(void);
void local_irq_enable(void);

struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD(n) struct list_head n = { &(n), &(n) }
void INIT_LIST_HEAD(struct list_head *l);
void list_add(struct list_head *n, struct list_head *h);
void list_add_tail(struct list_head *n, struct list_head *h);
void list_del(struct list_head *e);
void list_del_init(struct list_head *e);
int list_empty(const struct list_head *h);
#define list_entry(p, t, m) container_of(p, t, m)

int printk(const char *fmt, ...);
void panic(const char *fmt, ...);
void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
char *strcpy(char *d, const char *s);
int sprintf(char *b, const char *fmt, ...);
int snprintf(char *b, size_t n, const char *fmt, ...);
void *kmalloc(size_t n, gfp_t f);
void *kzalloc(size_t n, gfp_t f);
void kfree(const void *p);
void *vmalloc(unsigned long n);
void vfree(const void *p);
void udelay(unsigned long us);
void mdelay(unsigned long ms);
void msleep(unsigned int ms);
void schedule(void);
extern unsigned long volatile jiffies;

struct module;
struct device { void *driver_data; };
struct page;
struct inode;
struct file;
struct kobject;

/* interrupts, timers, tasklets, work */
typedef irqreturn_t (*irq_handler_t)(int, void *);
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev);
void free_irq(unsigned int irq, void *dev);
void disable_irq(unsigned int irq);
void enable_irq(unsigned int irq);

struct timer_list {
	struct list_head entry;
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
};
void init_timer(struct timer_list *t);
void setup_timer(struct timer_list *t, void (*fn)(unsigned long), unsigned long data);
void add_timer(struct timer_list *t);
int mod_timer(struct timer_list *t, unsigned long expires);
int del_timer(struct timer_list *t);
int del_timer_sync(struct timer_list *t);

struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	void (*func)(unsigned long);
	unsigned long data;
};
void tasklet_init(struct tasklet_struct *t, void (*fn)(unsigned long), unsigned long data);
void tasklet_schedule(struct tasklet_struct *t);
void tasklet_kill(struct tasklet_struct *t);
#define DECLARE_TASKLET(name, fn, data) \
	struct tasklet_struct name = { NULL, 0, fn, data }

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct { unsigned long data; struct list_head entry; work_func_t func; };
struct delayed_work { struct work_struct work; struct timer_list timer; };
struct workqueue_struct;
void INIT_WORK(struct work_struct *w, work_func_t fn);
void __blkmig_init_delayed_work(struct delayed_work *w, work_func_t fn);
#define INIT_DELAYED_WORK(w, fn) __blkmig_init_delayed_work(w, fn)
#define DECLARE_WORK(n, f) struct work_struct n = { 0, { 0, 0 }, f }
int schedule_work(struct work_struct *w);
int schedule_delayed_work(struct delayed_work *w, unsigned long delay);
int queue_work(struct workqueue_struct *wq, struct work_struct *w);
void flush_scheduled_work(void);
struct workqueue_struct *create_workqueue(const char *name);
void destroy_workqueue(struct workqueue_struct *wq);

struct completion { unsigned int done; };
void init_completion(struct completion *c);
void complete(struct completion *c);
void wait_for_completion(struct completion *c);

struct semaphore { int count; };
void down(struct semaphore *s);
void up(struct semaphore *s);
struct mutex { int count; };
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* bios */
struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};
struct bio {
	sector_t bi_sector;
	struct bio *bi_next;
	unsigned long bi_flags;
	unsigned long bi_rw;
	unsigned short bi_vcnt;
	unsigned short bi_idx;
	unsigned int bi_size;
	struct bio_vec *bi_io_vec;
	void *bi_private;
};
#define bio_data_dir(bio) ((bio)->bi_rw & 1)
#define bio_for_each_segment(bvl, bio, i) \
	for (i = (bio)->bi_idx; (bvl = (bio)->bi_io_vec + i), i < (bio)->bi_vcnt; i++)
void *bio_data(struct bio *bio);
void bio_endio(struct bio *bio, int error); /* 2.6.24: the whole bio, error 0 or -errno */
void *page_address(struct page *page);
void *kmap(struct page *page);
void kunmap(struct page *page);
void *kmap_atomic(struct page *page, int type);
void kunmap_atomic(void *addr, int type);

/* block layer, 2.6.24 */
struct request_queue;
typedef struct request_queue request_queue_t;
struct request;
struct gendisk;
struct block_device;
struct hd_geometry {
	unsigned char heads;
	unsigned char sectors;
	unsigned short cylinders;
	unsigned long start;
};
typedef void (request_fn_proc)(struct request_queue *q);
typedef void (rq_end_io_fn)(struct request *rq, int error);

enum rq_cmd_type_bits {
	REQ_TYPE_FS = 1,
	REQ_TYPE_BLOCK_PC,
	REQ_TYPE_SENSE,
	REQ_TYPE_PM_SUSPEND,
	REQ_TYPE_PM_RESUME,
	REQ_TYPE_PM_SHUTDOWN,
	REQ_TYPE_FLUSH,
	REQ_TYPE_SPECIAL,
	REQ_TYPE_LINUX_BLOCK,
	REQ_TYPE_ATA_CMD,
	REQ_TYPE_ATA_TASK,
	REQ_TYPE_ATA_TASKFILE,
	REQ_TYPE_ATA_PC,
};

#define REQ_RW (1 << 0)
#define REQ_FAILFAST (1 << 1)
#define REQ_SORTED (1 << 2)
#define REQ_STARTED (1 << 7)
#define REQ_QUIET (1 << 11)
#define REQ_PREEMPT (1 << 12)
#define BLK_MAX_CDB 16

struct request {
	struct list_head queuelist;
	struct list_head donelist;
	struct request_queue *q;
	unsigned int cmd_flags;
	enum rq_cmd_type_bits cmd_type;
	sector_t sector;
	sector_t hard_sector;
	unsigned long nr_sectors;
	unsigned long hard_nr_sectors;
	unsigned int current_nr_sectors;
	unsigned int hard_cur_sectors;
	struct bio *bio;
	struct bio *biotail;
	void *elevator_private;
	void *completion_data;
	int rq_status;
	int errors;
	struct gendisk *rq_disk;
	unsigned long start_time;
	unsigned short nr_phys_segments;
	unsigned short nr_hw_segments;
	unsigned short ioprio;
	void *special;
	char *buffer;
	int tag;
	int ref_count;
	unsigned int cmd_len;
	unsigned char cmd[BLK_MAX_CDB];
	unsigned int data_len;
	unsigned int sense_len;
	void *data;
	void *sense;
	unsigned int timeout;
	int retries;
	rq_end_io_fn *end_io;
	void *end_io_data;
	struct request *next_rq;
};

struct request_queue {
	struct list_head queue_head;
	struct request *last_merge;
	request_fn_proc *request_fn;
	void *queuedata;
	unsigned long queue_flags;
	spinlock_t __queue_lock;
	spinlock_t *queue_lock;
	unsigned int max_sectors;
	unsigned short hardsect_size;
};

struct block_device_operations {
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
	int (*ioctl)(struct inode *, struct file *, unsigned, unsigned long);
	int (*media_changed)(struct gendisk *);
	int (*revalidate_disk)(struct gendisk *);
	int (*getgeo)(struct block_device *, struct hd_geometry *);
	struct module *owner;
};

/* per-disk statistics: the macros name a field, as 2.6.24's do */
struct disk_stats {
	unsigned long sectors[2], ios[2], merges[2], ticks[2];
	unsigned long io_ticks, time_in_queue;
};

struct gendisk {
	struct disk_stats dkstats;
	int major;
	int first_minor;
	int minors;
	char disk_name[32];
	struct block_device_operations *fops;
	struct request_queue *queue;
	void *private_data;
	int flags;
	struct device *driverfs_dev;
};

struct block_device { struct gendisk *bd_disk; void *bd_inode; };
struct inode { struct block_device *i_bdev; unsigned long i_rdev; };

#define blk_fs_request(rq) ((rq)->cmd_type == REQ_TYPE_FS)
#define blk_pc_request(rq) ((rq)->cmd_type == REQ_TYPE_BLOCK_PC)
#define blk_special_request(rq) ((rq)->cmd_type == REQ_TYPE_SPECIAL)
#define blk_sense_request(rq) ((rq)->cmd_type == REQ_TYPE_SENSE)
#define blk_rq_started(rq) ((rq)->cmd_flags & REQ_STARTED)
#define blk_rq_tagged(rq) ((rq)->cmd_flags & 0)
#define rq_data_dir(rq) ((rq)->cmd_flags & 1)
#define READ 0
#define WRITE 1
#define rq_for_each_bio(_bio, rq) \
	if ((rq->bio)) for (_bio = (rq)->bio; _bio; _bio = _bio->bi_next)

struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock);
struct request_queue *blk_init_queue_node(request_fn_proc *rfn, spinlock_t *lock, int node);
struct request_queue *blk_alloc_queue(gfp_t gfp);
void blk_cleanup_queue(struct request_queue *q);
struct request *elv_next_request(struct request_queue *q);
void blkdev_dequeue_request(struct request *req);
void blk_requeue_request(struct request_queue *q, struct request *rq);
void blk_start_queue(struct request_queue *q);
void blk_stop_queue(struct request_queue *q);
void blk_plug_device(struct request_queue *q);
void blk_queue_hardsect_size(struct request_queue *q, unsigned short size);
void blk_queue_max_sectors(struct request_queue *q, unsigned int n);
void blk_queue_max_phys_segments(struct request_queue *q, unsigned short n);
void blk_queue_max_hw_segments(struct request_queue *q, unsigned short n);
void blk_queue_max_segment_size(struct request_queue *q, unsigned int n);
void blk_queue_bounce_limit(struct request_queue *q, u64 limit);
int blk_queue_init_tags(struct request_queue *q, int depth, void *tags);
int blk_queue_start_tag(struct request_queue *q, struct request *rq);
void blk_queue_end_tag(struct request_queue *q, struct request *rq);
struct request *blk_queue_find_tag(struct request_queue *q, int tag);
struct request *blk_get_request(struct request_queue *q, int rw, gfp_t gfp);
void blk_put_request(struct request *rq);
void blk_execute_rq(struct request_queue *q, struct gendisk *d, struct request *rq, int at_head);
void blk_execute_rq_nowait(struct request_queue *q, struct gendisk *d, struct request *rq,
			   int at_head, rq_end_io_fn *done);
int blk_rq_map_sg(struct request_queue *q, struct request *rq, void *sg);
void blk_complete_request(struct request *rq);
void blk_queue_softirq_done(struct request_queue *q, void (*fn)(struct request *));
int register_blkdev(unsigned int major, const char *name);
void unregister_blkdev(unsigned int major, const char *name);
struct gendisk *alloc_disk(int minors);
void add_disk(struct gendisk *disk);
void del_gendisk(struct gendisk *disk);
void put_disk(struct gendisk *disk);
void set_capacity(struct gendisk *disk, sector_t size);
sector_t get_capacity(struct gendisk *disk);
void set_disk_ro(struct gendisk *disk, int flag);
void add_disk_randomness(struct gendisk *disk);
#define disk_stat_add(gendiskp, field, addnd) ((gendiskp)->dkstats.field += (addnd))
#define disk_stat_inc(gendiskp, field) disk_stat_add(gendiskp, field, 1)
#define disk_stat_read(gendiskp, field) ((gendiskp)->dkstats.field)

/* the 2.6.24 completion API */
int end_that_request_first(struct request *rq, int uptodate, int nr_sectors);
int end_that_request_chunk(struct request *rq, int uptodate, int nr_bytes);
void end_that_request_last(struct request *rq, int uptodate);
void end_request(struct request *rq, int uptodate);
void end_queued_request(struct request *rq, int uptodate);
void end_dequeued_request(struct request *rq, int uptodate);

/* the 2.6.25 completion API (for verify) */
int blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int blk_end_request_callback(struct request *rq, int error, unsigned int nr_bytes,
			     int (*drv_callback)(struct request *));
unsigned int blk_rq_bytes(struct request *rq);
unsigned int blk_rq_cur_bytes(struct request *rq);

/* misc I/O */
unsigned char inb(unsigned long port);
void outb(unsigned char v, unsigned long port);
unsigned int readl(const volatile void __iomem *addr);
void writel(unsigned int v, volatile void __iomem *addr);
void *ioremap(unsigned long off, unsigned long size);
void iounmap(void *addr);
int copy_to_user(void __user *to, const void *from, unsigned long n);
int copy_from_user(void *to, const void __user *from, unsigned long n);
int capable(int cap);
#define CAP_SYS_ADMIN 21

/* the legacy AT disk interface (linux/hdreg.h, linux/major.h): drivers/ide/legacy/hd.c */
#define HD_IRQ 14
#define IDE0_MAJOR 3
#define HD_MAJOR IDE0_MAJOR
#define WIN_RECAL 0x10
#define WIN_RESTORE WIN_RECAL
#define WIN_READ 0x20
#define WIN_WRITE 0x30
#define WIN_SPECIFY 0x91
/* boot options: nothing in a module (linux/init.h) */
#define __setup(str, fn)

#endif
