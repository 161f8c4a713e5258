def record(loss):
    return float(loss)  # expect: per step, device data from train.py


def mixed(value):
    return value.item()  # ok: one caller passes host data


def every_n(loss):
    return loss.item()  # ok: called under a % guard


def once(loss):
    return loss.item()  # ok: called once, after the loop
