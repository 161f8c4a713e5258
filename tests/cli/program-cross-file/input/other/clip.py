def clip_norm(norm):
    if norm.item() > 1.0:  # expect: Trainer.fit -> after_step -> here
        return True
    return False
