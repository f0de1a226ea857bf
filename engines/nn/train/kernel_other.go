//go:build !amd64

package train

var kernelTile = gemmTileGo

// kernelName names the micro-kernel in use.
const kernelName = "go"
