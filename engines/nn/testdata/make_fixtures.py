#!/usr/bin/python3
"""Golden fixtures for engines/nn: the thesis ValueNet in PyTorch.

Run with Debian's python3-torch (PyTorch 1.13) from engines/nn/testdata:

    /usr/bin/python3 make_fixtures.py

It writes
  valuenet_state.pt.gz  raw state_dict (torch.save), gzipped
  valuenet_ckpt.pt.gz   {"m": state_dict, "g": 3, "best_wr": 0.55}, the self-play trainer's form, gzipped
  golden.json           eval-mode outputs for the FENs below, plus the encoded planes' piece count

The fixtures weigh on the repository, so after training every float tensor is
quantised to 8 significant bits (quantise): the float32 words then end in 16
zero bits and gzip shrinks the 3 MB files to about a third. They stay real
torch.save files of a trained net; the tests unpack them (engines/nn/fixture).

The network is the listing of seeds/000 (figure 2.28, lines 29-57) and the encoder
is board_to_tensor_optimized (figure 2.27, lines 10-27), reimplemented on the FEN
piece placement, so that python-chess is not needed.
"""
import json
import subprocess

import torch
import torch.nn as nn


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(12, 64, 3, padding=1),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            nn.Conv2d(64, 128, 3, padding=1),
            nn.BatchNorm2d(128),
            nn.ReLU(),
            nn.Conv2d(128, 128, 3, padding=1),
            nn.BatchNorm2d(128),
            nn.ReLU(),
            nn.Conv2d(128, 32, 1),
            nn.ReLU(),
        )
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(32 * 8 * 8, 256),
            nn.ReLU(),
            nn.Linear(256, 1),
            nn.Tanh(),
        )

    def forward(self, x):
        return self.head(self.body(x))


PIECES = "PNBRQK"  # python-chess piece_type 1..6 is PIECES.index(c) + 1


def board_to_tensor(fen):
    """board_to_tensor_optimized: plane pt-1 (white) or pt+5 (black), row 7-rank, column file."""
    planes = torch.zeros(12, 8, 8)
    placement = fen.split()[0]
    for i, rank_text in enumerate(placement.split("/")):
        rank = 7 - i  # FEN lists rank 8 first
        file = 0
        for c in rank_text:
            if c.isdigit():
                file += int(c)
                continue
            pt = PIECES.index(c.upper()) + 1
            plane = pt - 1 if c.isupper() else pt + 5
            planes[plane, 7 - rank, file] = 1.0
            file += 1
        assert file == 8, fen
    return planes


FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq d3 0 3",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2kr3r/pp1q1ppp/2n1bn2/2bp4/8/2NP1NP1/PP2PPBP/R1BQ1RK1 w - - 4 11",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/R2Q1RK1 b - - 3 10",
    "3r2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
    "8/8/8/8/8/5k2/5q2/7K w - - 0 1",
    "6k1/5ppp/8/8/8/8/8/Q5K1 b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
    "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq d6 0 3",
    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    "8/P7/8/8/8/8/p6k/K7 w - - 0 1",
    "1r4k1/3b1ppp/p3p3/1ppqP3/3P4/2PB1N2/P4PPP/R2Q2K1 w - - 0 20",
    "8/3k4/8/2B5/8/8/3K4/8 b - - 0 60",
]


def quantise(t):
    """t rounded to 8 significant bits: round(t / s) * s with the power of two
    s = 2^floor(log2(max|t| / 127)), so |t| / s stays below 255."""
    m = t.abs().max().item()
    if m == 0:
        return t
    s = 2.0 ** torch.floor(torch.log2(torch.tensor(m / 127.0))).item()
    return torch.round(t / s) * s


def random_boards(n, gen):
    """Random piece sets (no legality) and a material-balance target in (-1, 1)."""
    x = torch.zeros(n, 12, 8, 8)
    worth = torch.tensor([1.0, 3.0, 3.0, 5.0, 9.0, 0.0] * 2) * torch.tensor([1.0] * 6 + [-1.0] * 6)
    for b in range(n):
        count = int(torch.randint(2, 33, (1,), generator=gen))
        squares = torch.randperm(64, generator=gen)[:count]
        planes = torch.randint(0, 12, (count,), generator=gen)
        x[b, planes, squares // 8, squares % 8] = 1.0
    y = torch.tanh((x.sum(dim=(2, 3)) * worth).sum(dim=1) / 8.0)
    return x, y.unsqueeze(1)


def main():
    torch.manual_seed(20250101)
    gen = torch.Generator().manual_seed(7)
    net = ValueNet()
    with torch.no_grad():
        # Non-default BatchNorm affine parameters, so that a loader ignoring
        # them cannot pass.
        for i in (1, 4, 7):
            net.body[i].weight.uniform_(0.5, 1.5)
            net.body[i].bias.uniform_(-0.3, 0.3)

    # A short supervised fit (material balance of random boards) gives the
    # network a realistic spread of outputs over tanh's range and BatchNorm
    # running statistics that are far from mean 0 / variance 1, like a real
    # checkpoint's (a freshly initialised net answers ~the same for every board).
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    net.train()
    for step in range(60):
        x, y = random_boards(32, gen)
        loss = torch.nn.functional.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("final training loss %.4f" % loss.item())
    net.eval()

    sd = net.state_dict()
    with torch.no_grad():
        # In place: the state_dict's tensors are the net's, so golden.json
        # below is the quantised net's. BatchNorm's running statistics are
        # floats too; num_batches_tracked (int64) is left as it is.
        for t in sd.values():
            if t.is_floating_point():
                t.copy_(quantise(t))
    torch.save(sd, "valuenet_state.pt")
    torch.save({"m": sd, "g": 3, "best_wr": 0.55}, "valuenet_ckpt.pt")
    # -n: no name or time stamp in the header, so a rerun gives the same bytes.
    subprocess.run(["gzip", "-9nf", "valuenet_state.pt", "valuenet_ckpt.pt"], check=True)

    x = torch.stack([board_to_tensor(f) for f in FENS])
    with torch.no_grad():
        values = net(x).squeeze(1).tolist()
    golden = {
        "description": "thesis ValueNet (make_fixtures.py), eval mode; value = net(board_to_tensor_optimized(fen))",
        "positions": [
            {"fen": f, "pieces": int(x[i].sum().item()), "value": v}
            for i, (f, v) in enumerate(zip(FENS, values))
        ],
    }
    with open("golden.json", "w") as out:
        json.dump(golden, out, indent=1)
        out.write("\n")
    print("values:", " ".join("%.4f" % v for v in values))
    print("params (trainable):", sum(p.numel() for p in net.parameters()))
    print("numbers in state_dict:", sum(t.numel() for t in sd.values()))

if __name__ == "__main__":
    main()
