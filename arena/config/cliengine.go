package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"arena/engines"
)

// NewEngineConfig checks an engine given outside a config file (on a command
// line) as a config's engines: entry is checked, and fills in its name (the
// engine's, or the command's base name, when name is empty). engine is a
// built-in engine's name, or UCIEngine with command (and args) for an
// external one.
func NewEngineConfig(name, engine, command string, args []string, options map[string]string) (EngineConfig, error) {
	e := EngineConfig{Name: name, Engine: engine, Command: command, Args: args, Options: options}
	if engine == UCIEngine {
		if command == "" {
			return e, fmt.Errorf("engine uci needs the command that starts the engine")
		}
		if e.Name == "" {
			e.Name = filepath.Base(command)
		}
		return e, nil
	}
	spec, err := engines.Lookup(engine)
	if err != nil {
		return e, fmt.Errorf("unknown engine %q (built-in engines: %s)", engine, strings.Join(engines.Names(), ", "))
	}
	if command != "" || len(args) > 0 {
		return e, fmt.Errorf("a command is only for an external UCI engine (%s is a built-in engine)", engine)
	}
	if err := resolveBuiltin(spec, &e, true); err != nil {
		return e, fmt.Errorf("engine %s: %w", engine, err)
	}
	return e, nil
}
