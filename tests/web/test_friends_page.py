"""Friends and invitations by name in the browser: two people, each on a device of their own (a
browser context: its own cookies and storage), against a real ``oriflamme serve``."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from support.browser import Server, need_chromium, open_page

need_chromium()


def _register(page: Page, name: str) -> None:
    page.fill("input[name=account-name]", name)
    page.fill("input[name=account-password]", f"{name}'s password")
    page.click("button.register")
    expect(page.locator(".account-in")).to_contain_text(f"Logged in as {name}.")


def test_a_table_made_for_a_friend_by_name_is_in_their_lobby_and_its_seat_is_theirs(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    ann = open_page(browser, server.url + "/", errors)
    bob = open_page(browser, server.url + "/", errors)
    _register(ann, "Ann")
    _register(bob, "Bob")

    # Each lists the other: then each sees whether the other is here.
    ann.fill("input[name=friend-name]", "bob")
    ann.click(".add-friend button[type=submit]")
    friend = ann.locator(".friends .friend")
    expect(friend).to_have_text("Bob RemoveBlock")
    expect(friend.locator(".dot")).to_have_count(0)  # Bob has not listed Ann
    bob.fill("input[name=friend-name]", "Ann")
    bob.click(".add-friend button[type=submit]")
    ann.reload()
    expect(ann.locator(".friends .friend .dot.on")).to_have_count(1)

    # Ann makes a table for three, the second seat offered to Bob by name, the third a friend's
    # seat for later; a redraw in between (as a list answering) keeps what she typed.
    ann.select_option("select[name=players]", "3")
    for seat in (1, 2):
        ann.locator(".seats .seat-row").nth(seat).locator("select").first.select_option("person")
    ann.click("input[name=invite-1]")
    ann.keyboard.type("Bo")
    ann.evaluate(
        """() => {
          const select = document.querySelector("select[name=deck]");
          select.dispatchEvent(new Event("change"));
        }"""
    )
    ann.keyboard.type("b")
    expect(ann.locator("input[name=invite-1]")).to_have_value("Bob")
    ann.click(".new-table button[type=submit]")
    created = ann.locator(".created .invite").first
    expect(created).to_contain_text("invited: Bob")
    link = created.locator("input").input_value()

    # Bob's lobby shows the invitation; taking it opens the seat's own link.
    bob.reload()
    invitation = bob.locator(".invitations .invitation")
    expect(invitation).to_have_count(1)
    expect(invitation).to_contain_text("Invited by Ann")
    expect(invitation).to_contain_text("3 players")
    invitation.locator("button.take-invite").click()
    bob.wait_for_url(link)
    expect(bob.locator(".queue")).to_be_visible()
    # The seat is Bob's: back in the lobby, it is among his tables, and the invitation is gone.
    bob.goto(server.url + "/")
    expect(bob.locator(".my-tables .table-card")).to_have_count(1)
    expect(bob.locator(".invitations")).to_be_hidden()

    # From the table's host link, Ann offers the third seat, which nobody took, by name too.
    ann.goto(server.url + "/")
    ann.locator(".my-tables details.invites summary").click()
    ann.fill("input[name=host-invite-2]", "Bob")
    ann.click(".host-invite button")
    expect(ann.locator(".toast")).to_contain_text("Invitation sent to Bob.")
    bob.reload()
    expect(bob.locator(".invitations .invitation")).to_contain_text("Player 3 (your seat)")
    assert errors == []
