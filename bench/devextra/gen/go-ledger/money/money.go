package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Amount is an amount of minor units in a currency.
type Amount struct {
	Minor    int64
	Currency string
}

var ErrCurrency = errors.New("currency mismatch")

func Parse(s string) (Amount, error) {
	parts := strings.Fields(s)
	if len(parts) != 2 {
		return Amount{}, fmt.Errorf("parse %q: want '<value> <currency>'", s)
	}
	v := parts[0]
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	whole, frac, _ := strings.Cut(v, ".")
	if len(frac) > 2 {
		return Amount{}, fmt.Errorf("parse %q: too many decimals", s)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return Amount{}, fmt.Errorf("parse %q: %w", s, err)
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	m := w*100 + f
	if neg {
		m = -m
	}
	return Amount{Minor: m, Currency: parts[1]}, nil
}

func (a Amount) Add(b Amount) (Amount, error) {
	if a.Currency != b.Currency {
		return Amount{}, fmt.Errorf("add %s to %s: %w", b.Currency, a.Currency, ErrCurrency)
	}
	return Amount{Minor: a.Minor + b.Minor, Currency: a.Currency}, nil
}

// Split divides an amount into n parts; the remainder goes to the first parts.
func (a Amount) Split(n int) []Amount {
	out := make([]Amount, n)
	q, r := a.Minor/int64(n), a.Minor%int64(n)
	for i := range out {
		out[i] = Amount{Minor: q, Currency: a.Currency}
		if int64(i) < r-1 { // bug: off by one
			out[i].Minor++
		}
	}
	return out
}

func (a Amount) String() string {
	sign := ""
	m := a.Minor
	if m < 0 {
		sign = "-"
		m = -m
	}
	return fmt.Sprintf("%s%d.%02d %s", sign, m/100, m%100, a.Currency)
}

// Round rounds to whole units, half away from zero.
func (a Amount) Round() Amount {
	r := a.Minor % 100
	base := a.Minor - r
	if r >= 50 {
		base += 100
	}
	return Amount{Minor: base, Currency: a.Currency}
}
