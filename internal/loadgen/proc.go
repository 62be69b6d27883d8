package loadgen

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Process figures come from /proc (Linux). They are read the same way for
// any server, which is what makes a ratio against another implementation
// meaningful.

// clockTick is USER_HZ, 100 on every Linux the tool runs on.
const clockTick = 10 * time.Millisecond

// processCPU returns a process's user+system CPU time ("self" for ours).
func processCPU(pid string) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, fmt.Errorf("reading the CPU time of process %s: %w", pid, err)
	}
	// utime and stime are fields 14 and 15; the command name before them
	// is parenthesised and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%s/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%s/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc/%s/stat", pid)
	}
	return time.Duration(ut+st) * clockTick, nil
}

// processRSS returns a process's resident set size in bytes.
func processRSS(pid string) (int64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, fmt.Errorf("reading the memory of process %s: %w", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("unexpected VmRSS line %q", line)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%s/status", pid)
}

// sample sums CPU and RSS over processes.
func sample(pids []int) (cpu time.Duration, rss int64, err error) {
	for _, p := range pids {
		c, err := processCPU(strconv.Itoa(p))
		if err != nil {
			return 0, 0, err
		}
		r, err := processRSS(strconv.Itoa(p))
		if err != nil {
			return 0, 0, err
		}
		cpu += c
		rss += r
	}
	return cpu, rss, nil
}
