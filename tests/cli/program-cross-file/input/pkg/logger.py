"""A metric logger and a meter whose methods read what they are given on the host."""
import torch


class MetricLogger:
    def __init__(self):
        self.meters = {}

    def update(self, **kwargs):
        self.meters.update({name: value.item() for name, value in kwargs.items()})

    def keep(self, **kwargs):
        self.meters.update({name: torch.as_tensor(value).detach() for name, value in kwargs.items()})


class Meter:
    def __init__(self):
        self.sum = 0.0

    def add(self, value, n=1):
        self.sum += float(value) * n
