"""A trained network grown wider and deeper without changing what it plays (Net2Net).

A run that starts from a trained network (``--init``) may want a larger
trunk than that network's: more capacity for the games it will learn, without
throwing away what the smaller network knows. :func:`grown` embeds the old
network in the larger one so that the two compute the same policy and value
for every observation, function-preserving growth in the manner of Net2Net
(Chen, Goodfellow & Shlens, 2016):

* **wider**: a layer's new units get random incoming weights (He's scale, as
  a fresh network's) and zero outgoing weights, so they are computed but
  count for nothing until training moves their outgoing weights (which get a
  gradient at once, the units being active);
* **deeper**: a new layer after the old ones starts as the identity on the
  old units (their activations, having passed a ReLU, are never negative, so
  the new layer's ReLU passes them unchanged), its own new units as above.

Only growth is defined: every old layer keeps its place, and each width is at
least the old one; anything else is refused with a message.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp

from ..train import Params

__all__ = ["grown", "trunk_widths"]


def trunk_widths(params: Params) -> tuple[int, ...]:
    """The widths of ``params``' trunk layers, in order."""
    widths: list[int] = []
    while f"trunk_b{len(widths)}" in params:
        widths.append(int(params[f"trunk_b{len(widths)}"].shape[0]))
    return tuple(widths)


def grown(params: Params, hidden: Sequence[int], key: jax.Array) -> Params:
    """``params`` with the trunk ``hidden``, playing exactly as before (ValueError if it would shrink).

    ``key`` draws the new units' incoming weights. Asked for the trunk they
    already have, ``params`` come back as they are.
    """
    old = trunk_widths(params)
    hidden = tuple(hidden)
    if (
        not old
        or len(hidden) < len(old)
        or any(h < o for h, o in zip(hidden, old, strict=False))
        or any(h < old[-1] for h in hidden[len(old) :])
    ):
        raise ValueError(
            f"cannot grow a trunk of {_text(old)} into {_text(hidden)}: "
            "keep every layer and make none narrower (layers may be added after the last, "
            "each at least as wide as it)"
        )
    if hidden == old:
        return dict(params)
    keys = jax.random.split(key, len(hidden))
    out: Params = {k: v for k, v in params.items() if not k.startswith(("trunk_", "policy_", "value_"))}
    n_in_old = n_in = int(params["trunk_w0"].shape[0])
    for i, width in enumerate(hidden):
        if i < len(old):
            w_old, b_old = params[f"trunk_w{i}"], params[f"trunk_b{i}"]
        else:
            # A new layer: the identity on the units the layers before it had.
            w_old, b_old = jnp.eye(n_in_old, dtype=params["policy_w"].dtype), jnp.zeros(n_in_old)
        width_old = int(b_old.shape[0])
        w = jax.random.normal(keys[i], (n_in, width), dtype=w_old.dtype) * jnp.sqrt(2.0 / n_in)
        # New units of the layer below count for nothing in the old units of this one.
        w = w.at[n_in_old:, :width_old].set(0.0)
        out[f"trunk_w{i}"] = w.at[:n_in_old, :width_old].set(w_old)
        out[f"trunk_b{i}"] = jnp.zeros(width, dtype=b_old.dtype).at[:width_old].set(b_old)
        n_in_old, n_in = width_old, width
    for head in ("policy", "value"):
        w_old = params[f"{head}_w"]
        out[f"{head}_w"] = jnp.zeros((n_in, w_old.shape[1]), dtype=w_old.dtype).at[:n_in_old].set(w_old)
        out[f"{head}_b"] = params[f"{head}_b"]
    return out


def _text(widths: Sequence[int]) -> str:
    return ",".join(str(w) for w in widths) or "no layers"
