"""A metric logger and a meter whose methods read what they are given on the host."""
import torch


class MetricLogger:
    def __init__(self):
        self.meters = {}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k] = v

    def keep(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k] = v.detach()


class Meter:
    def __init__(self):
        self.sum = 0.0

    def add(self, value, n=1):
        self.sum += float(value) * n
