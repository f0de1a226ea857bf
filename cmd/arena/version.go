package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"arena/internal/version"
)

// buildName starts the version line: "arena", or "arena-worker" in the worker
// build (worker.go), so a binary copied to a node says which of the two it is.
var buildName = "arena"

// versionNote, when set, ends the version line (the worker build: what it
// plays).
var versionNote string

func init() {
	register("version", command{summary: "print the arena version, its commit and the Go version", run: printVersion})
}

func printVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: arena version (or arena --version)")
		return 2
	}
	fmt.Fprintln(stdout, versionString())
	return 0
}

// versionString is "arena (devel) commit 1671e53c2a4d...(40 hex) (modified),
// go1.26 linux/amd64": the module version ("(devel)" for a build from a
// checkout) and the commit make build stamps (internal/version), with
// "(modified)" when the work tree had changes.
func versionString() string {
	v := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		v = info.Main.Version
	}
	commit := "unknown commit"
	if rev, modified := version.Commit(); rev != "" {
		commit = "commit " + rev
		if modified {
			commit += " (modified)"
		}
	}
	line := fmt.Sprintf("%s %s %s, %s %s/%s", buildName, v, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if versionNote != "" {
		line += ", " + versionNote
	}
	return line
}
