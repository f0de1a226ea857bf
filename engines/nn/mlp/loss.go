package mlp

import (
	"fmt"
	"math"
)

// The losses return the mean loss over the batch and write its gradient
// with respect to each output into grad (len(out) values), ready for
// Tape.Backward. Sums run in float64.

// MSE is the mean over all elements of (out - target)^2, PyTorch's
// MSELoss.
func MSE(out, target, grad []float32) float64 {
	if len(target) != len(out) || len(grad) < len(out) {
		panic(fmt.Sprintf("mlp: MSE of %d outputs, %d targets, %d gradients", len(out), len(target), len(grad)))
	}
	var sum float64
	scale := 2 / float64(len(out))
	for i, v := range out {
		d := float64(v) - float64(target[i])
		sum += d * d
		grad[i] = float32(scale * d)
	}
	return sum / float64(len(out))
}

// SoftmaxCE is the cross-entropy of a softmax over each row of logits
// (len(labels) rows of len(logits)/len(labels) classes) against the class
// labels[r], averaged over rows: PyTorch's CrossEntropyLoss. DeepChess's
// head is 2 classes.
func SoftmaxCE(logits []float32, labels []int, grad []float32) float64 {
	n := len(labels)
	if n == 0 || len(logits)%n != 0 || len(logits)/n < 2 || len(grad) < len(logits) {
		panic(fmt.Sprintf("mlp: SoftmaxCE of %d logits, %d labels, %d gradients", len(logits), n, len(grad)))
	}
	k := len(logits) / n
	var sum float64
	for r, label := range labels {
		row, g := logits[r*k:(r+1)*k], grad[r*k:(r+1)*k]
		top := float64(row[0])
		for _, v := range row {
			top = max(top, float64(v))
		}
		var z float64
		for _, v := range row {
			z += math.Exp(float64(v) - top)
		}
		logZ := top + math.Log(z)
		sum += logZ - float64(row[label])
		for c, v := range row {
			p := math.Exp(float64(v) - logZ)
			if c == label {
				p--
			}
			g[c] = float32(p / float64(n))
		}
	}
	return sum / float64(n)
}

// SigmoidBCE is the binary cross-entropy of sigmoid(logits) against
// targets in [0, 1], averaged over elements: PyTorch's BCEWithLogitsLoss,
// computed in the same overflow-free form.
func SigmoidBCE(logits, target, grad []float32) float64 {
	if len(target) != len(logits) || len(grad) < len(logits) {
		panic(fmt.Sprintf("mlp: SigmoidBCE of %d logits, %d targets, %d gradients", len(logits), len(target), len(grad)))
	}
	var sum float64
	n := float64(len(logits))
	for i, v := range logits {
		x, y := float64(v), float64(target[i])
		sum += max(x, 0) - x*y + math.Log1p(math.Exp(-math.Abs(x)))
		grad[i] = float32((1/(1+math.Exp(-x)) - y) / n)
	}
	return sum / n
}
