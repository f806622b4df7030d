package stats

// Rand is mulberry32, a 32-bit pseudo-random generator. It is small enough to
// be written the same way in TypeScript (src/model/stats.ts), so that a
// bootstrap with the same seed draws the same resamples in both languages.
type Rand struct{ state uint32 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint32) *Rand { return &Rand{state: seed} }

// Uint32 returns the next 32 random bits.
func (r *Rand) Uint32() uint32 {
	r.state += 0x6D2B79F5
	t := r.state
	t = (t ^ (t >> 15)) * (t | 1)
	t ^= t + (t^(t>>7))*(t|61)
	return t ^ (t >> 14)
}

// Float64 returns a number in [0, 1), a multiple of 2^-32.
func (r *Rand) Float64() float64 { return float64(r.Uint32()) / (1 << 32) }

// Intn returns an index in [0, n).
func (r *Rand) Intn(n int) int { return int(r.Float64() * float64(n)) }
