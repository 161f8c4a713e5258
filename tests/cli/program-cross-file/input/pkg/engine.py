import torch

from .helpers import report


def log_loss(loss):
    print(f"loss {loss.item():.3f}")  # expect: per step through train.py


def step_helper(loss):
    report(loss)


def run_epoch(model, loader):
    total = torch.zeros((), device="cuda")
    for x in loader:
        x = x.cuda(non_blocking=True)
        out = model(x).sum()
        total += out
    print(float(total))  # ok: once per epoch, beside the loop that does the work


def never_called(loss):
    return loss.item()  # ok: nothing calls it
