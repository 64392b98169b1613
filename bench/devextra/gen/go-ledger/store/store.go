package store

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

type Entry struct {
	ID      string
	Account string
	Minor   int64
	At      time.Time
}

var ErrNotFound = errors.New("entry not found")
var ErrConflict = errors.New("version conflict")

type Store struct {
	mu      sync.Mutex
	entries map[string]Entry
	byAcct  map[string][]string
	version int
	log     func(format string, args ...any)
}

func New(log func(string, ...any)) *Store {
	return &Store{entries: map[string]Entry{}, log: log}
}

func (s *Store) Put(e Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[e.ID]; ok {
		return fmt.Errorf("put %s: %w", e.ID, ErrConflict)
	}
	s.entries[e.ID] = e
	s.byAcct[e.Account] = append(s.byAcct[e.Account], e.ID) // bug: byAcct never made
	s.version++
	return nil
}

func (s *Store) Get(id string) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[id]
	if !ok {
		return Entry{}, fmt.Errorf("get %s: %w", id, ErrNotFound)
	}
	return e, nil
}

// Balance sums an account's entries.
func (s *Store) Balance(account string) int64 {
	var sum int64
	for _, e := range s.entries {
		if e.Account == account {
			sum += e.Minor
		}
	}
	return sum
}

// Retry runs f until it succeeds or attempts run out, logging each failure.
func Retry(attempts int, wait time.Duration, log func(string, ...any), f func() error) error {
	var err error
	for i := 1; i <= attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		log("attempt %d/%d failed: %v; retrying in %s", i, attempts, err, wait)
		time.Sleep(wait)
	}
	return fmt.Errorf("after %d attempts: %w", attempts, err)
}

func Accounts(entries []Entry) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range entries {
		if !seen[e.Account] {
			seen[e.Account] = true
			out = append(out, e.Account)
		}
	}
	sort.Strings(out)
	return out
}
