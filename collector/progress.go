package main

import (
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// bar shows a progress bar with ETA; each finished run is also printed above it.
type bar struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newBar(w io.Writer) *bar { return &bar{w: w} }

func (b *bar) Start(total int) {
	b.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(b.w),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true), progressbar.OptionFullWidth(),
		progressbar.OptionSetDescription("runs"))
}

func (b *bar) Step(desc string) {
	b.bar.Clear()
	io.WriteString(b.w, desc+"\n")
	b.bar.Add(1)
}

func (b *bar) Finish() { b.bar.Finish(); io.WriteString(b.w, "\n") }
