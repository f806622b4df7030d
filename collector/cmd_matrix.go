package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

const matrixUsage = "usage: git ls-remote --tags REPO > TAGS; collector matrix add-releases [-config FILE] TAGS (- for standard input)"

// cmdMatrix edits the matrix file: add-releases adds the release tags of
// `git ls-remote --tags` output that it lacks, and prints them.
func cmdMatrix(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add-releases" {
		return errors.New(matrixUsage)
	}
	fs := flag.NewFlagSet("matrix add-releases", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", defaultConfig(), "matrix file (TOML) to edit in place")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New(matrixUsage)
	}
	var tags []byte
	var err error
	if fs.Arg(0) == "-" {
		tags, err = io.ReadAll(os.Stdin)
	} else {
		tags, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		return fmt.Errorf("release tags: %w", err)
	}
	text, err := os.ReadFile(*path)
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	out, added, err := config.AddReleases(string(text), config.ReleaseTags(string(tags)))
	if err != nil {
		return err
	}
	if len(added) == 0 {
		fmt.Fprintf(stderr, "%s has every release of the %d tags\n", *path, len(config.ReleaseTags(string(tags))))
		return nil
	}
	if err := os.WriteFile(*path, []byte(out), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "added %d releases to %s\n", len(added), *path)
	fmt.Fprintln(stdout, strings.Join(added, ","))
	return nil
}
