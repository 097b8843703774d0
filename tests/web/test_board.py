"""The board as a person sees it, drawn from positions built for the purpose (``build_position``).

Each test renders one decision with the page's own modules in headless Chromium
(``support.browser.render_board``) and checks what is offered and what a click sends.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from support.browser import Server, need_chromium, open_page, render_board

from oriflamme import build_position
from oriflamme.engine.action_text import action_text

need_chromium()


@pytest.fixture
def page(server: Server, browser: Browser) -> Iterator[Page]:
    errors: list[str] = []
    p = open_page(browser, server.url, errors)
    p.wait_for_selector("header.top")
    yield p
    p.context.close()
    assert errors == []


def _apply(game, text: str) -> None:  # type: ignore[no-untyped-def]
    game.apply(next(a for a in game.options if action_text(game, a) == text))


def test_placing_the_twin_offers_no_cancel_that_does_nothing(page: Page) -> None:
    """The Twin must be placed once its Prince is revealed: the page selects it and offers the places,
    with no Cancel (it used to show one that undid nothing)."""
    g = build_position(
        3, "ablaze", "p1:~prince p2:queen p3:~felon", hands={0: ["schemer"], 1: ["schemer"], 2: ["schemer"]}
    )
    _apply(g, "reveal")
    assert g.view(0).decision == "twin"
    render_board(page, g, 0, selected="twin")
    assert page.locator(".prompt .act.ghost").count() == 0
    assert page.locator(".queue .slot.legal").count() == 2
    page.locator(".queue .slot.legal").first.click()
    assert page.evaluate("window.__acted") == ["place twin first"]
    # An ordinary placement keeps its Cancel, which puts the card back.
    h = build_position(3, "base", "", hands={0: ["spy", "heir"], 1: ["spy"], 2: ["spy"]}, phase="place")
    render_board(page, h, 0, selected="spy")
    page.locator(".prompt .act.ghost").click()
    assert page.locator(".hand .card.selected").count() == 0


def _archer_at_the_middle() -> object:
    """p1 reveals an Archer between p1's own Heir (first) and p2's Spy (last): both are targets."""
    g = build_position(
        3, "base", "p1:heir p1:~archer p2:spy", hands={0: ["lord"], 1: ["lord"], 2: ["lord"]}, pointer=1
    )
    _apply(g, "reveal")
    return g


def test_a_target_among_ones_own_cards_looks_different_and_asks_first(page: Page) -> None:
    """Own cards are not lit like the opponents' (an Archer once eliminated its owner's Archer), and a
    click on one asks for a confirmation, with a warning, before anything is sent."""
    page.evaluate("localStorage.setItem('oriflamme.confirm', '0')")
    render_board(page, _archer_at_the_middle(), 0)
    own = page.locator(".queue .card.legal.own-target")
    assert own.evaluate_all("(els) => els.map((e) => e.dataset.kind)") == ["heir"]
    assert page.locator(".queue .card.legal:not(.own-target)").evaluate_all(
        "(els) => els.map((e) => e.dataset.kind)"
    ) == ["spy"]
    own.click()
    assert page.evaluate("window.__acted") == []
    assert page.locator(".prompt.confirming .warn").count() == 1
    assert page.locator(".queue .card.chosen").get_attribute("data-kind") == "heir"
    page.locator(".prompt .act.ghost").click()  # cancel: nothing sent, the targets are back
    assert page.evaluate("window.__acted") == [] and page.locator(".prompt.confirming").count() == 0
    page.locator(".queue .card.own-target").click()
    page.locator(".prompt .act.confirm").click()
    assert page.evaluate("window.__acted") == ["target 1"]
    # An opponent's card goes at once when the person has not asked for confirmations.
    render_board(page, _archer_at_the_middle(), 0)
    page.locator(".queue .card.legal:not(.own-target)").click()
    assert page.evaluate("window.__acted") == ["target 3"]


def test_with_confirmations_on_every_move_waits_for_a_second_click(page: Page) -> None:
    """The setting (on by default on touch screens) makes every choice a two-step one."""
    page.evaluate("localStorage.setItem('oriflamme.confirm', '1')")
    render_board(page, _archer_at_the_middle(), 0)
    page.locator(".queue .card.legal:not(.own-target)").click()
    assert page.evaluate("window.__acted") == []
    assert page.locator(".prompt.confirming .warn").count() == 0  # not the person's own card
    page.locator(".queue .card.chosen").click()  # the same card again confirms too
    assert page.evaluate("window.__acted") == ["target 3"]


def test_confirmations_are_on_by_default_on_a_touch_screen(server: Server, browser: Browser) -> None:
    for touch, expected in ((True, True), (False, False)):
        context = browser.new_context(
            has_touch=touch, is_mobile=touch, viewport={"width": 390, "height": 844}
        )
        p = context.new_page()
        p.goto(server.url)
        p.wait_for_selector("header.top")
        on = p.evaluate(
            """async () => {
                const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
                return (await import(base + 'confirm.js')).confirmEveryMove();
            }"""
        )
        assert on is expected
        context.close()


#: Every card face in every language at normal and small size; returns the names that do not fit.
_OVERFLOWS = """async (kinds) => {
    const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
    const i18n = await import(base + 'i18n.js');
    const { cardEl } = await import(base + 'cards.js');
    // A stage of its own: the lobby redraws its #app whenever an answer comes (tables, ladders).
    document.body.replaceChildren(document.createElement('main'));
    const bad = [];
    for (const lang of i18n.LANGUAGES) {
        await i18n.setLanguage(lang);
        const box = document.createElement('div');
        box.className = 'hand';
        document.querySelector('main').replaceChildren(box);
        for (const kind of kinds) {
            for (const small of [false, true]) box.append(cardEl({ kind, owner: 0, ctrl: 0, up: true }, { small }));
        }
        for (const card of box.querySelectorAll('.card')) {
            const name = card.querySelector('.name');
            const c = card.getBoundingClientRect();
            const r = name.getBoundingClientRect();
            const art = card.querySelector('.art').getBoundingClientRect();
            const wide = name.scrollWidth > name.clientWidth + 1;
            const out = r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.bottom > c.bottom + 0.5;
            // The name may not cover more than the lowest fifth of the emblem.
            const covers = r.top < art.bottom - art.height / 5;
            if (wide || out || covers) {
                bad.push(`${lang} ${card.dataset.kind}${card.classList.contains('small') ? ' (small)' : ''}: `
                    + `${name.textContent} ${name.scrollWidth}/${name.clientWidth}px wide, top ${Math.round(r.top - c.top)}`);
            }
        }
    }
    return bad;
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_no_card_name_is_cut_off_in_any_language(server: Server, browser: Browser, width: int) -> None:
    """All 31 kinds, five languages, normal and small cards, at desktop and phone width: every name
    fits its card («Вымогательство», "Informatorka" and "Shapeshifter" did not)."""
    from oriflamme.engine.cards import SLUGS

    context = browser.new_context(viewport={"width": width, "height": 800})
    p = context.new_page()
    p.goto(server.url)
    p.wait_for_selector("header.top")
    bad = p.evaluate(_OVERFLOWS, list(SLUGS))
    assert bad == [], "\n".join(bad)
    context.close()


def test_a_shapeshifter_copying_an_archer_says_so_and_uses_the_archers_reach(page: Page) -> None:
    """The prompt names the copy ("Shapeshifter (as Archer)"), explains with the Archer's text (first
    or last card), the IP an elimination brings, and that a face-down target may be an Ambush."""
    g = build_position(
        3,
        "base",
        "p2:~heir p3:archer p1:~shapeshifter p3:spy",
        hands={0: ["lord"], 1: ["lord"], 2: ["lord"]},
        pointer=2,
    )
    _apply(g, "reveal")
    _apply(g, "copy archer")
    render_board(page, g, 0)
    assert (
        page.locator(".prompt-text").inner_text() == "Shapeshifter (as Archer): choose the card to eliminate."
    )
    why = page.locator(".prompt .why p").all_inner_texts()
    assert why[0].startswith("Shapeshifter uses the Archer's ability, with its reach: ")
    assert "first" in why[0] and "last" in why[0]  # the Archer's text: first or last card of the queue
    assert "Eliminating a card gains you 1 IP." in why
    assert "A face-down card may be Ambush: eliminating it sets it off against you." in why
    assert page.locator(".queue .card.legal").evaluate_all(
        "(els) => els.map((e) => e.dataset.pos || e.closest('.pos').dataset.pos)"
    ) == ["0", "3"]


def test_keep_or_reveal_says_what_each_choice_brings(page: Page) -> None:
    g = build_position(3, "base", "p1:~lord+2 p2:spy", hands={0: ["heir"], 1: ["heir"], 2: ["heir"]})
    render_board(page, g, 0)
    why = page.locator(".prompt .why p").all_inner_texts()
    assert why[0] == (
        "Keeping it hidden adds 1 IP on it for later; revealing takes the 2 IP on it "
        "(unless its text says otherwise) and applies its ability now."
    )
    assert why[1].startswith("Lord: ")
    # Nothing is explained to a seat that is not deciding (it is waiting for p1).
    render_board(page, g, 1)
    assert page.locator(".prompt .why").count() == 0


def test_a_stack_shows_its_height_and_the_names_of_the_face_up_cards_beneath(page: Page) -> None:
    """A face-up card under another keeps its name readable in the strip left visible (it was a
    12 px strip nobody could read), and each stack says how many cards it holds."""
    g = build_position(
        3,
        "base",
        "p1:spy/p1:~heir p2:~lord/p2:archer/p2:~soldier p3:shapeshifter",
        hands={0: ["lord"], 1: ["heir"], 2: ["lord"]},
        pointer=2,
    )
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 800})
        render_board(page, g, 0)
        assert page.locator(".pos .stack-height").all_inner_texts() == ["×2", "×3"]
        readable = page.evaluate(
            """() => [...document.querySelectorAll('.stack .card.under')].map((card) => {
                const name = card.querySelector('.name');
                if (!name) return [card.dataset.kind || null, null];
                const r = name.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return [card.dataset.kind, !!hit && name.contains(hit) && r.height >= 8];
            })"""
        )
        # spy (face up under p1's Heir), p2's hidden Lord (no name to show), p2's face-up Archer
        assert readable == [["spy", True], [None, None], ["archer", True]], width


