GO ?= go
BIN := bin/arena
STOCKFISH := $(shell command -v stockfish 2>/dev/null || ls /usr/games/stockfish 2>/dev/null)

.PHONY: build test bench run stockfish vet fmt clean

build:
	$(GO) build -o $(BIN) ./cmd/arena

test:
	$(GO) vet ./...
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

stockfish:
	@if [ -z "$(STOCKFISH)" ]; then \
		echo "Stockfish not found; installing it with apt"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y stockfish; \
		else sudo apt-get update && sudo apt-get install -y stockfish; fi; \
	fi

run: build stockfish
	./$(BIN) run configs/default.yaml

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
