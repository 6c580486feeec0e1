// SPDX-License-Identifier: GPL-2.0
/* The example filter with a deliberate extra trie lookup per IPv4 frame. */
#define XL_EXTRA_LOOKUP 1
#include "ddos_filter.bpf.c"
