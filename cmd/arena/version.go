package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

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

// versionString is "arena (devel) commit 1671e53c2a4d (modified) 2026-11-23T10:03:00Z, go1.24.1
// linux/amd64" from the build information the go command embeds: the module
// version ("(devel)" for a build from a checkout) and, when built inside the
// git work tree, the commit, its time and whether the tree had changes.
func versionString() string {
	version, commit := "unknown", "unknown commit"
	if info, ok := debug.ReadBuildInfo(); ok {
		version = info.Main.Version
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			commit = "commit " + rev[:min(12, len(rev))]
			if settings["vcs.modified"] == "true" {
				commit += " (modified)"
			}
			if t := settings["vcs.time"]; t != "" {
				commit += " " + t
			}
		}
	}
	return fmt.Sprintf("arena %s %s, %s %s/%s", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