def test_an_intrigue_revealed_and_discarded_in_one_step_is_shown_face_up(
    server: Server, browser: Browser
) -> None:
    """A Conspiracy is revealed and leaves the queue in the same step, so no state ever draws it face
    up; the animation of its leaving shows its face, held before it falls."""
    from oriflamme.engine.view import redact
    from oriflamme.web.protocol import event_payload, view_payload

    g = build_position(
        3, "base", "p2:spy p1:~conspiracy+2", hands={0: ["lord"], 1: ["lord"], 2: ["lord"]}, pointer=1
    )
    before = view_payload(g.view(1))  # seen by p2, to whom the Conspiracy is a face-down card
    events = [
        event_payload(redact(g, e, 1))
        for e in g.apply(next(a for a in g.options if action_text(g, a) == "reveal"))
    ]
    after = view_payload(g.view(1))
    assert [e["type"] for e in events][:1] == ["revealed"] and len(after["queue"]) == 1
    context = browser.new_context(viewport={"width": 1366, "height": 800}, reduced_motion="no-preference")
    p = context.new_page()
    p.goto(server.url)
    p.wait_for_selector("header.top")
    shown = p.evaluate(
        """async ([before, after, events]) => {
            const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
            const { board } = await import(base + 'board.js');
            const { parseLegal } = await import(base + 'legal.js');
            const { animateChange, snapshotQueue } = await import(base + 'animate.js');
            // A stage of its own: the lobby redraws its #app whenever an answer comes.
            document.body.replaceChildren(document.createElement('main'));
            const draw = (view) => document.querySelector('main').replaceChildren(board({
                view, seat: 1, names: (s) => `P${s + 1}`, legal: parseLegal([]), act: () => {}, select: () => {},
                selected: null, online: null, seats: null, rules: null, interactive: false, reveal: null,
            }));
            draw(before);
            const hidden = document.querySelector('.queue .pos:last-child .card').classList.contains('down');
            const snapshot = snapshotQueue(before);
            draw(after);
            animateChange(snapshot, events);
            const ghost = document.querySelector('#fx .leaving-card .card');
            return [hidden, ghost && ghost.classList.contains('up') ? ghost.dataset.kind : null];
        }""",
        [before, after, events],
    )
    assert shown == [True, "conspiracy"]
    context.close()


