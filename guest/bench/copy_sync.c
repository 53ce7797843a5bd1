// SPDX-License-Identifier: GPL-2.0
/*
 * copy_sync - the user's case: copy a file to the slow disk (the USB stick),
 * then wait for it to be on the disk. One task writes ARG MiB (default 64;
 * quick: 16) to /mnt/slow in 64 KiB write()s as fast as the kernel lets it,
 * as cp does, and exits; then syncfs() on the disk's filesystem, what a
 * umount waits for. Figures: how long the copy took, how long the sync took
 * after it (the wait "after 100 %"), the total, and the dirty and writeback
 * pages the disk held as the copy ended (its bdi's, kB). The disk is idle
 * and synced before the copy starts. With ARG its figures are apart, as
 * copy_sync_<ARG>. ARG umount: 256 MiB (quick: 16), and the disk is
 * unmounted instead of synced, as a user does before pulling the stick
 * (umount_after_copy_s, copy_and_umount_s), then mounted again and the
 * copy read back from it; only on the guest's own disk (/dev/pddt/slow).
 */
#define _GNU_SOURCE
#include "bench.h"
#include "pddt.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_PATH	"/mnt/slow/copy_sync.dat"
#define SEED		0xc0b1

int main(int argc, char **argv)
{
	struct pddt_wb_sample d;
	double t0, t1, t2, umount_s;
	uint64_t off = 0;
	struct bench b;
	int fd, unmount;
	long mib;

	bench_init_apart(&b, "copy_sync", argc, argv);
	unmount = b.arg && !strcmp(b.arg, "umount");
	if (unmount)
		mib = (long)bench_len(&b, 256, 16);
	else
		mib = b.arg ? atol(b.arg) : (long)bench_len(&b, 64, 16);
	if (mib < 1 || mib > 4096)
		pddt_die("copy_sync: ARG must be umount or MiB 1..4096, not '%s'", b.arg);
	if (unmount && access("/dev/pddt/slow", F_OK))
		pddt_die("copy_sync: umount only on the guest's disk, and there is no /dev/pddt/slow");
	unlink(FILE_PATH);
	sync();
	fd = open(FILE_PATH, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		pddt_die("copy_sync: cannot create %s", FILE_PATH);
	t0 = pddt_now();
	if (pddt_write_burst(fd, (size_t)mib << 20, SEED, &off) < 0)
		pddt_die("copy_sync: write to %s failed", FILE_PATH);
	close(fd);
	t1 = pddt_now();
	if (pddt_wb_sample("/mnt/slow", 0, &d))
		pddt_die("copy_sync: no bdi stats for /mnt/slow");
	if (unmount) {
		t2 = pddt_now();
		if (pddt_disk_remount("slow", &umount_s))
			pddt_die("copy_sync: umount or mount of /mnt/slow failed: %m");
		t2 += umount_s;	/* when umount() returned */
	} else {
		fd = open("/mnt/slow", O_RDONLY | O_DIRECTORY);
		if (fd < 0 || syncfs(fd))
			pddt_die("copy_sync: syncfs of /mnt/slow failed");
		close(fd);
		t2 = pddt_now();
	}
	bench_metric(&b, "copy_s", t1 - t0, "s");
	bench_metric(&b, unmount ? "umount_after_copy_s" : "sync_after_copy_s", t2 - t1, "s");
	bench_metric(&b, unmount ? "copy_and_umount_s" : "copy_and_sync_s", t2 - t0, "s");
	bench_metric(&b, "dirty_at_copy_end", d.dirty, "kB");
	bench_verify(&b, "copy", FILE_PATH, SEED);
	unlink(FILE_PATH);
	return 0;
}
