import torch


class ProjectModule(torch.nn.Module):
    """A project's own base module: its subclasses live in other files."""


class Registry:
    """Not a module."""
