# tests/gpu/sync_cases/distributions.py: owns the sync oracle's cases for torch.distributions with
# CUDA parameters (argument and sample validation, which is on by default), sampling, and the
# near misses: validate_args=False, rsample, multinomial, a Gumbel-max draw, clip_grad_norm_.
# Run by tests/gpu/sync_oracle.py; the annotation format is checked by tests/gpu/sync_check.py.
# Setup lines (unannotated) must not synchronize. A sync inside torch's own Python code is
# counted on the line of this file that called it.
import torch
from torch.distributions import Categorical, Normal


def case(device):
    mu = torch.zeros(4, device=device)
    sigma = torch.ones(4, device=device)
    v = torch.linspace(-1.0, 1.0, 4, device=device)
    logits = torch.linspace(-1.0, 1.0, 20, device=device).reshape(4, 5)
    probs = torch.softmax(logits, dim=-1)
    w = torch.nn.Parameter(torch.ones(16, 16, device=device))
    w.grad = torch.full((16, 16), 0.5, device=device)

    dist = Normal(mu, sigma)  # sync: yes -- Normal(mu, sigma) with default validate_args
    s1 = dist.sample()  # sync: yes -- Normal(...).sample()
    lp = dist.log_prob(v)  # sync: yes -- Normal(...).log_prob(v) with default validate_args
    cat = Categorical(logits=logits)  # sync: yes -- Categorical(logits=l) construction

    # Near misses.
    fast = Normal(mu, sigma, validate_args=False)  # sync: no -- Normal(..., validate_args=False)
    s2 = fast.sample()  # sync: yes -- Normal(..., validate_args=False).sample(): torch.normal checks std on the host
    s3 = fast.rsample()  # sync: no -- Normal(..., validate_args=False).rsample()
    draw = torch.multinomial(probs, 1)  # sync: no -- torch.multinomial(probs, 1)
    noise = torch.empty_like(probs).exponential_()
    draw2 = (probs / noise).argmax(dim=-1)  # sync: no -- Gumbel-max draw (argmax of probs / Exp(1))
    gnorm = torch.nn.utils.clip_grad_norm_([w], 1.0)  # sync: no -- clip_grad_norm_ on CUDA grads
    return s1, lp, cat, s2, s3, draw, draw2, gnorm
