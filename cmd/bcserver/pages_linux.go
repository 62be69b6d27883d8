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
// writable data segment): their pages stay in the page cache and come back
// on first use as minor faults, with the same bytes. It returns the bytes
// of address space released.
func releaseStartupPages() (int, error) {
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
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_DONTNEED); errno != 0 {
			return released, fmt.Errorf("releasing %s: %w", fields[0], errno)
		}
		released += int(end - start)
	}
	if err := sc.Err(); err != nil {
		return released, fmt.Errorf("reading the memory map: %w", err)
	}
	return released, nil
}
