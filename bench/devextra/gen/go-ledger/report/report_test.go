package report

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	out := Render("March", []Line{{"acct-1", 1050}, {"acct-2", -300}})
	if !strings.Contains(out, "acct-1             10.50") {
		t.Errorf("Render:\n%s", out)
	}
	t.Log("rendered report:\n" + out)
}

func TestTotal(t *testing.T) {
	for n := 0; n < 12; n++ {
		t.Run(fmt.Sprintf("lines=%d", n), func(t *testing.T) {
			var lines []Line
			var want int64
			for i := 0; i < n; i++ {
				lines = append(lines, Line{fmt.Sprintf("acct-%d", i), int64(i * 10)})
				want += int64(i * 10)
			}
			if got := Total(lines); got != want {
				t.Errorf("Total = %d, want %d", got, want)
			}
			t.Logf("total of %d lines = %d", n, want)
		})
	}
}

func TestExportPDF(t *testing.T) {
	if os.Getenv("LEDGER_PDF") == "" {
		t.Skip("LEDGER_PDF not set: skipping the PDF export (needs wkhtmltopdf)")
	}
}

func TestWarnOnNegative(t *testing.T) {
	out := Render("warnings", []Line{{"acct-9", -5000}})
	t.Logf("warning: negative balance rendered as %q", strings.TrimSpace(strings.Split(out, "\n")[1]))
}
