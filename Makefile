GO ?= go
BIN := bin/arena

.PHONY: build test test-long test-tools fuzz fuzz-short bench soak run stockfish fmt clean report-check reproduce reproduce-fast ablation ablation-report nets-data nets-supervised nets-selfplay nets-heldout nets-acpl nets-deepchess-data nets-deepchess

# The commit the binary is built from, stamped with -ldflags -X (internal/version): builds
# here run with GOFLAGS=-buildvcs=false, so the go command stamps none; dirty when the work
# tree has changes. Every run records it (summary.json, games.jsonl), arena --version prints it.
COMMIT = $(shell git rev-parse HEAD 2>/dev/null)
DIRTY = $(shell test -n "$$(git status --porcelain 2>/dev/null)" && echo true)
LDFLAGS = -X arena/internal/version.commit=$(COMMIT) -X arena/internal/version.dirty=$(DIRTY)

# build is static, as release is (CGO_ENABLED=0): nothing in the arena needs cgo (the
# resolver and os/user have pure-Go versions), and a dynamically linked binary maps libc
# and ld.so besides, 1.5 MB of the 25 MB a run peaked at (docs/reference.md, "The
# arena's own cost, beside fastchess"); it also then starts on any Linux.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/arena

# worker: bin/arena-worker, the build for cluster nodes that play external UCI engines only
# (run, merge, version; no built-in engines, report or training: cmd/arena/worker.go). It is
# a third of the size and peaks at half the RSS of bin/arena in a match (docs/cluster.md).
WORKER_BIN := bin/arena-worker
.PHONY: worker
worker:
	CGO_ENABLED=0 $(GO) build -tags worker -ldflags "$(LDFLAGS)" -o $(WORKER_BIN) ./cmd/arena

# go test's 10-minute limit a package is raised to 20: a package's wall time is its CPU time
# times the machine's load, and the largest (arena: about 60 s of CPU on an AMD EPYC, 22 on an Intel
# Xeon, and sleeping fake engines: docs/testing.md) must pass on a busy machine.
test: test-tools
	$(GO) vet ./...
	$(GO) test -timeout 20m ./...
	@$(MAKE) --no-print-directory fuzz-short

# test-long: the checks too slow for make test, in _test.go files tagged //go:build long
# (docs/architecture.md, "The test suite"): only their tests run, with a longer timeout.
LONG_FILES = $(shell git ls-files '*_test.go' | xargs grep -l '^//go:build long')
LONG_TESTS = $(shell sed -n 's/^func \(Test[A-Za-z0-9_]*\).*/\1/p' $(LONG_FILES))
empty :=
space := $(empty) $(empty)

test-long: test-tools
	$(GO) vet -tags long $(addprefix ./,$(sort $(dir $(LONG_FILES))))
	$(GO) test -tags long -timeout 60m -run '^($(subst $(space),|,$(strip $(LONG_TESTS))))$$' $(addprefix ./,$(sort $(dir $(LONG_FILES))))

# missing-commands adds to $$missing those of the commands $(1) (each its Debian package's
# name) in neither PATH nor /usr/games; apt-install installs $$missing with apt-get (as
# root, else through sudo).
missing-commands = for c in $(1); do command -v $$c >/dev/null 2>&1 || [ -x /usr/games/$$c ] || missing="$$missing $$c"; done
apt-install = if [ -n "$$missing" ]; then echo "not found:$$missing; installing with apt-get"; \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	$$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y $$missing; fi

# test-tools: what the tests run beside Go: Stockfish (the judge, the UCI client's
# tests), tmux and Chromium (the terminal and browser views).
test-tools:
	@missing=; $(call missing-commands,stockfish tmux chromium); $(apt-install)

# Fuzz targets (docs/fuzzing.md): package:function. `make fuzz` runs each for FUZZTIME
# with FUZZ_WORKERS processes, one target after another; `make fuzz-short` (part of
# `make test`) 10,000 inputs each, FUZZ_JOBS targets at a time (scripts/fuzz.sh).
# Crashers are written to the package's testdata/fuzz/ and then run by every `go test`.
# The short run counts inputs rather than seconds because go test -fuzz can report its own
# deadline as a failure, and bounds each minimization to 200 calls (docs/fuzzing.md).
FUZZ_TARGETS := ./arena/config:FuzzParseConfig ./arena/config:FuzzEngineOptions ./engines/board:FuzzParseFEN ./engines/board:FuzzReadEPD \
	./tracker/pgn:FuzzReadPGN ./engines/uci:FuzzParseLine ./engines/nn:FuzzReadSafetensors ./engines/nn:FuzzReadPyTorch \
	./engines/nn/mlp:FuzzReadSafetensors ./arena/output:FuzzReadGzip ./arena/output:FuzzReadColumns
