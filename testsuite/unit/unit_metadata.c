/*
 * unit_metadata.c - metadata.c's reading of a debuginfod metadata answer:
 * the results with their escapes, the optional archive, members that are
 * not strings skipped, results without a type or build-id dropped, and
 * malformed answers refused.
 */
#include <string.h>

#include "metadata.h"
#include "unit.h"

static void check_answer(void)
{
	struct vec out = {0};
	CHECK(metadata_parse("{ \"results\": [ { \"type\": \"executable\", \"buildid\": \"ab01\", "
			     "\"file\": \"\\/usr\\/bin\\/curl\" }, { \"type\": \"debuginfo\", \"buildid\": \"ab01\", "
			     "\"file\": \"\\/usr\\/bin\\/curl\", \"archive\": \"\\/r\\/curl \\\"1\\\".deb\", \"size\": 12, "
			     "\"ok\": true }, { \"file\": \"\\/no\\/buildid\" } ], \"complete\": true }", &out));
	CHECK(out.n == 2);
	if (out.n != 2)
		return;
	const struct metadata_file *a = out.items[0], *b = out.items[1];
	CHECK_STR(a->type, "executable");
	CHECK_STR(a->buildid, "ab01");
	CHECK_STR(a->file, "/usr/bin/curl");
	CHECK(a->archive == NULL);
	CHECK_STR(b->type, "debuginfo");
	CHECK_STR(b->archive, "/r/curl \"1\".deb");
}

static void check_refused(void)
{
	static const char *const bad[] = {
		"", "{}", "{ \"results\": 3 }", "{ \"results\": [ { \"type\": \"executable\" ",
		"{ \"results\": [ { \"type\": \"exe", "{ \"results\": [ { \"type\" \"x\" } ] }",
		"{ \"results\": [ { \"type\": \"\\u00", "{ \"results\": [ 1, 2 ] }",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct vec out = {0};
		CHECK(!metadata_parse(bad[i], &out));
	}
	struct vec none = {0};
	CHECK(metadata_parse("{\"results\":[],\"complete\":false}", &none) && none.n == 0);
}

int main(void)
{
	check_answer();
	check_refused();
	return unit_report("unit_metadata");
}
