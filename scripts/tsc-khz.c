// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz - the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW: the median of 5 rounds of 50 ms. Under TCG the
 * guest's rdtsc reads the host's TSC, so this is what the guest kernel
 * finds when its calibration against the PIT works; qemu.sh gives it to
 * the guest as tsc_early_khz, so that a failed calibration (1 boot in 12
 * under TCG) cannot leave the guest's clock on jiffies. Prints nothing and
 * exits 1 on a host without a TSC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

#define ROUNDS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	const struct timespec gap = { 0, 50 * 1000 * 1000 };
	double khz[ROUNDS];

	for (int i = 0; i < ROUNDS; i++) {
		double t0 = now();
		unsigned long long c0 = __rdtsc();

		nanosleep(&gap, NULL);
		khz[i] = (__rdtsc() - c0) / (now() - t0) / 1000;
	}
	qsort(khz, ROUNDS, sizeof(khz[0]), cmp);
	printf("%.0f\n", khz[ROUNDS / 2]);
	return 0;
}
#else
int main(void)
{
	return 1;
}
#endif
