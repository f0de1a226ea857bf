// Package atomicfile replaces files so that a crash or a kill leaves either
// the old content or the new, never a mix: every output of arena (run
// directories, reports, plots, models, opening books) is written through it.
//
// The data goes to a temporary file in the same directory (so the rename
// stays on one file system), which is fsync'ed, renamed over the target, and
// the directory is fsync'ed so the rename itself survives a power cut. The
// temporary name is unique per writer, so two writers of one path never
// write into each other's temporary file; the last rename wins.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Perm is the mode of the files written.
const Perm = 0o644

// WriteFile replaces path with data.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write replaces path with what fill writes. When fill fails the target is
// left untouched and the temporary file removed.
func Write(path string, fill func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(Perm); err != nil { // CreateTemp makes it private
		return err
	}
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// SyncDir fsyncs a directory so that the renames and creations in it are
// durable. Some file systems cannot sync a directory; that is not an error.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}
