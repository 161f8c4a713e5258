import torch


def train_step(model, x):
    loss = model(x.cuda()).sum()
    loss.backward()
    return loss.item()  # expect: train_step is named in hot-functions


def eval_step(model, x):
    loss = model(x.cuda()).sum()
    return loss.item()  # ok: not named
