package ids

import (
	"fmt"
	"testing"
)

func TestNewIsValid(t *testing.T) {
	for _, acct := range []string{"acct-1", "acct-2", "savings", "checking", "escrow"} {
		for seq := 0; seq < 8; seq++ {
			acct, seq := acct, seq
			t.Run(fmt.Sprintf("%s/%d", acct, seq), func(t *testing.T) {
				id := New(acct, seq)
				if !Valid(id) {
					t.Errorf("New(%q, %d) = %q is not valid", acct, seq, id)
				}
				t.Logf("id %s", id)
			})
		}
	}
}

func TestValidRejects(t *testing.T) {
	for _, s := range []string{"", "e-", "x-0123456789ab", "e-0123456789zz", "e-0123"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true", s)
		}
	}
}
