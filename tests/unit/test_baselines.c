// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_baselines.c - unit tests of the baseline rows' pure parts: reading
 * the stack-drop rule's counter from nft's JSON (a listing as nft 1.0.6,
 * Debian 12, prints it for the rule xl_nft_drop__create() makes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>

#include "xdplab/nft.h"

/* `nft -j list chain inet xdplab_4242 pre` after 1234567 dropped 64-byte frames. */
static const char listing[] =
	"{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\", \"release_name\": \"Lester Gooch #5\", "
	"\"json_schema_version\": 1}}, {\"chain\": {\"family\": \"inet\", \"table\": \"xdplab_4242\", "
	"\"name\": \"pre\", \"handle\": 1, \"type\": \"filter\", \"hook\": \"prerouting\", \"prio\": -300, "
	"\"policy\": \"accept\"}}, {\"rule\": {\"family\": \"inet\", \"table\": \"xdplab_4242\", "
	"\"chain\": \"pre\", \"handle\": 2, \"expr\": [{\"match\": {\"op\": \"==\", \"left\": "
	"{\"payload\": {\"protocol\": \"udp\", \"field\": \"dport\"}}, \"right\": 9}}, "
	"{\"counter\": {\"packets\": 1234567, \"bytes\": 79012288}}, {\"drop\": null}]}}]}";

static void test_counter_parse(void **state)
{
	uint64_t p = 0, b = 0;

	assert_int_equal(xl_nft_counter_parse(listing, &p, &b), 0);
	assert_int_equal(p, 1234567);
	assert_int_equal(b, 79012288);
}

static void test_counter_parse_bad(void **state)
{
	uint64_t p = 7, b = 7;

	/* Not JSON, no rule, a rule without a counter, two counters, NULL. */
	assert_int_equal(xl_nft_counter_parse("counter packets 5 bytes 6", &p, &b), -EPROTO);
	assert_int_equal(xl_nft_counter_parse("{\"nftables\": [{\"metainfo\": {}}]}", &p, &b), -EPROTO);
	assert_int_equal(xl_nft_counter_parse("{\"nftables\": [{\"rule\": {\"expr\": [{\"drop\": null}]}}]}",
					      &p, &b), -EPROTO);
	assert_int_equal(xl_nft_counter_parse("{\"nftables\": [{\"rule\": {\"expr\": ["
					      "{\"counter\": {\"packets\": 1, \"bytes\": 2}}]}}, "
					      "{\"rule\": {\"expr\": [{\"counter\": {\"packets\": 3, \"bytes\": 4}}]}}]}",
					      &p, &b), -EPROTO);
	assert_int_equal(xl_nft_counter_parse(NULL, &p, &b), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_parse),
		cmocka_unit_test(test_counter_parse_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