def _fourteen_cards() -> object:
    """A 2-player hand: two families' cards, two of some kinds."""
    hand = ["spy", "spy", "heir", "lord", "archer", "soldier", "ambush", "conspiracy", "assassination",
            "royal-decree", "shapeshifter", "heir", "lord", "archer"]  # fmt: skip
    return build_position(2, "base", "", hands={0: hand, 1: ["spy"]}, phase="place")


def test_a_two_player_hand_of_fourteen_cards_keeps_to_one_row_and_lifts_only_the_copy_clicked(
    page: Page,
) -> None:
    """On a laptop the 14 cards share one row side by side; on a phone they wrap into rows (overlapped
    in one row, each hid the name of the one before). Every card is whole, named and reachable."""
    g = _fourteen_cards()
    for width, lines in ((1366, 1), (390, 3)):
        page.set_viewport_size({"width": width, "height": 800})
        render_board(page, g, 0)
        rows = page.evaluate(
            """() => {
                const cards = [...document.querySelectorAll('.hand-block:first-child .hand .card')];
                const tops = new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top)));
                // every card can be pointed at, and its name is not under another card
                const reachable = cards.every((c) => {
                    const r = c.getBoundingClientRect();
                    const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
                    const name = c.querySelector('.name').getBoundingClientRect();
                    const onName = document.elementFromPoint(name.left + name.width / 2, name.top + name.height / 2);
                    return hit && c.contains(hit) && onName && c.contains(onName);
                });
                const right = Math.max(...cards.map((c) => c.getBoundingClientRect().right));
                return [cards.length, tops.size, reachable, right <= window.innerWidth];
            }"""
        )
        assert rows == [14, lines, True, True], width
    page.set_viewport_size({"width": 1366, "height": 800})
    render_board(page, g, 0)
    page.locator(".hand .card[data-kind=spy]").nth(1).click(position={"x": 5, "y": 60})  # its visible strip
    lifted = page.locator(".hand .card.selected")
    assert lifted.count() == 1
    spies = page.evaluate(
        "() => [...document.querySelectorAll('.hand-block:first-child .hand .card')]"
        ".filter((c) => c.dataset.kind === 'spy').map((c) => c.classList.contains('selected'))"
    )
    assert spies == [False, True]  # the second copy only


def test_the_ends_of_the_queue_are_buttons_in_the_prompt_too(page: Page) -> None:
    """On a phone the far end of a long queue is off screen: the prompt offers both ends."""
    g = build_position(
        3, "base", "p1:~heir p2:~spy p3:~lord p2:~archer p3:~heir p2:~lord p3:~spy",
        hands={0: ["soldier", "archer"], 1: ["soldier"], 2: ["soldier"]}, phase="place", round=2,
    )  # fmt: skip
    page.set_viewport_size({"width": 390, "height": 844})
    render_board(page, g, 0)
    page.locator(".hand .card.legal[data-kind=soldier]").click()
    ends = page.locator(".prompt .act.end-choice")
    assert ends.all_inner_texts() == ["Place at the start", "Place at the end"]
    box = ends.nth(1).bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    ends.nth(1).click()
    assert page.evaluate("window.__acted") == ["place soldier last"]
