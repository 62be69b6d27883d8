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

// processCPU returns a process's CPU time ("self" for ours): the sum of
// its threads' run time in /proc/<pid>/task/*/schedstat (nanoseconds), or
// where that is missing utime+stime of /proc/<pid>/stat (10 ms steps, too
// coarse for an idle server's milliseconds a second).
func processCPU(pid string) (time.Duration, error) {
	if d, ok := schedCPU(pid); ok {
		return d, nil
	}
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

// schedCPU sums the threads' run time from schedstat. A thread that
// exited takes its time with it; Go servers keep theirs.
func schedCPU(pid string) (time.Duration, bool) {
	tasks, err := os.ReadDir("/proc/" + pid + "/task")
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + pid + "/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread just exited
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			return 0, false
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		sum += time.Duration(ns)
	}
	return sum, true
}

// processSwitches returns the context switches of a process's threads,
// voluntary and not: each is a thread going to sleep or being put aside,
// so their rate counts the wake-ups of an idle server.
func processSwitches(pid string) (int64, error) {
	tasks, err := os.ReadDir("/proc/" + pid + "/task")
	if err != nil {
		return 0, fmt.Errorf("reading the threads of process %s: %w", pid, err)
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + pid + "/task/" + t.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				sum += n
			}
		}
	}
	return sum, nil
}

// processRSS returns a process's resident set size in bytes.
func processRSS(pid string) (int64, error) {
	return statusKB(pid, "VmRSS")
}

// statusKB reads one "Key: N kB" line of /proc/<pid>/status in bytes.
func statusKB(pid, key string) (int64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, fmt.Errorf("reading the memory of process %s: %w", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("unexpected %s line %q", key, line)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%s/status", key, pid)
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
