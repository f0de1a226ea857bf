package dataset

import (
	"strings"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	for _, r := range []Record{
		{FEN: "8/8/8/8/8/8/8/K1k5 w - - 0 1", CP: 0, Result: 0.5},
		{FEN: "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", CP: 10000, Mate: 0, HasMate: true, Result: 1},
		{FEN: "x", CP: -9997, Mate: -3, HasMate: true, Result: -1},
	} {
		got, err := ParseRecord(r.String())
		if err != nil || got != r {
			t.Fatalf("%q parsed as %+v, %v; expected %+v", r.String(), got, err, r)
		}
	}
	for _, bad := range []string{"fen\t1\t-", "fen\tx\t-\t1", "fen\t1\tm\t1", "fen\t1\t-\t2"} {
		if _, err := ParseRecord(bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
	_, err := Read(strings.NewReader(Header+"\nfen\t1\t-\t1\nfen\tbad\t-\t1\n"), "data.tsv")
	if err == nil || !strings.Contains(err.Error(), "data.tsv:3") {
		t.Fatalf("error %v, expected one naming data.tsv:3", err)
	}
}
