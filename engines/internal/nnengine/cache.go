package nnengine

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"arena/engines/nn"
)

// files keeps every model file loaded in this process, so engines built
// from the same file share one immutable nn.Net (each has its own
// Evaluator) instead of parsing and packing it again: a tournament or a
// test package builds many engines from one file, at about 0.1 s a load.
// An entry is used only while the file's size and modification time are
// unchanged, so a file rewritten in place (a trainer saving its next
// generation) is read again.
var files sync.Map // fileKey -> *nn.Net

type fileKey struct {
	path    string
	size    int64
	modTime time.Time
}

// loadFile is nn.Load through the cache.
func loadFile(path string) (*nn.Net, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	fi, statErr := os.Stat(abs)
	if statErr != nil {
		// nn.Load reports the missing or unreadable file.
		net, _, err := nn.Load(path)
		return net, err
	}
	key := fileKey{abs, fi.Size(), fi.ModTime()}
	if net, ok := files.Load(key); ok {
		return net.(*nn.Net), nil
	}
	net, _, err := nn.Load(path)
	if err != nil {
		return nil, err
	}
	files.Store(key, net)
	return net, nil
}
