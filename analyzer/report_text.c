/* report_text.c - placeholder */
#include "site.h"
int bm_report_text(const struct bm_run *run, FILE *out) { (void)run; (void)out; return 0; }
