package sync

import "fmt"

// Reconcile matches bank lines to ledger entries by amount and reference.
func Reconcile(bank, ledger map[string]int64) (matched int, missing []string) {
	for ref, amt := range bank {
		if l, ok := ledger[ref]; ok && l == amt {
			matched++
		} else {
			missing = append(missing, fmt.Sprintf("%s:%d", ref, amt))
		}
	}
	return matched, missing
}
