package money

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want int64
	}{
		{"1 EUR", 100}, {"1.5 EUR", 150}, {"0.05 USD", 5}, {"-2.25 GBP", -225}, {"1000000 JPY", 100000000},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := Parse(c.in)
			if err != nil {
				t.Fatalf("Parse(%q) returned error: %v", c.in, err)
			}
			if got.Minor != c.want {
				t.Errorf("Parse(%q).Minor = %d, want %d", c.in, got.Minor, c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "1", "1.234 EUR", "abc EUR"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		} else {
			t.Logf("Parse(%q): error as expected: %v", in, err)
		}
	}
}

func TestAddCurrencyMismatch(t *testing.T) {
	a, _ := Parse("1 EUR")
	b, _ := Parse("1 USD")
	_, err := a.Add(b)
	if !errors.Is(err, ErrCurrency) {
		t.Fatalf("Add: err = %v, want ErrCurrency", err)
	}
}

func TestSplit(t *testing.T) {
	cases := []struct {
		total string
		n     int
		want  []int64
	}{
		{"1.00 EUR", 2, []int64{50, 50}},
		{"1.00 EUR", 3, []int64{34, 33, 33}},
		{"0.10 EUR", 4, []int64{3, 3, 2, 2}},
		{"10.00 EUR", 5, []int64{200, 200, 200, 200, 200}},
	}
	for _, c := range cases {
		c := c
		t.Run(c.total, func(t *testing.T) {
			a, _ := Parse(c.total)
			parts := a.Split(c.n)
			var sum int64
			for i, p := range parts {
				sum += p.Minor
				if p.Minor != c.want[i] {
					t.Errorf("Split(%s, %d)[%d] = %d, want %d", c.total, c.n, i, p.Minor, c.want[i])
				}
			}
			if sum != a.Minor {
				t.Errorf("Split(%s, %d) parts sum to %d, want %d (lost %d minor units)", c.total, c.n, sum, a.Minor, a.Minor-sum)
			}
		})
	}
}

func TestString(t *testing.T) {
	for in, want := range map[string]string{"1 EUR": "1.00 EUR", "-0.5 USD": "-0.50 USD", "12.34 GBP": "12.34 GBP"} {
		a, _ := Parse(in)
		if got := a.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func TestRound(t *testing.T) {
	cases := map[string]string{"1.49 EUR": "1.00 EUR", "1.50 EUR": "2.00 EUR", "-1.50 EUR": "-2.00 EUR", "-1.49 EUR": "-1.00 EUR"}
	for in, want := range cases {
		a, _ := Parse(in)
		if got := a.Round().String(); got != want {
			t.Errorf("Round(%s) = %s, want %s", in, got, want)
		}
	}
}
