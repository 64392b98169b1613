package ids

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// New derives a stable entry id from an account and a sequence number.
func New(account string, seq int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", account, seq)))
	return "e-" + hex.EncodeToString(h[:6])
}

// Valid reports whether s looks like an id made by New.
func Valid(s string) bool {
	if !strings.HasPrefix(s, "e-") || len(s) != 14 {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}
