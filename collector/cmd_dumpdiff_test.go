package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDumpDiffCommand(t *testing.T) {
	dump, err := os.ReadFile("internal/count/testdata/fixture-callgrind-dump.out")
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{a: string(dump), b: strings.Replace(string(dump), "30 8000 2400", "30 8100 2400", 1)} {
		for _, name := range []string{"test-00.callgrind", "test-01.callgrind"} {
			body := text
			if name == "test-00.callgrind" {
				body = string(dump)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, _, err := runCLI(t, "dumpdiff", a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"test-00.callgrind: same in every event and function\n",
		"test-01.callgrind: the same totals, spread differently over the functions\n", "  own Ir: readQueryFromClient 8000 / 8100\n",
		"1 of 2 tests differ, the first test-01.callgrind\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCLI(t, "dumpdiff", a); err == nil || !strings.HasPrefix(err.Error(), "usage: collector dumpdiff") {
		t.Errorf("one folder: %v", err)
	}
}
