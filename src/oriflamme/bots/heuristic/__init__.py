"""Hand-written play: the choices a sensible casual player would make, for every card and decision.

The policy scores each legal action with a few rules of thumb in
IP-equivalents ("this Soldier will kill a Lord worth 4 more IP to its owner",
"this Conspiracy has 3 IP on it: cash it before someone kills it") and picks
the best. It reads a full :class:`~oriflamme.engine.game.Game`, but only what the
deciding seat may know: the identity of a card is looked at only when it is
face up, owned by that seat, or exposed (an Insurrection turned back down,
which everybody saw). Face-down opponent cards are valued by
expectation over the owner's *unseen kinds* (family minus every card seen
so far), which is card counting, not peeking.

Two users:

* :class:`HeuristicBot` gets a :class:`~oriflamme.engine.view.SeatView`, deals the
  unknown cards arbitrarily with :func:`~oriflamme.engine.sampler.sample_game` (the
  policy never looks at them) and applies the policy;
* the ISMCTS bot calls :func:`heuristic_action` directly on determinized
  games as its playout and opponent model, which is why the policy works on
  a ``Game`` and is written for speed (one decision costs tens of
  microseconds, a placement a little more).
"""

from .bot import HeuristicBot
from .policy import heuristic_action
from .values import KEEP_LIKELIHOOD

__all__ = ["KEEP_LIKELIHOOD", "HeuristicBot", "heuristic_action"]
