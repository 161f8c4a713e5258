"""The entry point: the hot loop lives here, the reads it pays for live in other files."""
import torch

import pkg.metrics as metrics
from app.trainer import Trainer
from pkg import engine
from pkg.engine import log_loss, run_epoch
from pkg.losses import fresh_zero, l2
from pkg.parts import loss_parts, loss_parts_module
from pkg import logger as logs
from pkg.logger import Meter


def main(loader):
    model = torch.nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    log = logs.MetricLogger()
    meter = Meter()
    for step in range(1000):
        x = torch.randn(8, 4, device="cuda")
        loss = (x * 2).sum()
        log_loss(loss)                 # engine.log_loss reads it on every step
        engine.step_helper(loss)       # ...and a helper of a helper (relative import)
        metrics.record(loss)           # a module imported under another name
        metrics.mixed(loss)            # near miss: the other caller passes host data
        if step % 100 == 0:
            metrics.every_n(loss)      # near miss: guarded, not per step
        penalty = l2(x)                # device data in, device data out (losses.py)
        print(penalty.item())          # expect: the value another file's def returned
        host = l2(torch.ones(3))       # host data in: host data out
        print(host.item())             # near miss
        zero = fresh_zero()
        print(float(zero))             # expect: a def that always returns device data
        loss2, parts = loss_parts(x)   # parts went through a project helper (to_cpu)
        print(float(parts[0]))         # near miss: a host tensor, not device data
        print(loss2.item())            # missed: a returned tuple is not tracked element by element
        log.update(loss=loss)          # expect: MetricLogger.update reads each value with .item()
        log.keep(loss=loss)            # near miss: keeps them on the device
        meter.add(loss, 8)             # expect: Meter.add reads it with float()
        meter.add(8.0)                 # near miss: a Python number
        _, parts2 = loss_parts_module(x)
        print(float(parts2[0]))        # near miss: convert.to_cpu through a module import
    metrics.once(loss)                 # near miss: after the loop
    for epoch in range(10):
        run_epoch(model, loader)       # its own loop does the work: per epoch
    Trainer(model).fit(loader)


def host_side(values):
    for v in values:
        metrics.mixed(v.cpu())


def load_all(shards):
    from pkg.data import load_shard
    for path in shards:
        weights = torch.load(path).cuda()
        load_shard(path)
