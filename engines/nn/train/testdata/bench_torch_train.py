#!/usr/bin/python3
"""PyTorch reference speed of one ValueNet training step (BenchmarkTrainStep).

    /usr/bin/python3 bench_torch_train.py

Forward in training mode (batch statistics), MSE against random targets,
backward and an Adam step on a batch of 256 positions with 2 threads, as
go test -bench TrainStep ./engines/nn/train does. Prints samples/s in wall
time (best of several runs) and per process CPU second (which a busy shared
machine disturbs less).
"""
import time

import torch
import torch.nn as nn


class ValueNet(nn.Module):
    # The thesis architecture (THESIS.md 1.3; engines/nn/testdata/make_fixtures.py).
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(12, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.Conv2d(128, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.Conv2d(128, 32, 1), nn.ReLU())
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(2048, 256), nn.ReLU(), nn.Linear(256, 1), nn.Tanh())

    def forward(self, x):
        return self.head(self.body(x))


def main():
    torch.set_num_threads(2)
    torch.manual_seed(1)
    batch = 256
    net = ValueNet()
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x = (torch.rand(batch, 12, 8, 8) < 0.04).float()
    y = torch.rand(batch, 1) * 2 - 1
    loss_fn = nn.MSELoss()

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()

    for _ in range(3):
        step()
    wall, cpu = [], []
    reps = 5
    for _ in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            step()
        wall.append((time.perf_counter() - t0) / reps)
        cpu.append((time.process_time() - c0) / reps)
    print("torch %s, %d threads, batch %d: %.0f samples/s (wall), %.0f samples per CPU second"
          % (torch.__version__, torch.get_num_threads(), batch, batch / min(wall), batch / min(cpu)))


if __name__ == "__main__":
    main()
