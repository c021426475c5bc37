/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/hdreg.h - the kernel half of 2.6.24's <linux/hdreg.h>.
 *
 * 6.x keeps only the user-space half of that header, where the WIN_*
 * names of the ATA commands are hidden from the kernel; the kernel
 * spells them ATA_CMD_* (<linux/ata.h>).  Here are the ones block drivers
 * of the time issued, by those names, and HD_IRQ, the interrupt line of
 * the PC's first disk controller.
 */
#ifndef _BLKCOMPAT_LEGACY_HDREG_H
#define _BLKCOMPAT_LEGACY_HDREG_H

#include <linux/ata.h>
#include <linux/hdreg.h>

#ifndef HD_IRQ
#define HD_IRQ		14
#endif

#ifndef WIN_READ
#define WIN_RECAL		ATA_CMD_RESTORE
#define WIN_RESTORE		ATA_CMD_RESTORE
#define WIN_READ		ATA_CMD_PIO_READ
#define WIN_READ_EXT		ATA_CMD_PIO_READ_EXT
#define WIN_WRITE		ATA_CMD_PIO_WRITE
#define WIN_WRITE_EXT		ATA_CMD_PIO_WRITE_EXT
#define WIN_VERIFY		ATA_CMD_VERIFY
#define WIN_SPECIFY		ATA_CMD_INIT_DEV_PARAMS
#define WIN_MULTREAD		ATA_CMD_READ_MULTI
#define WIN_MULTWRITE		ATA_CMD_WRITE_MULTI
#define WIN_SETMULT		ATA_CMD_SET_MULTI
#define WIN_IDENTIFY		ATA_CMD_ID_ATA
#define WIN_FLUSH_CACHE		ATA_CMD_FLUSH
#endif

#endif /* _BLKCOMPAT_LEGACY_HDREG_H */
