import torch


def l2(x):
    return (x ** 2).mean()


def fresh_zero():
    return torch.zeros((), device="cuda")
