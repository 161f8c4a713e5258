"""A framework's optimizer wrapper: its users call step() on every training step, from code
that is not in this project; the project says so in hot-functions."""
import torch

from .norms import overflow


class Clipper:
    def __init__(self, params):
        self.params = list(params)

    def step(self):
        norm = torch.zeros((), device="cuda")
        for p in self.params:
            norm += p.grad.norm()
        if norm.item() > 1.0:  # expect: named in hot-functions
            for p in self.params:
                p.grad.mul_(0.5)
        overflow(norm)

    def state(self):
        norm = torch.zeros((), device="cuda")
        return norm.item()  # ok: not named, and nothing calls it per step
