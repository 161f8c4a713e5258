import torch

from other.clip import clip_norm


class Trainer:
    def __init__(self, model):
        self.model = model

    def fit(self, loader):
        for batch in loader:
            batch = batch.cuda()
            loss = self.model(batch).sum()
            loss.backward()
            self.after_step(loss)

    def after_step(self, loss):
        clip_norm(loss)
