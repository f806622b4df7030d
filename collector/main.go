// Command collector compiles Redis releases with a matrix of compilers and
// flags, benchmarks every build with one fixed redis-benchmark, and writes the
// results as Parquet. Run `collector help` for usage.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "collector: "+err.Error())
		os.Exit(1)
	}
}
