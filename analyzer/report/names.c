/*
 * names.c - the stable names of patterns, states and reason codes used by
 * every report writer (analyzer/REPORT.md).
 */
#include <string.h>

#include "site.h"

static const struct {
	const char *name, *title;
} patterns[BM_PAT_COUNT] = {
    [BM_PAT_FIRST_LAST_HELD] = {"first_last_held",
				"first/last pair under the queue lock -> __blk_end_request"},
    [BM_PAT_FIRST_LAST_UNLOCKED] = {"first_last_unlocked",
				    "first/last pair, lock only around last -> blk_end_request"},
    [BM_PAT_EARLY_RETURN] = {"early_return",
			     "if (end_that_request_first()) return; ... end_that_request_last()"},
    [BM_PAT_RESULT_USED] = {"result_used", "result of the data completion kept or looped on"},
    [BM_PAT_CHUNK] = {"chunk", "end_that_request_chunk (byte count)"},
    [BM_PAT_WHOLE_REQUEST] = {"whole_request",
			      "whole request completed, result ignored, then last"},
    [BM_PAT_LAST_ONLY] = {"last_only", "end_that_request_last with no data completion before it"},
    [BM_PAT_END_REQUEST] = {"end_request",
			    "end_request / end_queued_request / end_dequeued_request"},
    [BM_PAT_CALLBACK] = {"callback", "work between first and last -> blk_end_request_callback"},
    [BM_PAT_WRAPPER_PARAM] = {"wrapper_param", "wrapper whose parameter is the uptodate value"},
    [BM_PAT_UNCLASSIFIED] = {"unclassified", "legacy call in a shape the catalogue does not cover"},
};

const char *bm_pattern_name(enum bm_pattern p)
{
	return p < BM_PAT_COUNT ? patterns[p].name : "unclassified";
}

const char *bm_pattern_title(enum bm_pattern p)
{
	return p < BM_PAT_COUNT ? patterns[p].title : "";
}

const char *bm_lock_name(enum bm_lock_state l)
{
	return l == BM_LOCK_HELD ? "held" : l == BM_LOCK_NOT_HELD ? "not_held" : "unknown";
}

const char *bm_uptodate_class_name(enum bm_uptodate_class c)
{
	switch (c) {
	case BM_UT_CONSTANT: return "constant";
	case BM_UT_BOOLEAN: return "boolean";
	case BM_UT_ERRNO: return "errno_capable";
	case BM_UT_WRAPPER: return "wrapper_param";
	case BM_UT_NONE: return "none";
	default: return "unknown";
	}
}

const char *bm_parse_status_name(enum bm_parse_status s)
{
	switch (s) {
	case BM_PARSE_OK: return "ok";
	case BM_PARSE_PARTIAL: return "partial";
	case BM_PARSE_FAILED: return "failed";
	default: return "skipped";
	}
}

const char *bm_finding_kind_name(enum bm_finding_kind k)
{
	switch (k) {
	case BM_FIND_LEGACY_CALL: return "legacy_call";
	case BM_FIND_UNLOCKED_VARIANT_WITH_LOCK: return "unlocked_variant_with_lock_held";
	case BM_FIND_PREEXISTING_LOCK_BUG: return "preexisting_lock_bug";
	case BM_FIND_PREEXISTING_UNENDED: return "preexisting_unended_request";
	default: return "locked_variant_without_lock";
	}
}

static const struct {
	const char *code, *text;
} reasons[] = {
    {"lock_unknown", "cannot tell whether the queue lock is held"},
    {"lock_mixed", "the queue lock is held on some paths to the call and not on others"},
    {"lock_not_held",
     "the old final step (end_request, end_that_request_last, ...; a data completion never) "
     "required the queue lock, but it is not held there (a driver locking bug)"},
    {"rq_used_after_completion",
     "a statement after the call reads the request, which may be freed"},
    {"last_may_have_data", "end_that_request_last alone, and the request may still hold bios"},
    {"work_not_movable",
     "work between first and last uses locals or the lock; cannot become a callback"},
    {"wrapper_external_callers", "non-static wrapper with callers outside the run"},
    {"uptodate_unknown", "cannot tell what the uptodate value means"},
    {"bytes_unknown", "cannot tell whether the count is sectors or bytes"},
    {"macro", "the call is inside a macro"},
    {"unparsed", "the code around the call could not be parsed"},
    {"shape", "a legacy call in a shape the catalogue does not cover"},
    {"compat_branch",
     "code for kernels before 2.6.25 only, or the file's own version of the API: kept as it is"},
    {"multi_version", "the file also builds for kernels before 2.6.25, which lack the new call"},
    {"conflicting_edits", "two sites' rewrites overlap in the file; the file is left untouched"},
    {"file_not_writable", "the file cannot be replaced safely; it is left untouched"},
    {"verify_failed",
     "blkmig verify found a lock-variant problem in the converted file; it is left untouched"},
    {"tools_disagree",
     "spatch converted a site the analyzer holds unsafe; the file is left untouched"},
    {"partial_file",
     "other legacy calls of the file need a human; the file is left whole, never half converted"},
    {"timeout",
     "the file's analysis or spatch's run on it took longer than --timeout; left untouched"},
    {"resource_limit",
     "the file's parse needed more memory than --parse-memory; the file is left untouched"},
    {"spatch_output_rejected",
     "spatch changed the file outside its sites and what their conversion may touch, or its "
     "result has parse errors where the original has none; the file is left untouched"},
    {"rewrite_not_confined",
     "the analyzer's own rewrite reached outside the sites and what their conversion may "
     "touch (a blkmig bug); the file is left untouched"},
};

/* The i-th reason code of the catalogue above (NULL past the end), for writers that list
 * them all (SARIF rules). */
const char *bm_reason_code_at(size_t i)
{
	return i < sizeof(reasons) / sizeof(reasons[0]) ? reasons[i].code : NULL;
}

const char *bm_reason_description(const char *code)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strcmp(reasons[i].code, code))
			return reasons[i].text;
	return "";
}
