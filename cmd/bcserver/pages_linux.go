package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// releaseStartupPages unmaps the pages of the program file that starting
// up touched: reading the configuration, ship data, manifests and missions
// runs code and reads tables an idle server never needs again, and the
// kernel maps file pages 64 KiB at a time ("fault-around"), so start-up
// leaves ~15 MB of the file in the process's RSS; an idle server's ticks,
// timers and collections bring back about half of that.
// Only read-only mappings are released (text and read-only data, never the
// writable data segment). Without evict their pages stay in the page cache
// and come back on first use as minor faults; with evict (release) they
// leave it too, and come back from the file a page at a time. Either way
// the bytes are the same. It returns the bytes of address space released.
func releaseStartupPages(evict bool) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("finding the program file: %w", err)
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("reading the memory map: %w", err)
	}
	defer f.Close()
	released := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 00400000-00cd5000 r-xp 00000000 08:01 1234 /path/to/bcserver
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe || strings.Contains(fields[1], "w") {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		if err := release(uintptr(start), uintptr(end-start), evict); err != nil {
			return released, fmt.Errorf("releasing %s: %w", fields[0], err)
		}
		released += int(end - start)
	}
	if err := sc.Err(); err != nil {
		return released, fmt.Errorf("reading the memory map: %w", err)
	}
	return released, nil
}

// release unmaps one read-only mapping of the program file. With evict,
// the pages also leave the page cache and come back one at a time: the
// kernel keeps a file's pages in large folios (ext4 since Linux 6.16, xfs,
// tmpfs) and maps a whole folio on a fault, so after a plain unmap a code
// page an idle server runs brings its whole folio (up to hundreds of KiB)
// back into the RSS (measured: text 2.4 MB resident, 0.44 MB of it used
// in 3 s of idling). MADV_RANDOM stops the read-ahead that would build
// large folios again; MADV_PAGEOUT (Linux 5.4) reclaims the folios no
// other process maps. A kernel without it gets the plain unmap.
func release(start, length uintptr, evict bool) error {
	if evict {
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, length, unix.MADV_RANDOM); errno == 0 {
			if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, length, unix.MADV_PAGEOUT); errno == 0 {
				return nil
			}
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, length, unix.MADV_DONTNEED); errno != 0 {
		return errno
	}
	return nil
}
