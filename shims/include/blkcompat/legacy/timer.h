/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/timer.h - 2.6.24 timers: a function taking unsigned long.
 *
 * Owns struct blkcompat_lv_timer and init_timer(), setup_timer(),
 * add_timer(), mod_timer(), del_timer(), del_timer_sync() and
 * timer_pending() on it.  Until 4.15 a timer called
 * function(data) with both set by the driver and the expiry in ->expires;
 * 6.x passes the timer itself.  The real timer is embedded and its
 * callback calls the driver's function with its data.  Entirely inline:
 * nothing of it is in blkcompat.ko.
 *
 * Drivers never name this struct: <blkcompat/legacy/view.h> renames their
 * "struct timer_list" to it.
 */
#ifndef _BLKCOMPAT_LEGACY_TIMER_H
#define _BLKCOMPAT_LEGACY_TIMER_H

#include <linux/timer.h>

/**
 * struct blkcompat_lv_timer - a timer as a 2.6.24 driver sees it
 * @timer: the real timer
 * @expires: when add_timer() makes it fire, in jiffies
 * @function: the driver's function
 * @data: its argument
 */
struct blkcompat_lv_timer {
	struct timer_list timer;
	unsigned long expires;
	void (*function)(unsigned long data);
	unsigned long data;
};

static inline void blkcompat_lv_timer_fire(struct timer_list *t)
{
	struct blkcompat_lv_timer *lt = from_timer(lt, t, timer);

	lt->function(lt->data);
}

static inline void blkcompat_lv_init_timer(struct blkcompat_lv_timer *lt)
{
	timer_setup(&lt->timer, blkcompat_lv_timer_fire, 0);
	lt->function = NULL;
	lt->data = 0;
}

static inline void blkcompat_lv_setup_timer(struct blkcompat_lv_timer *lt,
					    void (*function)(unsigned long),
					    unsigned long data)
{
	blkcompat_lv_init_timer(lt);
	lt->function = function;
	lt->data = data;
}

static inline void blkcompat_lv_add_timer(struct blkcompat_lv_timer *lt)
{
	lt->timer.expires = lt->expires;
	add_timer(&lt->timer);
}

static inline int blkcompat_lv_mod_timer(struct blkcompat_lv_timer *lt,
					 unsigned long expires)
{
	lt->expires = expires;
	return mod_timer(&lt->timer, expires);
}

static inline int blkcompat_lv_del_timer(struct blkcompat_lv_timer *lt)
{
	return del_timer(&lt->timer);
}

static inline int blkcompat_lv_del_timer_sync(struct blkcompat_lv_timer *lt)
{
	return del_timer_sync(&lt->timer);
}

static inline int blkcompat_lv_timer_pending(const struct blkcompat_lv_timer *lt)
{
	return timer_pending(&lt->timer);
}

#endif /* _BLKCOMPAT_LEGACY_TIMER_H */
