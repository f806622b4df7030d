package count

// Figures are one test's counts per request, from a dump's net events.
type Figures struct {
	Instructions    float64 // Ir
	L1Misses        float64 // I1mr + D1mr + D1mw
	LLMisses        float64 // ILmr + DLmr + DLmw
	BranchMisses    float64 // Bcm + Bim
	EstimatedCycles float64 // see EstimatedCycles
}

// Cycle weights of the estimate (iai's and CodSpeed's model): an L1 hit costs
// 1 cycle, an access that misses L1 and hits the last level 5, an access that
// misses the last level (RAM) 35.
const (
	L1HitCycles = 1
	LLHitCycles = 5
	RAMCycles   = 35
)

// EstimatedCycles is L1 hits + 5 x LL hits + 35 x RAM accesses, where every
// instruction fetch and data read or write is an access: accesses = Ir + Dr +
// Dw; L1 misses = I1mr + D1mr + D1mw; RAM accesses = ILmr + DLmr + DLmw.
func EstimatedCycles(e Events) float64 {
	accesses := e["Ir"] + e["Dr"] + e["Dw"]
	l1Miss := e["I1mr"] + e["D1mr"] + e["D1mw"]
	ram := e["ILmr"] + e["DLmr"] + e["DLmw"]
	return float64(L1HitCycles*(accesses-l1Miss) + LLHitCycles*(l1Miss-ram) + RAMCycles*ram)
}

// PerRequest divides the events by the number of requests the server
// processed in the window.
func PerRequest(e Events, requests int64) Figures {
	n := float64(requests)
	return Figures{
		Instructions:    float64(e["Ir"]) / n,
		L1Misses:        float64(e["I1mr"]+e["D1mr"]+e["D1mw"]) / n,
		LLMisses:        float64(e["ILmr"]+e["DLmr"]+e["DLmw"]) / n,
		BranchMisses:    float64(e["Bcm"]+e["Bim"]) / n,
		EstimatedCycles: EstimatedCycles(e) / n,
	}
}
