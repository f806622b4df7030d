package runner

import "os/exec"

var lookPath = exec.LookPath
