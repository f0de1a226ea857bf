package output

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"arena/internal/atomicfile"
)

// GzipExt ends the name of a game file that output.compress stored as gzip.
const GzipExt = ".gz"

// GameFiles are the files output.compress stores as gzip at the end of a
// run: the large ones, which programs read. summary.json, summary.md and
// config.yaml stay plain for people reading them where the results are
// committed.
var GameFiles = []string{GamesFile, MovesFile, PGNFile, EPDFile}

// StoredExts are the endings of a run file's stored forms besides the
// plain one, in the order Locate prefers them.
var StoredExts = []string{GzipExt, ColumnsExt}

// Locate returns the name the run file path is stored under: path itself
// when it exists (or names a stored form), else the first of path.gz and
// path.cols (Archive) that exists; the error is os.Stat's on path. Where
// several exist the plain file wins, then gzip: Compress, Decompress and
// Archive write the new file before removing the old one, so a kill between
// the two leaves equal contents, and a resumed run appends to the plain one.
func Locate(path string) (string, error) {
	_, err := os.Stat(path)
	if err == nil || storedExt(path) != "" {
		return path, err
	}
	for _, ext := range StoredExts {
		if _, sErr := os.Stat(path + ext); sErr == nil {
			return path + ext, nil
		}
	}
	return path, err
}

// storedExt is the stored form path names ("" for a plain file).
func storedExt(path string) string {
	for _, ext := range StoredExts {
		if strings.HasSuffix(path, ext) {
			return ext
		}
	}
	return ""
}

// Reader reads a run file stored plain, as gzip or in columns: every reader
// of run directories opens their files through Open, so stored runs read as
// plain ones, and every decompression is bounded here.
type Reader struct {
	f  *os.File
	z  io.ReadCloser // the decoder; nil for a plain file
	in int64         // the stored bytes read from f
	// out is the plain bytes returned so far.
	out int64
}

// The bounds of a decompression. A run's game files compress 4.5 to 7
// times (moves.csv and games.jsonl of a 1,000-game run: 4.6 and 7.1), and
// the largest runs we foresee hold a few GB of games.jsonl; a file that
// expands more than MaxGzipRatio times its compressed size (beyond the
// first GzipSlack bytes) or beyond maxGzipSize is a decompression bomb
// (14 MB of gzip can hold 14 GB of zeros) or not a run file, and is
// refused before it fills the memory or the disk.
const (
	MaxGzipRatio = 64
	GzipSlack    = 1 << 20
)

// maxGzipSize is a variable so that a test can reach it.
var maxGzipSize int64 = 32 << 30

// counter adds the bytes read through it to a total (shared by the
// sections of a columns file).
type counter struct {
	r io.Reader
	n *int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

// Open opens the file Locate finds for path.
func Open(path string) (*Reader, error) {
	path, err := Locate(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := &Reader{f: f}
	switch storedExt(path) {
	case GzipExt:
		r.z, err = gzip.NewReader(&counter{r: f, n: &r.in})
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // we never write an empty gzip file
		}
	case ColumnsExt:
		r.z, err = newColReader(f, &r.in)
	}
	if err != nil {
		f.Close()
		return nil, r.corrupt(err)
	}
	return r, nil
}

// Name is the path of the file opened (NAME.gz when compressed).
func (r *Reader) Name() string { return r.f.Name() }

// Read reads the plain content; a damaged gzip file's error names it.
func (r *Reader) Read(p []byte) (int, error) {
	if r.z == nil {
		return r.f.Read(p)
	}
	n, err := r.z.Read(p)
	if err != nil && err != io.EOF {
		err = r.corrupt(err)
	}
	r.out += int64(n)
	if r.out > maxGzipSize {
		return n, fmt.Errorf("%s: refusing to decompress more than %d bytes (the limit for a run file): a decompression bomb or not a run file", r.f.Name(), maxGzipSize)
	}
	if r.out > MaxGzipRatio*r.in+GzipSlack {
		return n, fmt.Errorf("%s: refusing to decompress on: %d compressed bytes expand to over %d, more than %d times (a run file compresses at most about 7 times, 20 in columns): a decompression bomb or not a run file",
			r.f.Name(), r.in, r.out, MaxGzipRatio)
	}
	return n, err
}

// corrupt names the file in a decompression error; the gzip package's own
// errors ("gzip: invalid checksum", "unexpected EOF") do not say which
// file. Errors of the file system already name it.
func (r *Reader) corrupt(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	form := "gzip"
	if storedExt(r.f.Name()) == ColumnsExt {
		form = "columns"
	}
	return fmt.Errorf("%s: corrupt or cut-short %s file: %w", r.f.Name(), form, err)
}

// Close closes the file.
func (r *Reader) Close() error {
	if r.z != nil {
		r.z.Close()
	}
	return r.f.Close()
}

// Compress replaces each of dir's GameFiles by NAME.gz, written atomically
// before the plain file is removed. A run compresses only when it ends:
// while it plays, games.jsonl is appended and fsync'ed game by game and
// read back by offset, which a gzip stream allows neither of.
func Compress(dir string) error {
	for _, name := range GameFiles {
		path := filepath.Join(dir, name)
		src, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		err = atomicfile.Write(path+GzipExt, func(w io.Writer) error {
			// The default level: the best is 2-4% smaller for about
			// 3x the time (measured on runs' game files), which a
			// user who stopped a run with Ctrl-C would wait for.
			zw := gzip.NewWriter(w)
			if _, err := io.Copy(zw, src); err != nil {
				return err
			}
			return zw.Close()
		})
		src.Close()
		if err != nil {
			return fmt.Errorf("compress %s: %w", path, err)
		}
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	return atomicfile.SyncDir(dir)
}

// Decompress turns dir's stored GameFiles (gzip or columns) back into plain
// files, which a resumed run appends to; its end compresses them again. No
// stored file is removed before every plain file is written whole and
// fsync'ed (with the directory): a file that fails to decompress (cut
// short, or a bomb) leaves every stored file as it was, and the plain files
// already written are equal copies, which Locate prefers.
func Decompress(dir string) error {
	var done []string
	for _, name := range GameFiles {
		path := filepath.Join(dir, name)
		for _, ext := range StoredExts {
			if _, err := os.Stat(path + ext); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				if err := decompressFile(path + ext); err != nil {
					return err
				}
			}
			done = append(done, path+ext)
		}
	}
	for _, stored := range done {
		// Where both exist the plain file is the newer (Locate).
		if err := os.Remove(stored); err != nil {
			return err
		}
	}
	return atomicfile.SyncDir(dir)
}

func decompressFile(stored string) error {
	r, err := Open(stored)
	if err != nil {
		return err
	}
	defer r.Close()
	return atomicfile.Write(strings.TrimSuffix(stored, storedExt(stored)), func(w io.Writer) error {
		_, err := io.Copy(w, r)
		return err
	})
}
