// Package ablation is the ablation study (docs/ablation.md): preset strong
// against strong minus one technique, one config each in configs/, the runs
// in results/ablation/. It has no code of its own, only the test that the
// document says what the runs hold.
package ablation
