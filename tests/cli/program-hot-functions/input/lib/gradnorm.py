"""Helpers whose names say they run on every step (the models' per-step-defs)."""
import torch


def global_grad_norm(grads):
    overflow = torch.tensor([0], device="cuda")  # expect: a constant uploaded on every step
    total = torch.zeros(1, device="cuda") + overflow
    for g in grads:
        total += g.float().norm() ** 2
    return total.sqrt().item()  # expect: a grad-norm helper runs once per optimizer step


def summarize(grads):
    total = torch.zeros(1, device="cuda")
    return total.item()  # near miss: no per-step name, and nothing calls it from a loop
