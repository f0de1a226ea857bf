package report

import (
	"bytes"
	"fmt"
	"html/template"
	"sync"
)

// HTML returns report.html: one self-contained page (the plots as inline
// SVG, the style inline, generic font families only, no script), so it opens
// offline and can be mailed or archived alone. Its only links are the
// relative ones to each run's games.pgn and the in-page anchors.
func (r *Report) HTML() ([]byte, error) {
	var b bytes.Buffer
	if err := htmlTemplate().Execute(&b, r); err != nil {
		return nil, fmt.Errorf("report.html: %w", err)
	}
	return b.Bytes(), nil
}

// htmlTemplate is parsed on first use, not at start-up: every command
// of the one binary would otherwise parse it (734 allocations, and the
// pages of html/template's parser touched) before doing anything, and
// only arena report renders it (docs/reference.md, "The arena's own
// cost, beside fastchess").
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		// The SVG is gonum/plot's output with its prolog removed; the names in
		// it were escaped by the SVG writer.
		"svg":            func(s string) template.HTML { return template.HTML(s) },
		"align":          func(t *Table, i int) string { return alignClass(t, i) },
		"headToHeadNote": func() string { return headToHeadNote },
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em auto; max-width: 75em; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 2em; } h3 { font-size: 1.1em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f0f0f0; }
td.r { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; }
figure { margin: 1em 1em 1em 0; display: inline-block; max-width: 100%; vertical-align: top; }
figure svg.plot { width: 34em; max-width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
figcaption { font-size: 0.85em; color: #555; max-width: 34em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.facts dt { font-weight: bold; } dl.facts dd { margin: 0; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
ul.elo { font-family: monospace; font-size: 0.9em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{- if .Sweeps}}
<ul>
{{- range .Sweeps}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Combined}}
<h2 id="all-runs">All runs</h2>
{{template "table" .Combined}}
{{- end}}
{{- if .HeadToHead}}
<h2 id="head-to-head">Head to head</h2>
<p>{{headToHeadNote}}</p>
{{template "table" .HeadToHead}}
{{- end}}
{{- range .Figures}}{{template "figure" .}}{{end}}
{{- range .Sections}}
<h2 id="{{.Anchor}}">{{.Run.Summary.Name}}</h2>
<dl class="facts">
{{- range .Facts}}
<dt>{{.Key}}</dt><dd>{{.Value}}</dd>
{{- end}}
<dt>Games (PGN)</dt><dd>{{if .PGNLink}}<a href="{{.PGNLink}}">{{.PGNName}}</a>{{else}}not kept: <code>arena export</code> derives it from the games log{{end}}</dd>
</dl>
<h3>Results</h3>
{{template "table" .Results}}
{{- if .EloLines}}
<ul class="elo">
{{- range .EloLines}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Crosstable}}
<h3>Crosstable</h3>
<p>Points of the row's engine against the column's, out of the games they played (+wins =draws -losses).</p>
{{template "table" .Crosstable}}
{{- end}}
{{- if or .Ratings .RatingsNote}}
<h3>Ratings</h3>
{{- if .Ratings}}
{{template "table" .Ratings}}
{{- end}}
<p>{{.RatingsNote}}</p>
{{- end}}
<h3>Games</h3>
{{template "table" .Games}}
{{- range .Figures}}{{template "figure" .}}{{end}}
<h3>Configuration (config.yaml)</h3>
<pre>{{.Run.Config}}</pre>
{{- end}}
</body>
</html>
{{define "table"}}<div class="scroll"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- $t := .}}
{{- range .Rows}}
<tr>{{range $i, $c := .}}<td{{if eq (align $t $i) "r"}} class="r"{{end}}>{{if $c.Link}}<a href="{{$c.Link}}">{{$c.Text}}</a>{{else}}{{$c.Text}}{{end}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>{{end}}
{{define "figure"}}
<figure>
{{if .Table}}{{template "table" .Table}}{{else}}{{svg .InlineSVG}}{{end}}
<figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption>
</figure>{{end}}
`))
})

func alignClass(t *Table, i int) string {
	if i < len(t.Right) && t.Right[i] {
		return "r"
	}
	return ""
}
