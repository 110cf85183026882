"""``--arch linear-probe``: scikit-learn logistic regression on a frozen trunk's features.

MammoVQA's linear probe: the trunk (``--backbone``, with ``--weights`` when the user has
pretrained ones, seeded random features otherwise) is never trained; one standardised logistic
regression per category is fitted on its pooled features of the train split. The scaler and the
regression are folded into that category's linear head, so the saved classifier is an ordinary
multi-head network that the ``supervised:`` backend runs like any other.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from medvqa.models import to_tensor
from medvqa.train._data import ClassifierData, Split
from medvqa.train._evaluate import EpochRow, evaluate


def features(net: Any, split: Split, device: str, batch_size: int = 64) -> np.ndarray:
    """Pooled trunk features ``(N, width)`` of a split, in eval mode."""
    import torch

    net.eval()
    trunk = net.trunks["shared"]
    out = []
    with torch.inference_mode():
        for s in range(0, len(split), batch_size):
            x = to_tensor(split.images[s:s + batch_size]).to(device)
            out.append(trunk(x).float().cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, net.width), np.float32)


def fit_probe(net: Any, data: ClassifierData, config: Any, device: str
              ) -> tuple[dict[str, Any], Any]:
    """Fit one logistic regression per category; return the net's weights and a log row."""
    import torch
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.preprocessing import StandardScaler

    t0 = time.perf_counter()
    net.to(device)
    train_x = features(net, data.train, device, config.batch_size)
    losses = []
    for cat, classes in data.categories.items():
        rows = np.asarray([c == cat for c in data.train.categories])
        x, y = train_x[rows], data.train.labels[rows]
        scaler = StandardScaler().fit(x)
        clf = LogisticRegression(max_iter=2000, random_state=config.seed)
        clf.fit(scaler.transform(x), y)
        losses.append(log_loss(y, clf.predict_proba(scaler.transform(x)),
                               labels=clf.classes_) * len(y))
        weight = np.zeros((len(classes), x.shape[1]), np.float64)
        bias = np.zeros(len(classes), np.float64)
        coef, icpt = clf.coef_, clf.intercept_
        if len(clf.classes_) == 2:  # sklearn keeps one row for two classes: logit of class 1
            coef, icpt = np.vstack([np.zeros_like(coef), coef]), np.array([0.0, icpt[0]])
        scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
        for k, cls in enumerate(clf.classes_):
            weight[cls] = coef[k] / scale
            bias[cls] = icpt[k] - float(np.sum(coef[k] * scaler.mean_ / scale))
        missing = [i for i in range(len(classes)) if i not in set(clf.classes_)]
        bias[missing] = -1e4  # cannot happen for classes taken from train; kept for safety
        head = net.heads[f"c{list(data.categories).index(cat)}"]
        with torch.no_grad():
            head.weight.copy_(torch.from_numpy(weight).float())
            head.bias.copy_(torch.from_numpy(bias).float())
    val_loss, val_acc = evaluate(net, data.val, device, config.batch_size)
    dt = time.perf_counter() - t0
    row = EpochRow(1, round(sum(losses) / len(data.train), 6), round(val_loss, 6),
                   round(val_acc, 6), round(dt, 3), round(len(data.train) / dt, 1))
    return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}, row
