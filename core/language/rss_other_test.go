//go:build !linux

package language_test

// resetPeakRSS reports that peak RSS cannot be measured here.
func resetPeakRSS() (int, bool) { return 0, false }

func peakRSS() int { return 0 }
