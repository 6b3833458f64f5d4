package main

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// childTouchMiB is what the child process of TestPeakRSSKB allocates and
// writes, so its peak RSS is at least that.
const childTouchMiB = 64

func TestMain(m *testing.M) {
	if os.Getenv("BENCHCMP_RSS_CHILD") == "1" {
		buf := make([]byte, childTouchMiB<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		runtime.KeepAlive(buf)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestPeakRSSKB runs a child that touches childTouchMiB MiB and checks the
// peak RSS benchcmp reads from its process state: at least that on unix (in
// KiB whatever unit the OS's rusage uses), unknown (-1) elsewhere.
func TestPeakRSSKB(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BENCHCMP_RSS_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	kb := peakRSSKB(cmd.ProcessState)
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		if kb != -1 {
			t.Fatalf("peakRSSKB = %d, want -1 (unknown) on %s", kb, runtime.GOOS)
		}
		return
	}
	// The upper bound catches a unit error: bytes read as KiB would be
	// 1024 times too big.
	if kb < childTouchMiB<<10 || kb > 16*childTouchMiB<<10 {
		t.Fatalf("peakRSSKB = %d KiB, want between %d and %d", kb, childTouchMiB<<10, 16*childTouchMiB<<10)
	}
}

func TestMB(t *testing.T) {
	for _, c := range []struct {
		kb   int64
		want string
	}{{-1, "-"}, {0, "0"}, {1023, "0"}, {1024, "1"}, {65 << 10, "65"}} {
		if got := mb(c.kb); got != c.want {
			t.Errorf("mb(%d) = %q, want %q", c.kb, got, c.want)
		}
	}
}
