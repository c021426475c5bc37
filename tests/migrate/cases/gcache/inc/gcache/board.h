/* board.h - what both gcache drivers include (no GC_BOARD_ID: a parse error in each) */
#define GC_BOARD_NAME "gcache"
