"""A small GPU pipeline with the host round trips gpulint reports.

Each step is correct Python and runs; each one also stalls the GPU or copies data across the bus
for no reason. `gpulint examples/` explains every finding and its fix.
"""
import cupy as cp
import numpy as np
import torch

kernel = np.array([0.25, 0.5, 0.25], dtype=np.float32)
signal = cp.random.standard_normal(1 << 20, dtype=cp.float32)


def smooth(steps):
    history = []
    for step in range(steps):
        weights = cp.asarray(kernel)                  # the same upload every step
        smoothed = cp.convolve(signal, weights, mode="same")
        history.append(float(smoothed.mean()))        # a device-to-host read per step
        if smoothed.max() > 10:                       # the condition syncs every step
            break
    return history


def spectrum():
    host = cp.asnumpy(signal)
    power = np.abs(np.fft.rfft(host)) ** 2            # NumPy has it, so does CuPy: cp.fft.rfft
    return cp.asarray(power)                          # and back to the device


def train_step(model, batch):
    logits = torch.randn(batch, 10, device="cuda")
    probs = logits.softmax(dim=1).cpu().numpy()
    clipped = np.clip(probs, 1e-6, 1.0)
    return torch.tensor(clipped, device="cuda")       # torch.clamp would have stayed on the GPU


def report(values):
    summary = cp.asarray(values).sum()
    print("total", float(summary))                    # once, after the work: fine
