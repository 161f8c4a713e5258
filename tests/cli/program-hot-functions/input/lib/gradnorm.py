"""Helpers whose names say they run on every step (the models' per-step-defs)."""
import torch

from .counters import zero_counter, zero_once


def global_grad_norm(grads):
    overflow = torch.tensor([0], device="cuda")  # expect: a constant uploaded on every step
    total = torch.zeros(1, device="cuda") + overflow
    for g in grads:
        total += g.float().norm() ** 2
    total += zero_counter()
    return total.sqrt().item()  # expect: a grad-norm helper runs once per optimizer step


def summarize(grads):
    total = torch.zeros(1, device="cuda") + zero_once()
    return total.item()  # near miss: no per-step name, and nothing calls it from a loop
