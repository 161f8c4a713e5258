def report(loss):
    value = loss.item()  # expect: train.py -> engine.step_helper -> here
    return value
