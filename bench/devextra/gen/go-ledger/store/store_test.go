package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestGetMissing(t *testing.T) {
	s := New(t.Logf)
	_, err := s.Get("e-404")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get: err = %v, want ErrNotFound", err)
	}
	t.Logf("Get(e-404): %v (expected)", err)
}

func TestRetrySucceedsAfterErrors(t *testing.T) {
	calls := 0
	err := Retry(4, time.Millisecond, t.Logf, func() error {
		calls++
		if calls < 3 {
			return fmt.Errorf("connection refused (dial tcp 127.0.0.1:5432)")
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Retry: %v", err)
	}
}

func TestRetryGivesUp(t *testing.T) {
	err := Retry(3, time.Millisecond, t.Logf, func() error { return errors.New("timeout waiting for lock") })
	if err == nil || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Fatalf("Retry: err = %v", err)
	}
	t.Logf("gave up as expected: %v", err)
}

func TestAccounts(t *testing.T) {
	got := Accounts([]Entry{{Account: "b"}, {Account: "a"}, {Account: "b"}, {Account: "c"}})
	want := []string{"a", "b", "c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Accounts = %v, want %v", got, want)
	}
}

func TestConcurrentReads(t *testing.T) {
	for i := 0; i < 6; i++ {
		i := i
		t.Run(fmt.Sprintf("reader-%d", i), func(t *testing.T) {
			t.Parallel()
			s := New(t.Logf)
			time.Sleep(time.Duration(6-i) * time.Millisecond)
			if _, err := s.Get(fmt.Sprintf("e-%d", i)); err == nil {
				t.Errorf("Get on an empty store succeeded")
			}
			t.Logf("reader %d done", i)
		})
	}
}

func TestEntryJSONShape(t *testing.T) {
	e := Entry{ID: "e-1", Account: "acct-1", Minor: 42, At: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)}
	got := fmt.Sprintf("%+v", e)
	want := "{ID:e-1 Account:acct-1 Minor:42 At:2024-03-01 12:00:00 +0000 UTC Currency:EUR}"
	if got != want {
		t.Errorf("entry shape mismatch:\n\tgot:  %s\n\twant: %s\n\tdiff: the entry has no Currency field; the API contract (docs/api.md#entries) requires one", got, want)
	}
}

func TestBalanceAfterPut(t *testing.T) {
	s := New(t.Logf)
	for i, m := range []int64{1500, -250, 75} {
		if err := s.Put(Entry{ID: fmt.Sprintf("e-%d", i), Account: "acct-7", Minor: m}); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	if got := s.Balance("acct-7"); got != 1325 {
		t.Errorf("Balance = %d, want 1325", got)
	}
}

