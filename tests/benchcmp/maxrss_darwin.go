package main

// maxrssPerKB is the units of ru_maxrss in a KiB: macOS reports bytes.
const maxrssPerKB = 1024
