//go:build !race

package search

// slack multiplies the latency bounds of the timing tests.
const slack = 1
