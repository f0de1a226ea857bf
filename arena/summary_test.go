package arena

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"arena/arena/output"
	"arena/arena/record"
)

// readSummary reads a run directory's whole summary.json, its games
// included (the runner reads it without them: readSummaryHead); nil when
// there is none.
func readSummary(dir string) (*record.Summary, error) {
	path := filepath.Join(dir, output.SummaryJSON)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s record.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &s, nil
}
