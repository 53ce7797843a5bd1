# Per-device dirty throttling for Linux 6.12: build, boot, test, bench.
# Every target does its own set-up (apt) on a fresh Debian 12 machine.
# `make help` lists the targets and the variables.

PATCHES ?= series
CONFIG ?=
DISKS ?= fast:100M slow:4M fast2:100M slow2:4M
TIMEOUT ?=
MEM ?= 1024
SMP ?= 2
TESTS ?=
CMD ?=
APPEND ?=
QUICK ?= 0
FULL ?= 0
FIO ?=
KCONFIG ?=
# CMD is shell text for the guest: kept as written (make would expand $x).
override CMD := $(value CMD)
export PATCHES CONFIG DISKS TIMEOUT MEM SMP TESTS CMD APPEND QUICK FULL FIO KCONFIG

S := scripts

help:
	@echo 'Targets:'
	@echo '  make test        the test suite (what CI runs): harness self-tests, then'
	@echo '                   the base kernel with every in-guest test and the debug'
	@echo '                   kernel with a bounded subset, each built, booted, KUnit'
	@echo '                   and splats checked; ends "N passed, M failed"'
	@echo '  make test CONFIG=debug  every in-guest test on the debug kernel (lockdep,'
	@echo '                   KASAN, kmemleak, fault injection)'
	@echo '  make kernel      build the kernel; the last line is the bzImage path'
	@echo '  make initramfs   build the guest programs and the initramfs'
	@echo '  make run         boot with the disks and a shell on the serial console'
	@echo "  make run CMD='…' run one command in the guest, then power off"
	@echo '  make selftest    only the harness self-tests (canned logs, bad input)'
	@echo '  make fieldkit    build/fieldkit/pddt-field.tar.gz: the scenarios for'
	@echo '                   testers with real disks (field/README.md)'
	@echo '  make deb         build/deb/*.deb: installable packages of the patched'
	@echo '                   kernel for testers (x86_64_defconfig, or KCONFIG=FILE,'
	@echo '                   e.g. /boot/config-$$(uname -r)); not part of make test'
	@echo '  make check-series  checkpatch --strict, every prefix builds, no new'
	@echo '                   W=1/sparse warnings (slow: builds each prefix)'
	@echo '  make bench       the bench: scenarios off vs on in one boot, 3 reps;'
	@echo '                   results/<run>/report.md with plots (the default plan,'
	@echo '                   at most 30 min; FULL=1: every scenario; QUICK=1: short)'
	@echo '  make clean       remove build/ (the ccache stays)'
	@echo 'Variables:'
	@echo '  PATCHES=series|none  patches/series applied, or stock 6.12 (default series)'
	@echo '  CONFIG=NAME          config variant: config/base.config + config/NAME.config'
	@echo '                       (have: $(basename $(notdir $(wildcard config/*.config))));'
	@echo '                       default base, and for make test base then debug'
	@echo '  DISKS="NAME:WRITE_BPS[:SIZE[:FS]] ..."  (default "$(DISKS)")'
	@echo '                       e.g. fast:100M = 100 MiB/s; 0 = unthrottled; FS ext4|raw'
	@echo '  TESTS="GLOB ..."     run only the in-guest tests matching (default all)'
	@echo '  TIMEOUT=SECONDS      host-side bound on one boot (default 1800; debug 3600, bench 5400, its full plan 10800)'
	@echo '  MEM=MiB SMP=N        guest memory and vCPUs (default $(MEM), $(SMP))'
	@echo '  APPEND="..."         extra kernel command line'
	@echo '  QUICK=0|1            make bench: the short plan (1 rep, shorter runs)'
	@echo '  FULL=0|1             make bench: the full plan (every scenario and profile)'
	@echo '  KCONFIG=FILE         make deb: the configuration to start from'

test:
	@$(S)/test.sh

kernel:
	@$(S)/kernel.sh

initramfs:
	@$(S)/deps.sh test && $(S)/tree.sh >/dev/null && $(S)/initramfs.sh

run:
	@$(S)/run.sh

check-series:
	@$(S)/check-series.sh

selftest:
	@$(S)/deps.sh test && $(S)/tree.sh && tests/harness/run.sh results/selftest.tsv && \
		awk -F'\t' '{ s[$$2]++ } END { printf "%d passed, %d failed\n", s["PASS"], s["FAIL"]; exit s["FAIL"] > 0 }' results/selftest.tsv

bench:
	@$(S)/bench.sh

fieldkit:
	@$(S)/deps.sh test && $(S)/fieldkit.sh

deb:
	@$(S)/deb.sh

clean:
	rm -rf build

Makefile: ;

.DEFAULT:
	@echo "make: unknown target '$@'" >&2; $(MAKE) -s help >&2; exit 2

.PHONY: help test kernel initramfs run selftest check-series bench fieldkit deb clean
