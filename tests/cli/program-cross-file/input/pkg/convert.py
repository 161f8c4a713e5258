def to_cpu(tensor):
    return tensor.detach().cpu()
