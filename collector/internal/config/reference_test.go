package config

import "testing"

func TestReferenceOfIsTheModeAPrecisionModeLengthens(t *testing.T) {
	reference := []string{"data", "pipe"}
	for mode, want := range map[string]string{"data-long": "data", "pipe-long": "pipe", "pipeline-x": "data", "other": "data"} {
		if got := ReferenceOf(mode, reference); got != want {
			t.Errorf("ReferenceOf(%q) = %q, want %q", mode, got, want)
		}
	}
	if got := ReferenceOf("pipe-long", nil); got != "" {
		t.Errorf("without reference modes: %q", got)
	}
}
