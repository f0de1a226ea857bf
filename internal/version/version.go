// Package version names the arena build: the git commit it was built from,
// which every run records (summary.json, games.jsonl) and arena --version
// prints.
//
// The go command embeds the commit itself only when it stamps VCS
// information, and builds here run with GOFLAGS=-buildvcs=false, so make
// build passes it with -ldflags -X (commit and dirty below); a build
// without them falls back to the go command's stamp, and else to unknown.
package version

import "runtime/debug"

// Set by make build: -X arena/internal/version.commit=HASH and
// -X arena/internal/version.dirty=true when the work tree had changes.
var commit, dirty string

// Unknown is the stamp of a build that carries no commit (go build or go
// run without make, with VCS stamping off).
const Unknown = "unknown"

// Commit returns the full git commit the binary was built from and whether
// the work tree had uncommitted changes; "" when the build carries none.
func Commit() (rev string, modified bool) {
	if commit != "" {
		return commit, dirty == "true"
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return rev, modified
}

// Stamp is the commit as runs record it: the full hash, "+dirty" appended
// for a modified work tree, or Unknown.
func Stamp() string {
	rev, modified := Commit()
	switch {
	case rev == "":
		return Unknown
	case modified:
		return rev + "+dirty"
	}
	return rev
}
