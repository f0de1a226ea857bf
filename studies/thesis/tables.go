// Package thesis is the thesis reproduction study (studies/README.md). It
// holds the thesis's numbers as data, thesis-tables.yaml, which the study's
// report (studies/thesis/report) and its tests read.
package thesis

import _ "embed"

// TablesYAML is thesis-tables.yaml: the thesis's tables, each number with
// the figure and the part of THESIS.md 1.6 that shows it.
//
//go:embed thesis-tables.yaml
var TablesYAML []byte
