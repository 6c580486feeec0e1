// SPDX-License-Identifier: BSD-2-Clause
/* How many CPUs a per-CPU record array holds (xdplab/percpu.h). */
#include <bpf/libbpf.h>

#include "xdplab/percpu.h"

int xl_bench_ncpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

int xl_bench_detail_ncpus(void)
{
	int n = xl_bench_ncpus();

	return n > XL_MAX_CPUS ? XL_MAX_CPUS : n;
}
