"""pgx's own code drives the ``Env`` unchanged: its auto-reset wrapper and its random policy.

Code written for pgx's environments vmaps ``env.init`` and ``env.step``, picks actions from
``legal_action_mask`` with ``pgx.experimental.act_randomly`` and deals ended games afresh with
``pgx.experimental.auto_reset``, which reads and replaces the state's fields by name
(``terminated``, ``truncated``, ``rewards``, ``replace``). Here that code, imported from pgx
itself, runs on the Oriflamme environment as it would on one of pgx's games.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pgx_experimental = pytest.importorskip("pgx.experimental", reason="pgx is a test dependency")

from oriflamme.vector import Env  # noqa: E402

BATCH = 4


def test_pgx_auto_reset_and_random_policy_play_games_through_their_ends() -> None:
    env = Env(players=2, deck="base")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(pgx_experimental.auto_reset(env.step, env.init)))
    key, deal = jax.random.split(jax.random.key(0))
    state = init(jax.random.split(deal, BATCH))
    ended = np.zeros(BATCH, dtype=bool)
    stepped_after_end = np.zeros(BATCH, dtype=bool)
    for _ in range(150):
        key, act_key, step_key = jax.random.split(key, 3)
        action = pgx_experimental.act_randomly(act_key, state.legal_action_mask)
        assert bool(state.legal_action_mask[np.arange(BATCH), action].all())
        was_over = np.asarray(state.terminated)
        state = step(state, action, jax.random.split(step_key, BATCH))
        rewards = np.asarray(state.rewards)
        over = np.asarray(state.terminated)
        # A reward only where a game ended (no illegal action was ever chosen, so no -1), and
        # there a win against a loss, or a shared win (zero-sum, as pgx's terminal rewards).
        assert not rewards[~over].any()
        for row in np.flatnonzero(over):
            assert sorted(rewards[row].tolist()) in ([-0.5, 0.5], [0.0, 0.0])
            # The ended game is already a fresh deal, as auto_reset promises.
            assert int(state._step_count[row]) == 0 and int(state.game.round[row]) == 1
        stepped_after_end |= was_over & ~over
        ended |= over
        if stepped_after_end.all():
            break
    # Every game ended and then went on from its new deal.
    assert ended.all() and stepped_after_end.all()
