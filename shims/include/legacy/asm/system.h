/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <asm/system.h> of 2.6.24 for legacy drivers: 3.4 split it; barriers and
 * interrupt flags are where it used to pull them from.
 */
#include <asm/barrier.h>
#include <linux/irqflags.h>
