//go:build race

package search

// raceDetector: the race detector slows every goroutine by a factor that
// varies from run to run, so a test that paces itself by a short sleep
// cannot rely on that pace under it.
const raceDetector = true
