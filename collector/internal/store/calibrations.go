package store

import "time"

// Calibration is the request count a precision mode uses for one test of one
// version on one hardware class, and how it was found: a ramp of client
// invocations against one configuration's server, each with more requests,
// until one lasted the mode's min_time (as Go's b.N ramp). Every
// configuration of the version then runs the test with Requests.
type Calibration struct {
	HardwareClass string `parquet:"hardware_class"`
	Version       string `parquet:"version"`
	Mode          string `parquet:"mode"`
	Test          string `parquet:"test"`
	TestIndex     int32  `parquet:"test_index"`
	// Status is ok, unsupported (the server rejected the command) or failed.
	Status string `parquet:"status"`
	// Requests is the chosen -n: the ramp's last count, raised where a later
	// test pops what this one pushes (docs/method.md).
	Requests int64 `parquet:"requests"`
	// Steps is the ramp, "requests:milliseconds" per invocation, comma-separated,
	// the milliseconds as the client timed them (requests / requests per second).
	Steps string `parquet:"steps"`
	// MinTimeSeconds is the mode's min_time when calibrated.
	MinTimeSeconds float64 `parquet:"min_time_seconds"`
	// CellID and BuildID are the configuration calibrated on; MachineID the machine.
	CellID       string    `parquet:"cell_id"`
	BuildID      string    `parquet:"build_id"`
	MachineID    string    `parquet:"machine_id"`
	Error        *string   `parquet:"error,optional"`
	CalibratedAt time.Time `parquet:"calibrated_at,timestamp(millisecond:local)"`
}

// CalibrationsFile holds the precision modes' calibrations.
const CalibrationsFile = "calibrations.parquet"

// CalibrationKey identifies a calibration: one per class, version, mode and test.
func CalibrationKey(class, version, mode, test string) string {
	return class + "\x00" + version + "\x00" + mode + "\x00" + test
}
