// Command arena plays chess engines against each other and measures every move.
//
// Each subcommand lives in its own file and registers itself in init, so the
// CLI holds flag parsing only and the work is done by the packages it calls.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand: its one-line summary and its entry point, which
// receives the arguments after the subcommand name and returns the exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// usageNote is printed under the usage line: empty in the full build; the
// worker build (worker.go) says there what it leaves out, so that "unknown
// command report" on a node is not a mystery.
var usageNote string

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("duplicate command " + name)
	}
	commands[name] = c
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s COMMAND [arguments]\n", buildName)
	if usageNote != "" {
		fmt.Fprintln(w, "\n"+usageNote)
	}
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for the arguments of a command.\n", buildName)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		return printVersion(args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n", buildName, args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// parseArgs parses fs's flags wherever they stand among the positional
// arguments (cutechess-style "arena run x.yaml --out d" and "arena run --out d
// x.yaml" both work) and returns the positional arguments. When parsing fails
// ok is false and code is the exit status: 0 for -h, 2 for a bad flag.
func parseArgs(fs *flag.FlagSet, args []string) (positional []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, false
			}
			return nil, 2, false
		}
		if fs.NArg() == 0 {
			return positional, 0, true
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// interruptContext is cancelled by Ctrl-C (SIGINT) or SIGTERM, the one way
// every long-running command learns to stop its engines and keep what it has
// finished.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
