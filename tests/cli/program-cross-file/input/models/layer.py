import torch

from .base import ProjectModule, Registry
from .masks import build_table, causal_mask


class Scaled(ProjectModule):
    def __init__(self):
        super().__init__()
        self.scale = torch.ones((), device="cuda")
        self.table = build_table(4)

    def forward(self, x):
        noise = torch.randn(x.shape, device="cuda") + causal_mask(x.shape[0])
        if noise.abs().max().item() > 4.0:  # expect: forward of a torch.nn.Module, via base.py
            noise = noise.clamp(-4.0, 4.0)
        return x + noise


class Lookup(Registry):
    def forward(self, key):
        table = torch.zeros(4, device="cuda")
        return table.sum().item()  # ok: Registry is not a module; nothing calls this per step
