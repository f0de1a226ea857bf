#!/usr/bin/python3
"""PyTorch reference speed of the thesis ValueNet forward pass on one thread.

    /usr/bin/python3 bench_torch.py [valuenet_state.pt.gz]

(a .pt file, gzipped or not; without one, the net keeps its random weights).

Prints, for batch 1, 32 and 256, the time of one forward pass and the time per
position (eval mode, no_grad, torch.set_num_threads(1)), to compare with
go test -bench Forward ./engines/nn and nn.Bench: the best of several runs in wall
time, and in CPU time of the (only) computing thread, which a busy shared machine
disturbs less.
"""
import gzip
import io
import sys
import time

import torch

from make_fixtures import ValueNet


def main():
    torch.set_num_threads(1)
    net = ValueNet()
    if len(sys.argv) > 1:
        path = sys.argv[1]
        if path.endswith(".gz"):
            # torch.load needs a seekable file: unpack into memory.
            with gzip.open(path) as f:
                path = io.BytesIO(f.read())
        net.load_state_dict(torch.load(path))
    net.eval()
    print("torch %s, %d thread(s)" % (torch.__version__, torch.get_num_threads()))
    for batch in (1, 32, 256):
        x = (torch.rand(batch, 12, 8, 8) < 0.04).float()
        reps = max(5, 400 // batch)
        with torch.no_grad():
            for _ in range(3):
                net(x)
            wall, cpu = [], []
            for _ in range(7):
                t0, c0 = time.perf_counter(), time.thread_time()
                for _ in range(reps):
                    net(x)
                wall.append((time.perf_counter() - t0) / reps)
                cpu.append((time.thread_time() - c0) / reps)
        w, c = min(wall), min(cpu)
        print("batch %3d: wall %8.3f ms/forward %7.4f ms/position; cpu %8.3f ms/forward %7.4f ms/position"
              % (batch, w * 1e3, w * 1e3 / batch, c * 1e3, c * 1e3 / batch))


if __name__ == "__main__":
    main()
