/*
 * unit_combine.c - unit tests for migrate_combine.c: which of spatch's change blocks a
 * site owns, undoing only the rejected sites' blocks (with the changes spatch made
 * elsewhere in the same function), refusing when blocks cannot be separated, and the
 * lock contract a rewrite chose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_combine.h"

#include "unit_check.h"

static const char orig[] = "/* two functions */\n"	    /* 1 */
			   "void a(struct request *rq)\n"   /* 2 */
			   "{\n"			    /* 3 */
			   "\tint uptodate;\n"		    /* 4 */
			   "\n"				    /* 5 */
			   "\tuptodate = 1;\n"		    /* 6 */
			   "\tend_request(rq, uptodate);\n" /* 7 */
			   "}\n"			    /* 8 */
			   "\n"				    /* 9 */
			   "void b(struct request *rq)\n"   /* 10 */
			   "{\n"			    /* 11 */
			   "\tend_request(rq, 1);\n"	    /* 12 */
			   "}\n";			    /* 13 */

static const char spatched[] = "/* two functions */\n"
			       "void a(struct request *rq)\n"
			       "{\n"
			       "\tint error;\n"
			       "\n"
			       "\terror = 0;\n"
			       "\t__blk_end_request(rq, error, blk_rq_cur_bytes(rq));\n"
			       "}\n"
			       "\n"
			       "void b(struct request *rq)\n"
			       "{\n"
			       "\t__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));\n"
			       "}\n";

static const char want_b_only[] = "/* two functions */\n"
				  "void a(struct request *rq)\n"
				  "{\n"
				  "\tint uptodate;\n"
				  "\n"
				  "\tuptodate = 1;\n"
				  "\tend_request(rq, uptodate);\n"
				  "}\n"
				  "\n"
				  "void b(struct request *rq)\n"
				  "{\n"
				  "\t__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));\n"
				  "}\n";

static void sites_init(struct combine_site *s, const char *reject_a, const char *reject_b)
{
	memset(s, 0, 2 * sizeof(*s));
	s[0].first = s[0].last = 7;
	s[1].first = s[1].last = 12;
	s[0].reject = (char *)reject_a;
	s[1].reject = (char *)reject_b;
}

int main(void)
{
	struct combine_site s[2];
	char *out;
	size_t len;
	int r;

	sites_init(s, NULL, NULL);
	CHECK("touched/both", combine_mark_touched(orig, sizeof(orig) - 1, spatched,
						   sizeof(spatched) - 1, s, 2) == 0 &&
				  s[0].touched && s[1].touched);

	sites_init(s, NULL, NULL);
	r = combine_revert(orig, sizeof(orig) - 1, spatched, sizeof(spatched) - 1, s, 2, false,
			   &out, &len);
	CHECK("revert/nothing-rejected-nothing-undone", r == 0 && !out);

	/* a's call rejected: its rename of the local goes with it, b's change stays */
	sites_init(s, "unsafe", NULL);
	r = combine_revert(orig, sizeof(orig) - 1, spatched, sizeof(spatched) - 1, s, 2, false,
			   &out, &len);
	CHECK("revert/one-function-undone-with-its-rename",
	      r == 1 && out && len == strlen(want_b_only) && !strcmp(out, want_b_only) &&
		  s[0].reverted && !s[1].reverted);
	free(out);

	/* strict (a wrapper rejected): the rename covers no site, so no separation */
	sites_init(s, "unsafe", NULL);
	r = combine_revert(orig, sizeof(orig) - 1, spatched, sizeof(spatched) - 1, s, 2, true, &out,
			   &len);
	CHECK("revert/strict-refuses-blocks-outside-sites", r == -1 && !out);

	/* a change in a function without sites (a wrapper's caller) cannot be separated */
	{
		static const char o2[] =
		    "void c(void)\n{\n\tfoo(rq, 1);\n}\n"
		    "void d(struct request *rq)\n{\n\tend_request(rq, 1);\n}\n";
		static const char s2[] = "void c(void)\n{\n\tfoo(rq, 0);\n}\n"
					 "void d(struct request *rq)\n{\n"
					 "\t__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));\n}\n";
		struct combine_site one = {.first = 7, .last = 7, .reject = "unsafe"};

		r = combine_revert(o2, sizeof(o2) - 1, s2, sizeof(s2) - 1, &one, 1, false, &out,
				   &len);
		CHECK("revert/change-outside-any-site-function-refuses", r == -1 && !out);
	}

	CHECK("variant/locked",
	      !strcmp(combine_variant("\t__blk_end_request(rq, 0, n);"), "__blk_end_request"));
	CHECK("variant/unlocked",
	      !strcmp(combine_variant("if (blk_end_request(rq, e, n))"), "blk_end_request"));
	CHECK("variant/callback", !strcmp(combine_variant("blk_end_request_callback(rq, e, n, cb)"),
					  "blk_end_request_callback"));
	CHECK("variant/none", combine_variant("end_request(rq, 1);") == NULL);
	CHECK("needs-lock", combine_call_needs_lock("end_request") &&
				combine_call_needs_lock("end_that_request_last") &&
				!combine_call_needs_lock("end_that_request_first"));
	return failed ? 1 : 0;
}
