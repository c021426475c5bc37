/* report_json.c - placeholder */
#include "site.h"
int bm_report_json(const struct bm_run *run, FILE *out) { (void)run; (void)out; return 0; }
