"""The Herald: a small new character, as a designer would add one (docs/new-cards.md).

Load it with ``--cards examples/cards/herald.py`` and name it in a recipe:

    oriflamme play --cards examples/cards/herald.py \\
        --deck archer,soldier,spy,heir,lord,assassination,royal-decree,ambush,conspiracy,herald

The Herald announces a card next to it: it puts 1 IP from the supply on a
face-down neighbour (its controller chooses which, its own or an
opponent's). With no face-down neighbour it gains 1 IP itself.
"""

from __future__ import annotations

from typing import Any

from oriflamme.designer import Card, CardText
from oriflamme.engine.boxes.common import ask_target, put_ip


def herald(game: Any, actor: int, ctrl: int, revealed: bool) -> None:
    """Ask which face-down neighbour of ``actor`` gets 1 IP; gain 1 IP when there is none."""
    queue = game.queue
    face_down = [i for i in game.neighbours(queue.index(actor)) if not game.up[queue[i]]]
    if not ask_target(game, actor, ctrl, HERALD.kind, face_down):
        game.gain(ctrl, 1, HERALD.kind)


def announce(game: Any, pending: tuple[int, ...], card: int) -> None:
    """The chosen card gets 1 IP from the supply (pending[3] is the player the Herald works for)."""
    put_ip(game, pending[3], card, 1)


HERALD = Card(
    slug="herald",
    box="heralds",
    character=True,
    ability=herald,
    target_effect=announce,
    texts={
        "en": CardText(
            "Herald",
            "Put 1 IP from the supply on a face-down card next to this one. "
            "If neither neighbour is face down, gain 1 IP.",
            target="Herald: which face-down neighbour gets 1 IP?",
        ),
        "ru": CardText(
            "Глашатай",
            "Положите 1 очко влияния из резерва на соседнюю с этой закрытую карту. "
            "Если закрытых соседей нет, получите 1 очко влияния.",
            target="Глашатай: на какую закрытую соседнюю карту положить 1 очко?",
        ),
        "uk": CardText(
            "Оповісник",
            "Покладіть 1 очко впливу з запасу на сусідню з цією закриту карту. "
            "Якщо закритих сусідів немає, отримайте 1 очко впливу.",
            target="Оповісник: на яку закриту сусідню карту покласти 1 очко?",
        ),
        "pl": CardText(
            "Herold",
            "Połóż 1 punkt Wpływu z zasobów na zakrytej karcie sąsiadującej z tą. "
            "Jeśli żaden sąsiad nie jest zakryty, zyskaj 1 punkt Wpływu.",
            target="Herold: na którą zakrytą sąsiednią kartę położyć 1 punkt?",
        ),
        "fr": CardText(
            "Héraut",
            "Posez 1 point d'influence de la réserve sur une carte face cachée voisine de celle-ci. "
            "Si aucune voisine n'est face cachée, gagnez 1 point d'influence.",
            target="Héraut : sur quelle carte voisine face cachée poser 1 point ?",
        ),
    },
    # A trumpet: its bell, its tube and a banner hanging from it (48x48, drawn in the family colours).
    art=("M6 20v8l10 2V18z", "M16 22h18l8-8v20l-8-8H16", "M20 26v10l5-3 5 3V26"),
    # Most of the time the IP goes on one's own face-down card: worth about 1 IP per activation.
    hints={"act": 1.1, "keep": 0.25, "target": "own"},
)

CARDS = [HERALD]
