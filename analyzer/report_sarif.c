/* report_sarif.c - placeholder */
#include "site.h"
int bm_report_sarif(const struct bm_run *run, FILE *out) { (void)run; (void)out; return 0; }
