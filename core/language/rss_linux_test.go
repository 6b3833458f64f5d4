package language_test

import (
	"bytes"
	"os"
	"strconv"
)

// resetPeakRSS resets the kernel's peak-RSS mark of this process and
// returns the current RSS in bytes; ok is false where that is impossible.
func resetPeakRSS() (rss int, ok bool) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, false
	}
	rss = procStatus("VmRSS:")
	return rss, rss > 0
}

// peakRSS returns the peak RSS since the last reset, in bytes.
func peakRSS() int { return procStatus("VmHWM:") }

func procStatus(key string) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte(key)); ok {
			f := bytes.Fields(rest)
			if len(f) == 2 && string(f[1]) == "kB" {
				kb, err := strconv.Atoi(string(f[0]))
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}
