//go:build race

package search

// slack multiplies the latency bounds of the timing tests under the race
// detector, which slows everything down several times.
const slack = 4
