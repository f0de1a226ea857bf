package arena

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arena/arena/output"
)

// LockFile is the lock a run holds on its directory for as long as it runs.
const LockFile = ".arena.lock"

// The lock is an flock on DIR/.arena.lock, which the kernel releases when
// the holder exits however it exits, so a kill -9 never leaves a directory
// locked. The file also records the holder (pid, the process's start time
// from /proc, host, command), which makes the refusal say who holds the
// directory and lets a taker-over say whose stale lock it found; the pid is
// compared with its start time because pids are reused. On a file system
// without working flock the record alone decides: a holder on this host
// whose pid is running with the recorded start time holds the lock.

// lockInfo is what the lock file records about its holder.
type lockInfo struct {
	PID     int       `json:"pid"`
	Start   uint64    `json:"start_ticks"` // /proc/PID/stat starttime, 0 where unknown
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// dirLock is a held lock.
type dirLock struct{ f *os.File }

// LockedError is returned when another live process holds a run directory.
type LockedError struct {
	Dir    string
	Holder lockInfo
}

func (e *LockedError) Error() string {
	if e.Holder.PID == 0 {
		return fmt.Sprintf("%s is in use by another process, which recorded no holder in %s for %v; wait for it to finish or stop it first",
			e.Dir, LockFile, emptyRecordWait)
	}
	return fmt.Sprintf("%s is in use by another arena (pid %d on %s, %s, since %s); wait for it to finish or stop it first",
		e.Dir, e.Holder.PID, e.Holder.Host, e.Holder.Command, e.Holder.Since.Format(time.RFC3339))
}

// lockDir takes the lock on dir (which must exist). A lock left by a dead
// process is taken over with a message on w.
func lockDir(dir, command string, w io.Writer) (*dirLock, error) {
	if w == nil {
		w = io.Discard
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, output.FilePerm)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	prev, err := flockWaitingOutEmptyRecord(f)
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Dir: dir, Holder: prev}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	host, _ := os.Hostname()
	if prev.PID != 0 {
		if prev.Host == host && prev.PID != os.Getpid() && processStart(prev.PID) == prev.Start && prev.Start != 0 {
			// flock says free but the holder runs: a file system that
			// does not share flocks (some network file systems).
			f.Close()
			return nil, &LockedError{Dir: dir, Holder: prev}
		}
		fmt.Fprintf(w, "Taking over the stale lock of %s (pid %d on %s, %s, is no longer running)\n", dir, prev.PID, prev.Host, prev.Command)
	}
	me := lockInfo{PID: os.Getpid(), Start: processStart(os.Getpid()), Host: host, Command: command, Since: time.Now().UTC().Truncate(time.Second)}
	data, _ := json.Marshal(me)
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt(append(data, '\n'), 0)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return &dirLock{f: f}, nil
}

// emptyRecordWait bounds how long a held lock without a record is waited
// out before it counts as held.
const emptyRecordWait = time.Second

// flockWaitingOutEmptyRecord takes the flock on f and returns the record it
// found there. A lock held while the record is empty is a holder between its
// flock and its first write, or one releasing (unlock empties the record,
// then closes): a lock released by this very process can even stay held for
// an instant after, by a child forked at that moment (every fork shares the
// open lock file until the child's exec closes it). Such a lock is waited
// out for up to emptyRecordWait; one with a record is refused at once.
func flockWaitingOutEmptyRecord(f *os.File) (lockInfo, error) {
	deadline := time.Now().Add(emptyRecordWait)
	for {
		prev := readLockInfo(f)
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || prev.PID != 0 || time.Now().After(deadline) {
			return prev, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// unlock empties the record and releases the lock, so the next run takes
// it without a stale-lock message.
func (l *dirLock) unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	l.f.Close() // releases the flock
	l.f = nil
}

func readLockInfo(f *os.File) lockInfo {
	var li lockInfo
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err == nil && len(data) > 0 {
		_ = json.Unmarshal(data, &li)
	}
	return li
}

// processStart is the start time of process pid in clock ticks since boot
// (field 22 of /proc/PID/stat); 0 if it is not running or unknown.
func processStart(pid int) uint64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(data)
	rest := s[strings.LastIndexByte(s, ')')+1:]
	f := strings.Fields(rest)
	if len(f) < 20 {
		return 0
	}
	v, _ := strconv.ParseUint(f[19], 10, 64) // field 22 is the 20th after the name
	return v
}
