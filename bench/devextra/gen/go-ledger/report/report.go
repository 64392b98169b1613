package report

import (
	"fmt"
	"strings"
)

type Line struct {
	Account string
	Minor   int64
}

func Render(title string, lines []Line) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", title)
	for _, l := range lines {
		fmt.Fprintf(&b, "%-12s %10.2f\n", l.Account, float64(l.Minor)/100)
	}
	return b.String()
}

func Total(lines []Line) int64 {
	var t int64
	for _, l := range lines {
		t += l.Minor
	}
	return t
}
