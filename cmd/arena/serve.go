//go:build !worker

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"arena/arena/serve"
)

func init() {
	register("serve", command{summary: "a live web dashboard of run directories (standings, Elo, SPRT, games)", run: runServe})
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (0.0.0.0:PORT lets other machines in: the runs' files become readable to them)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena serve [RESULTS_DIR...] [--addr 127.0.0.1:8080]")
		fmt.Fprintln(stderr, "\nServes a dashboard of the runs under the directories (default: results), running or")
		fmt.Fprintln(stderr, "finished, read-only; the page updates itself as games finish (see docs/watch.md).")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(dirs) == 0 {
		dirs = []string{"results"}
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "arena serve: %s: not a directory\n", d)
			return 2
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "arena serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Serving %v on http://%s/ (Ctrl-C to stop)\n", dirs, ln.Addr())
	err = http.Serve(ln, serve.New(dirs...).Handler())
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "arena serve: %v\n", err)
		return 1
	}
	return 0
}
