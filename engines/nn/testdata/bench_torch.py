#!/usr/bin/python3
"""PyTorch reference speed of the thesis ValueNet forward pass on one thread.

    /usr/bin/python3 bench_torch.py [valuenet_state.pt]

Prints, for batch 1, 32 and 256, the median wall time of one forward pass and the
time per position (eval mode, no_grad, torch.set_num_threads(1)), to compare with
go test -bench Forward ./engines/nn and nn.Bench.
"""
import statistics
import sys
import time

import torch

from make_fixtures import ValueNet


def main():
    torch.set_num_threads(1)
    net = ValueNet()
    if len(sys.argv) > 1:
        net.load_state_dict(torch.load(sys.argv[1]))
    net.eval()
    print("torch %s, %d thread(s)" % (torch.__version__, torch.get_num_threads()))
    for batch in (1, 32, 256):
        x = (torch.rand(batch, 12, 8, 8) < 0.04).float()
        reps = max(5, 400 // batch)
        with torch.no_grad():
            for _ in range(3):
                net(x)
            times = []
            for _ in range(7):
                t0 = time.perf_counter()
                for _ in range(reps):
                    net(x)
                times.append((time.perf_counter() - t0) / reps)
        t = statistics.median(times)
        print("batch %3d: %.3f ms/forward, %.4f ms/position" % (batch, t * 1e3, t * 1e3 / batch))


if __name__ == "__main__":
    main()
