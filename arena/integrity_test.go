package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config cannot inject UCI commands through an engine option: a value or
// name with a line break (or any control character), or a name with the
// word "value", is refused at load, with the file, the line and the
// option, by arena run and in a sweep's values; no run directory is made.
func TestOptionInjectionRefused(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct{ options, sweep, want string }{
		{`{SyzygyPath: "x\nquit"}`, "", `:8: engines[0].options.SyzygyPath: option "SyzygyPath": its value holds the control character '\n'`},
		{`{"Hash\r\ngo infinite": "1"}`, "", `its name holds the control character '\r'`},
		{`{"Skill value Level": "3"}`, "", `its name holds the word "value"`},
		{`{Hash: "16"}`, "sweep:\n  engines[0].options.SyzygyPath: [\"a\", \"b\\nquit\"]", `engines[0].options.SyzygyPath: option "SyzygyPath": its value holds the control character '\n'`},
	} {
		path := filepath.Join(dir, fmt.Sprintf("inject%d.yaml", i))
		cfg := fmt.Sprintf(`games: 2
judge: off
limits: {depth: 1}
%s
engines:
  - name: SF
    command: %q
    options: %s
  - name: B
    command: %q
`, tc.sweep, fakeBin, tc.options, fakeBin)
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprintf("run%d", i))
		rc, text := runArena(t, "run", path, "--out", out)
		if rc != 1 || !strings.Contains(text, path) || !strings.Contains(text, tc.want) {
			t.Errorf("%s: rc %d, want 1 with %q:\n%s", tc.options, rc, tc.want, text)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused config made %s", tc.options, out)
		}
	}
}
