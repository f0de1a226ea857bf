// Package deploy holds no code: its tests check the deployment files beside
// them (the Slurm check script, the container image recipe, the Kubernetes
// manifests) for the properties a cluster user relies on, cheaply enough to
// run in every `make test`. The real cluster and the real image build run in
// `make slurm-check`.
package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSlurmCheckAlwaysEndsWithClosingLine: however the check ends, its last
// line is the "N passed, N failed" that CI's log reader counts, with the
// checks that never ran counted as failed.
func TestSlurmCheckAlwaysEndsWithClosingLine(t *testing.T) {
	script, err := filepath.Abs("../../scripts/slurm-check.sh")
	if err != nil {
		t.Fatal(err)
	}
	closing := regexp.MustCompile(`^slurm-check: 0 passed, [1-9][0-9]* failed$`)
	for name, env := range map[string][]string{
		// realpath fails under set -e before any check starts.
		"missing config": {"ARENA=/bin/true"},
		// die() on a named failure.
		"missing binary": {"ARENA=/nonexistent/arena"},
	} {
		args := []string{"configs/deploy/check.yaml"}
		if name == "missing config" {
			args = []string{"/nonexistent/config.yaml"}
		}
		cmd := exec.Command(script, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s: slurm-check exited 0:\n%s", name, out)
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if last := lines[len(lines)-1]; !closing.MatchString(last) {
			t.Errorf("%s: last line %q, want %s; output:\n%s", name, last, closing, out)
		}
	}
}

// TestImageRecipe: the image is built FROM scratch (no registry to pull a
// base from) out of the staged root filesystem, and starts arena.
func TestImageRecipe(t *testing.T) {
	b, err := os.ReadFile("image/Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	var instructions []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			instructions = append(instructions, l)
		}
	}
	want := []string{"FROM scratch", "COPY rootfs/ /"}
	for i, w := range want {
		if i >= len(instructions) || instructions[i] != w {
			t.Fatalf("Containerfile instruction %d: got %q, want %q (all: %q)", i+1, instructions, w, instructions)
		}
	}
	if !strings.Contains(string(b), `ENTRYPOINT ["/usr/local/bin/arena"]`) {
		t.Errorf("Containerfile does not start /usr/local/bin/arena")
	}
	s, err := os.ReadFile("../../scripts/image.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, staged := range []string{"usr/local/bin/arena", "usr/games/stockfish", "bin/sh"} {
		if !strings.Contains(string(s), staged) {
			t.Errorf("scripts/image.sh does not stage %s, which the manifests use", staged)
		}
	}
}

// TestManifestsNameTheBuiltImage: every container of the arena manifests runs
// the image `make image` builds, under the placeholder tag it substitutes,
// and no image is taken by a moving tag such as latest.
func TestManifestsNameTheBuiltImage(t *testing.T) {
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in k8s/ (%v)", err)
	}
	image := regexp.MustCompile(`(?m)^\s*image:\s*(\S+)\s*$`)
	arena := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range image.FindAllStringSubmatch(string(b), -1) {
			ref := m[1]
			switch {
			case strings.HasPrefix(ref, "arena:"):
				arena++
				if ref != "arena:IMAGE_TAG" {
					t.Errorf("%s: image %s, want arena:IMAGE_TAG (make image substitutes the tag it built)", f, ref)
				}
			case strings.HasSuffix(ref, ":latest") || !strings.Contains(ref, ":"):
				t.Errorf("%s: image %s has no pinned tag", f, ref)
			}
		}
	}
	if arena == 0 {
		t.Errorf("no manifest runs the arena image")
	}
}
