package config

import (
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"arena/arena/book/polyglot"
)

// Restart policies (engines[].restart), as fastchess's and cutechess-cli's
// restart=.
const (
	// RestartAuto (the default): one process for all of the engine's
	// games; a process that died is replaced before the next game.
	RestartAuto = "auto"
	// RestartOn: a new process for every game.
	RestartOn = "on"
	// RestartOff: as auto. fastchess's restart=off keeps the process and,
	// with -recover (which arena always does), replaces a dead one; an
	// engine that stayed dead would only lose every later game.
	RestartOff = "off"
)

// engineHandling decodes one of the engines[] keys that say how the arena
// runs the engine (time_margin, workdir, restart, log, ponder, book).
func (d *decoder) engineHandling(key string, v *yaml.Node, kp string, e *EngineConfig) error {
	var err error
	switch key {
	case "time_margin":
		var m Duration
		if m, err = d.duration(v, kp); err == nil {
			e.TimeMargin = &m
		}
	case "workdir":
		e.Workdir, err = d.workdir(v, kp)
	case "restart":
		if e.Restart, err = d.str(v, kp); err == nil && e.Restart != RestartAuto && e.Restart != RestartOn && e.Restart != RestartOff {
			err = d.errorf(v, kp, "%q is not a restart policy (expected on: a new process every game, off or auto: keep the process, replace it after a crash)", e.Restart)
		}
	case "log":
		e.Log, err = d.logDir(v, kp)
	case "ponder":
		e.Ponder, err = d.bool(v, kp)
	case "book":
		e.Book, err = d.engineBook(v, kp)
	}
	return err
}

var engineBookKeys = KeysOf("engines[].book")

// engineBook reads an engine's own book: a Polyglot file that must load,
// and a depth in moves (0 or missing: no limit).
func (d *decoder) engineBook(n *yaml.Node, path string) (*EngineBook, error) {
	b := &EngineBook{}
	err := d.mapping(n, path, engineBookKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		var err error
		switch key {
		case "file":
			b.File, err = d.str(v, kp)
		case "depth":
			var i int64
			i, err = d.int(v, kp, 0)
			b.Depth = int(i)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if b.File == "" {
		return nil, d.errorf(n, path+".file", "missing (the engine's Polyglot book, a .bin file)")
	}
	file, err := resolvePath(b.File, d.file)
	if err != nil {
		return nil, d.errorf(keyNode(n, "file"), path+".file", "%v", err)
	}
	b.File = file
	if _, err := LoadBook(file); err != nil {
		return nil, d.errorf(keyNode(n, "file"), path+".file", "%v", err)
	}
	return b, nil
}

// LoadBook reads an engine's Polyglot book.
func LoadBook(file string) (*polyglot.Book, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return polyglot.Read(f, file)
}

// workdir reads a directory that must exist, made absolute relative to the
// current directory or else the config file's.
func (d *decoder) workdir(v *yaml.Node, kp string) (string, error) {
	s, err := d.str(v, kp)
	if err != nil {
		return "", err
	}
	dir, err := resolvePath(s, d.file)
	if err != nil {
		return "", d.errorf(v, kp, "directory %q not found (the engine's working directory must exist)", s)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", d.errorf(v, kp, "%q is not a directory", s)
	}
	return dir, nil
}

// logDir reads a UCI traffic log directory, made absolute; it is created
// when the first engine starts.
func (d *decoder) logDir(v *yaml.Node, kp string) (string, error) {
	s, err := d.str(v, kp)
	if err != nil || s == "" {
		return "", err
	}
	dir, err := filepath.Abs(s)
	if err != nil {
		return "", d.errorf(v, kp, "%v", err)
	}
	return dir, nil
}
