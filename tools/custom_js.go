//go:build js

package tools

// registerCustomLanguages registers nothing under GOOS=js: the JavaScript
// engine runs the built-in grammar modules only, so a workspace's custom
// languages stay unknown there (their files are not searched) rather than
// failing at every file.
func registerCustomLanguages(string) {}
