import torch


def load_shard(path):
    counts = torch.zeros(4, device="cuda")
    return int(counts.sum().item())  # ok: called once per shard, given a path, not the step's data
