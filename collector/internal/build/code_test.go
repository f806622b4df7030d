package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The same source compiled with debug information in two directories makes
// two files that differ (the paths in the debug information, the build-id
// note) and one code hash; other flags make another code hash.
func TestCodeSHA256IsTheMappedCodeNotTheFile(t *testing.T) {
	src := "#include <stdio.h>\nint counter = 3;\nint main(int c, char **v) { for (int i = 0; i < c * 1000; i++) counter += i % 7; printf(\"%d %s\\n\", counter, v[0]); return 0; }\n"
	compile := func(flags ...string) (file []byte, code string) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "prog.c"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-g", "-Wl,--build-id", "-o", "prog", "prog.c"}, flags...)
		cmd := exec.Command("gcc-12", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gcc-12 %v: %v\n%s", args, err, out)
		}
		bin := filepath.Join(dir, "prog")
		code, err := CodeSHA256(bin)
		if err != nil {
			t.Fatal(err)
		}
		file, err = os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		return file, code
	}
	f1, c1 := compile("-O2")
	f2, c2 := compile("-O2")
	_, c3 := compile("-Os")
	if string(f1) == string(f2) {
		t.Error("the two files are the same: the test shows nothing")
	}
	if c1 != c2 || len(c1) != 64 {
		t.Errorf("code hashes of one source and flags in two directories: %q, %q", c1, c2)
	}
	if c3 == c1 {
		t.Errorf("-Os and -O2 have one code hash %q", c1)
	}
	if _, err := CodeSHA256("code.go"); err == nil {
		t.Error("a file that is not ELF has a code hash")
	}
}