FUZZTIME ?= 10m
FUZZ_SHORT ?= 10000x
FUZZ_WORKERS ?= 1
FUZZ_MINIMIZE ?= 60s
FUZZ_JOBS ?= 2

fuzz:
	@GO=$(GO) scripts/fuzz.sh 1 $(FUZZTIME) $(FUZZ_MINIMIZE) $(FUZZ_WORKERS) $(FUZZ_TARGETS)

fuzz-short:
	@GO=$(GO) scripts/fuzz.sh $(FUZZ_JOBS) $(FUZZ_SHORT) 200x 1 $(FUZZ_TARGETS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

SOAK_DIR ?= /tmp/arena-soak

# soak: 10,000 random-vs-random games (configs/soak.yaml, 20-30 minutes); samples the arena
# process's RSS every 2 s into $(SOAK_DIR).rss ("time games KB") and prints the first sample
# after a game, those at 1,000 and 5,000 games, the largest and the last, and the growth per
# 1,000 games (least squares from game 1,000 to the last game, before the end-of-run work).
soak: build
	rm -rf $(SOAK_DIR) $(SOAK_DIR).rss
	./$(BIN) run configs/soak.yaml --out $(SOAK_DIR) > $(SOAK_DIR).log 2>&1 & pid=$$!; \
	while kill -0 $$pid 2>/dev/null; do \
		rss=$$(awk '/^VmRSS:/ {print $$2}' /proc/$$pid/status 2>/dev/null); \
		games=$$(wc -l < $(SOAK_DIR)/games.jsonl 2>/dev/null || echo 0); \
		[ -n "$$rss" ] && echo "$$(date +%s) $$games $$rss" >> $(SOAK_DIR).rss; sleep 2; \
	done; wait $$pid; status=$$?; tail -3 $(SOAK_DIR).log; \
	awk 'NR==FNR {end=$$2; next} $$2==0 {next} !g1 {first=$$3; g1=$$2} !k1 && $$2>=1000 {k1=$$3; g1k=$$2} \
		!k5 && $$2>=5000 {k5=$$3; g5k=$$2} {if ($$3>max) {max=$$3; gm=$$2}; last=$$3; gl=$$2} \
		$$2>=1000 && $$2<end {n++; sx+=$$2; sy+=$$3; sxx+=$$2*$$2; sxy+=$$2*$$3} \
		END {printf "arena RSS: %.1f MB at game %d, %.1f MB at game %d, %.1f MB at game %d, largest %.1f MB at game %d, last %.1f MB at game %d\n", \
			first/1024, g1, k1/1024, g1k, k5/1024, g5k, max/1024, gm, last/1024, gl; \
			if (n>1 && n*sxx>sx*sx) printf "growth from game 1,000 to %d: %.3f MB per 1,000 games\n", end, (n*sxy-sx*sy)/(n*sxx-sx*sx)*1000/1024}' \
		$(SOAK_DIR).rss $(SOAK_DIR).rss; \
	exit $$status

stockfish:
	@missing=; $(call missing-commands,stockfish); $(apt-install)

run: build stockfish
	./$(BIN) run configs/default.yaml

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin

# slurm-check: a single-node Slurm cluster on this machine (apt-get installs Slurm,
# munge and jq if missing; needs root) plays configs/deploy/check.yaml as an array job;
# the merged shards must equal a single-process run game by game (docs/cluster.md).
.PHONY: slurm-check release image
slurm-check: build release
	scripts/slurm-check.sh

# release: static binaries (no cgo, so no glibc version to match: they start on any
# Linux node, RHEL 8-era Slurm clusters included) with the commit stamped, and their
# checksums, in dist/ (docs/cluster.md says which to copy where).
RELEASE_ARCHS ?= amd64 arm64
release:
	rm -rf dist && mkdir -p dist
	@set -e; for a in $(RELEASE_ARCHS); do echo "dist/arena-linux-$$a"; \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$a $(GO) build -trimpath -ldflags '$(LDFLAGS) -s -w' \
			-o dist/arena-linux-$$a ./cmd/arena; \
		echo "dist/arena-worker-linux-$$a"; \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$a $(GO) build -trimpath -tags worker -ldflags '$(LDFLAGS) -s -w' \
			-o dist/arena-worker-linux-$$a ./cmd/arena; done
	cd dist && sha256sum arena-linux-* arena-worker-linux-* > SHA256SUMS && cat SHA256SUMS

# image: the container image of configs/deploy/image/Containerfile, FROM scratch,
# tagged arena:COMMIT, and dist/k8s/ with the manifests naming that tag.
image: release
	scripts/image.sh --check

CHROMIUM ?= $(shell command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null)
REPORT_CHECK ?= /tmp/arena-report-check
REPORT_RUNS ?= arena/report/testdata/runs/sweep arena/report/testdata/runs/roundrobin-depth

# report-check: arena report's HTML opens in headless Chromium with no network and
# requests nothing but itself; look at $(REPORT_CHECK)/report.png (docs/report.md).
report-check: build
	@test -n "$(CHROMIUM)" || { echo "chromium not found (apt-get install -y chromium)"; exit 1; }
	rm -rf $(REPORT_CHECK) && mkdir -p $(REPORT_CHECK)
	./$(BIN) report $(REPORT_RUNS) --out $(REPORT_CHECK)/report
	$$(unshare -rn true 2>/dev/null && echo unshare -rn) $(CHROMIUM) --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync \
		--proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
		--user-data-dir=$(REPORT_CHECK)/profile --log-net-log=$(REPORT_CHECK)/netlog.json \
		--window-size=1200,1600 --screenshot=$(REPORT_CHECK)/report.png \
		file://$(abspath $(REPORT_CHECK))/report/report.html 2>$(REPORT_CHECK)/chromium.log
	@test -s $(REPORT_CHECK)/report.png || { echo "no screenshot: see $(REPORT_CHECK)/chromium.log"; exit 1; }
	@urls=$$(grep -o '"url":"[^"]*"' $(REPORT_CHECK)/netlog.json | sort -u | \
		grep -v -E '"url":"(file:|data:|https?://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com)/)'); \
	if [ -n "$$urls" ]; then echo "report.html requested:"; echo "$$urls"; exit 1; fi
	@echo "report.html opened offline and requested nothing; look at $(REPORT_CHECK)/report.png"

# The thesis study (studies/README.md): its configs, its committed runs (which stay in
# results/thesis until they move to studies/thesis/results) and its report.
THESIS_CONFIGS ?= studies/thesis/configs
THESIS_RESULTS ?= results/thesis
REPRODUCTION ?= docs/reproduction.md
# The reproduction's config sets ($(THESIS_CONFIGS)/SET/*.yaml, docs/reproduction.md): compute is
# reproduce-fast's; reproduce runs them all. RUN_FLAGS are added to every arena run.
THESIS_FAST_SETS ?= compute
THESIS_SETS ?= compute compute-more faithful time
# The comparison always covers every set present under $(THESIS_RESULTS).
THESIS_ALL_SETS ?= compute compute-more faithful time
RUN_FLAGS ?=
# THESIS_ONLY picks configs of the sets by name (shell patterns): THESIS_ONLY='exp2-* exp3-*'.
THESIS_ONLY ?= *
# reproduce judges every run's games again with this protocol (the games' own judge uses the
# other), into RUN/judge-PROTOCOL.json, at the run's judge depth; empty: no re-judging.
REJUDGE_PROTOCOL ?= position

# thesis-sets runs every config of the sets $(1) into $(THESIS_RESULTS)/SET/NAME, resuming a
# directory that holds a run (committed or interrupted; a finished one plays nothing more),
# writes each run's report into its directory, then $(REPRODUCTION) from every set present (not only those run).
define thesis-sets
	@set -e; for s in $(1); do for c in $(foreach n,$(THESIS_ONLY),$(THESIS_CONFIGS)/$$s/$(n).yaml); do \
		[ -f $$c ] || continue; d=$(THESIS_RESULTS)/$$s/$$(basename $$c .yaml); \
		if [ -f $$d/sweep.json ] || [ -f $$d/config.yaml ]; then ./$(BIN) run $(RUN_FLAGS) --resume $$d; \
		else ./$(BIN) run $(RUN_FLAGS) $$c --out $$d; fi; \
		./$(BIN) report $$d; \
	done; done
	$(GO) run ./studies/thesis/cmd/thesis-report --out $(REPRODUCTION) $$(for s in $(THESIS_ALL_SETS); do \
		[ -d $(THESIS_RESULTS)/$$s ] && echo $(THESIS_RESULTS)/$$s; done)
endef

# reproduce-fast: the compute-matched reproduction (about 25 min on 2 cores from nothing, 2 games at a time).
reproduce-fast: build stockfish
	$(call thesis-sets,$(THESIS_FAST_SETS))

# reproduce: all four sets (hours: see docs/report.md); re-running resumes and re-judges
# only what is not judged again yet.
reproduce: build stockfish
	$(call thesis-sets,$(THESIS_SETS))
	@set -e; [ -z "$(REJUDGE_PROTOCOL)" ] || for s in $(THESIS_SETS); do \
		for r in $$(ls -d $(THESIS_RESULTS)/$$s/*/summary.json $(THESIS_RESULTS)/$$s/*/*/summary.json 2>/dev/null); do \
		r=$$(dirname $$r); j=$$r/judge-$(REJUDGE_PROTOCOL).json; { [ -f $$j ] || [ -f $$j.gz ]; } && continue; \
		dep=$$(grep -o '"depth": *[0-9]*' $$r/summary.json | head -1 | grep -o '[0-9]*$$'); \
		./$(BIN) analyze $$r --protocol $(REJUDGE_PROTOCOL) --depth $$dep --workers 2 --out $$j.tmp > /dev/null; \
		mv $$j.tmp $$j; \
	done; done
	$(GO) run ./studies/thesis/cmd/thesis-report --out $(REPRODUCTION) $$(for s in $(THESIS_ALL_SETS); do \
		[ -d $(THESIS_RESULTS)/$$s ] && echo $(THESIS_RESULTS)/$$s; done)

# thesis-nnue: experiment 1 against the nnue engine at experiment 1's node budgets, both engines
# the same nodes (docs/reproduction.md, "Experiment 1 with NNUE"), and its control, the same games
# against preset strong (nnue's search with its hand-written evaluation: the win is the search's
# unless nnue does better than it), played again from scratch, nnue with the net the binary embeds
# (builtin:nnue-256): the committed runs in $(THESIS_RESULTS)/compute/exp1-nnue and exp1-strong are
# replaced (git keeps the old ones), archived without PVs (a replay gives them back), and
# $(REPRODUCTION) regenerated. Node-limited, so the load does not change the games: about 10 minutes
# on 2 cores.
THESIS_NNUE_RUNS = exp1-nnue exp1-strong
.PHONY: thesis-nnue
thesis-nnue: build stockfish
	@set -e; for x in $(THESIS_NNUE_RUNS); do d=$(THESIS_RESULTS)/compute/$$x; rm -rf $$d; \
		nice ./$(BIN) run $(RUN_FLAGS) $(THESIS_CONFIGS)/compute/$$x.yaml --out $$d --quiet; \
		./$(BIN) archive --drop pv $$d/*/; \
	done
	$(GO) run ./studies/thesis/cmd/thesis-report --out $(REPRODUCTION) $$(for s in $(THESIS_ALL_SETS); do \
		[ -d $(THESIS_RESULTS)/$$s ] && echo $(THESIS_RESULTS)/$$s; done)

# thesis-replay: the games of the faithful and time-matched runs that ended on time, played
# again with time_forfeit off (scripts/thesis-replay.sh); resumable: run it again after an
# interruption. Timed games: run it on a quiet machine and say the load.
.PHONY: thesis-replay
thesis-replay: build stockfish
	BIN=$(BIN) THESIS_RESULTS=$(THESIS_RESULTS) REJUDGE_PROTOCOL=$(REJUDGE_PROTOCOL) scripts/thesis-replay.sh

# ablation: preset strong against strong minus each technique (docs/ablation.md), 1,000
# node-limited games a technique (about 25 min each on 2 cores), one config after another;
# a run already in $(ABLATION_RESULTS)/ (committed, or interrupted) is resumed, a finished one
# left as it is. ABLATION=no-lmr (or several, space-separated) runs only those.
ABLATION_CONFIGS ?= studies/ablation/configs
ABLATION_RESULTS ?= results/ablation
ABLATION ?= $(patsubst $(ABLATION_CONFIGS)/%.yaml,%,$(wildcard $(ABLATION_CONFIGS)/no-*.yaml))

ablation: build
	@set -e; for x in $(ABLATION); do d=$(ABLATION_RESULTS)/$$x; \
		if [ -f $$d/config.yaml ]; then ./$(BIN) run --resume $$d; \
		else ./$(BIN) run $(ABLATION_CONFIGS)/$$x.yaml --out $$d; fi; \
	done

# The report of the ablation runs played so far (docs/ablation.md's Elo column is its
# head-to-head table).
ablation-report: build
	./$(BIN) report $(sort $(wildcard $(ABLATION_RESULTS)/no-*)) --out $(ABLATION_RESULTS)/report

# The shipped nets (docs/models.md): labelled data, the supervised and self-play nets, the
# held-out test set, and the ACPL of the network engines. Data goes to data/ (ignored by git).
nets-data: build stockfish
	mkdir -p data
	./$(BIN) datagen --out data/train.tsv --resume --seed 1 --every 2 --max 30000 --depth 10 --workers 2
	./$(BIN) datagen --out data/train.tsv --resume --seed 1 --skip 1 --every 2 --max 60000 --depth 10 --workers 2

nets-supervised: nets-data
	./$(BIN) train supervised --data data/train.tsv --out engines/nn/nets/supervised.safetensors --epochs 8 --cosine --seed 1 --workers 2

nets-selfplay: build
	mkdir -p data
	./$(BIN) train selfplay --out data/selfplay-run1.safetensors --generations 6 --games 200 --max-plies 80 --epochs 4 --window 2 --gate-games 20 --seed 1 --workers 2
	./$(BIN) train selfplay --init data/selfplay-run1.safetensors --out engines/nn/nets/selfplay.safetensors --generations 1 --games 200 --max-plies 120 --epochs 4 --window 2 --gate-games 20 --seed 1 --discount 0.98 --workers 2

nets-heldout: nets-data
	rm -f engines/nn/nets/testdata/heldout.tsv
	./$(BIN) datagen --out engines/nn/nets/testdata/heldout.tsv --seed 1000 --skip 4 --every 3 --max 600 --depth 10 --workers 2 --exclude data/train.tsv

nets-acpl: build stockfish
	./$(BIN) run configs/models-acpl.yaml

# The giraffe engine's net (docs/models.md, "giraffe.safetensors"): 35,884 positions of
# self-generated games labelled by Stockfish at depth 8 (about 24 minutes at 25 positions/s),
# 30 epochs of supervised 'arena train giraffe' with mirrored copies (about 2 minutes), then
# 47 iterations of TD-Leaf(0.7) self-play from that net (about 20 minutes).
.PHONY: nets-giraffe-data nets-giraffe-supervised nets-giraffe
nets-giraffe-data: build stockfish
	mkdir -p data
	./$(BIN) datagen --out data/giraffe-train.tsv --resume --seed 3 --every 2 --max 35884 --depth 8 --workers 2

nets-giraffe-supervised: nets-giraffe-data
	./$(BIN) train giraffe --data data/giraffe-train.tsv --out data/giraffe-supervised.safetensors --epochs 30 --seed 1 --workers 2

nets-giraffe: nets-giraffe-supervised
	./$(BIN) train giraffe --data data/giraffe-train.tsv --init data/giraffe-supervised.safetensors --out engines/nn/nets/giraffe.safetensors \
		--td-iterations 47 --td-batch 256 --td-moves 12 --td-nodes 300 --td-lr 3e-4 --seed 1 --workers 2

# The deepchess engine's net (docs/models.md, "deepchess"): decisive Stockfish games
# (configs/deepchess/datagen.yaml; resumable), then Pos2Vec pre-training and pair training.
nets-deepchess-data: build stockfish
	mkdir -p data
	if [ -f data/deepchess-games/games.jsonl ]; then ./$(BIN) run --resume data/deepchess-games; \
	else ./$(BIN) run configs/deepchess/datagen.yaml --out data/deepchess-games; fi

nets-deepchess: nets-deepchess-data
	./$(BIN) train deepchess --games data/deepchess-games/games.jsonl --out engines/nn/nets/deepchess \
		--pos2vec 600,400,200,100 --head 400,200,100 --pretrain-epochs 1 --pretrain-positions 100000 \
		--epochs 6 --pairs 200000 --lr 1e-3 --lr-decay 0.8 --batch 256 --held-pairs 10000 --seed 1 --workers 2

# countergo: CounterGo 5.5, a Go engine with an NNUE evaluation (the strength
# anchor of docs/nnue.md), built from its source module with the tags its own
# build script uses (AVX2 inference, the net embedded) into bin/counter. It is built
# inside a throwaway module that requires the pinned version, not with `go install
# pkg@version`: that form also asks the proxy for the module's version list (to report
# deprecation), which a proxy serving exact versions only refuses.
COUNTERGO_VERSION ?= v1.55.0
.PHONY: countergo
countergo:
	d=$$(mktemp -d) && trap 'rm -rf $$d' EXIT && \
	printf 'module countergo\ngo 1.21\nrequire github.com/ChizhovVadim/CounterGo $(COUNTERGO_VERSION)\n' >$$d/go.mod && \
	cd $$d && GOFLAGS=-mod=mod $(GO) build -tags=avx,embed -ldflags "-X main.versionName=5.5" \
		-o $(abspath bin)/counter github.com/ChizhovVadim/CounterGo/cmd/counter
	@printf 'uci\nquit\n' | bin/counter | grep -m1 '^id name'

# NNUE training data and the shipped net (docs/nnue.md, "Training"). The self-play data
# are made, not committed: the generator is deterministic, and data/nnue/selfplay.sums
# holds the checksums of what it must produce (nnue-data-sums records more after growing
# the data). nnue-data generates or resumes the local file (Ctrl-C stops after the games
# in progress); nnue-net makes the first NNUE_POSITIONS positions if they are missing,
# checks them, and trains on them, so it is reproducible whatever the file has grown to.
NNUE_DATA := data/nnue/selfplay.txt
NNUE_SUMS := data/nnue/selfplay.sums
NNUE_DATAGEN := --out $(NNUE_DATA) --seed 1 --workers 2
NNUE_DATA_POSITIONS ?= 5000000
NNUE_POSITIONS := 3500000
NNUE_TRAIN := --positions $(NNUE_POSITIONS) --hidden 256 --epochs 8 --batch 4096 --lr 0.002 --lr-final 0.05 --wd 0.1 --lambda 0 --mirror --val 0.05 --seed 1
.PHONY: nnue-data nnue-data-check nnue-data-sums nnue-net
nnue-data: build
	nice -n 10 ./$(BIN) datagen selfplay $(NNUE_DATAGEN) $$([ -f $(NNUE_DATA) ] && echo --resume) --positions $(NNUE_DATA_POSITIONS)

nnue-data-check:
	scripts/nnue-sums.sh check $(NNUE_DATA) $(NNUE_SUMS)

nnue-data-sums:
	scripts/nnue-sums.sh write $(NNUE_DATA) $(NNUE_SUMS)

# nnue-data-upto makes sure the data file holds its first $(1) positions, checked.
define nnue-data-upto
	@if [ $$(cat $(NNUE_DATA) 2>/dev/null | wc -l) -lt $(1) ]; then \
		$(MAKE) --no-print-directory nnue-data NNUE_DATA_POSITIONS=$(1); fi
	$(MAKE) --no-print-directory nnue-data-check
endef

nnue-net: build
	$(call nnue-data-upto,$(NNUE_POSITIONS))
	./$(BIN) train nnue --data $(NNUE_DATA) --out engines/nn/nets/nnue-256.nnue $(NNUE_TRAIN)
	sha256sum engines/nn/nets/nnue-256.nnue

# The heuristic engine's tuned evaluation weights (option eval_weights=tuned, docs/ablation.md),
# Texel-tuned on the first 800,000 positions of the same self-play data.
.PHONY: texel-tune
texel-tune: build
	$(call nnue-data-upto,800000)
	./$(BIN) train texel --data $(NNUE_DATA) --positions 800000 --val 0.1 --epochs 50 --lr 1 --tables=false --out engines/heuristic/tuned.go
