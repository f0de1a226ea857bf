package uci

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fallbackDirs are searched after PATH because distributions install chess
// engines outside the default PATH of non-login shells (Debian puts Stockfish
// in /usr/games, which services and CI runners often lack).
var fallbackDirs = []string{"/usr/games", "/usr/local/games", "/usr/local/bin", "/usr/bin", "/opt/homebrew/bin"}

// LocateEngine resolves an engine command to an executable path. A command
// containing a '/' is used as given (made absolute, so that it does not depend
// on the engine's working directory); otherwise every PATH directory is tried,
// then the usual install directories. The error lists every path tried.
func LocateEngine(command string) (string, error) {
	if strings.TrimSpace(command) == "" {
		return "", fmt.Errorf("no engine command given (expected a program name such as stockfish or a path)")
	}
	if strings.ContainsRune(command, '/') {
		abs, err := filepath.Abs(command)
		if err != nil {
			return "", fmt.Errorf("engine %q: %w", command, err)
		}
		if err := checkExecutable(abs); err != nil {
			return "", fmt.Errorf("engine %q: %w", command, err)
		}
		return abs, nil
	}
	var tried []string
	seen := map[string]bool{}
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		// An empty PATH entry means the current directory; running a program
		// from there by bare name is what exec.LookPath refuses too.
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	dirs = append(dirs, fallbackDirs...)
	for _, d := range dirs {
		p := filepath.Join(d, command)
		if seen[p] {
			continue
		}
		seen[p] = true
		tried = append(tried, p)
		if checkExecutable(p) == nil {
			return p, nil
		}
	}
	msg := fmt.Sprintf("engine %q not found (tried: %s)", command, strings.Join(tried, ", "))
	if command == "stockfish" {
		msg += "; install it with: apt-get install -y stockfish"
	}
	return "", fmt.Errorf("%s", msg)
}

func checkExecutable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory, expected an executable file", path)
	}
	if st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable (mode %v)", path, st.Mode().Perm())
	}
	return nil
}
