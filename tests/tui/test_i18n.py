"""Message catalogs: complete in every language, consistent, and with rulebook card names."""

from __future__ import annotations

import pytest
from babel import Locale

from oriflamme.engine.actions import FETCH_NAMES, MODE_NAMES
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.registry import DECISION_NAMES
from oriflamme.i18n import (
    LANGUAGES,
    Translator,
    language_from_environment,
    load_catalog,
    placeholders,
    substitute,
)

OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_catalog_has_every_english_key_and_no_other(lang: str) -> None:
    """A translation has exactly the keys of the English catalog (no gap, no stale key)."""
    english = set(load_catalog("en"))
    catalog = set(load_catalog(lang))
    assert sorted(english - catalog) == []
    assert sorted(catalog - english) == []


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_message_uses_the_same_placeholders_as_english(lang: str) -> None:
    """A translated message fills the same {fields}, so the same code formats every language."""
    english = load_catalog("en")
    catalog = load_catalog(lang)
    wrong = {k: (placeholders(english[k]), placeholders(v)) for k, v in catalog.items()
             if placeholders(v) != placeholders(english[k])}  # fmt: skip
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_objects_use_the_languages_own_categories(lang: str) -> None:
    """Plural forms are keyed by the CLDR categories of the language, with 'other' and every
    category a count from 0 to 200 can take (what Intl.PluralRules will ask for in the browser)."""
    rule = Locale.parse(lang).plural_form
    allowed = set(rule.tags) | {"other"}
    needed = {rule(n) for n in range(201)} | {"other"}
    plural = {k: v for k, v in load_catalog(lang).items() if isinstance(v, dict)}
    assert "unit.ip" in plural
    for key, forms in plural.items():
        assert set(forms) <= allowed, (key, set(forms) - allowed)
        assert needed <= set(forms), (key, needed - set(forms))
        assert all(isinstance(f, str) and f for f in forms.values()), key
        # A plural message always says how many.
        assert all("{n}" in f for f in forms.values()), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_decision_mode_and_pile_has_words_in_every_language(lang: str) -> None:
    """All 31 cards have a name and a text; every decision, mode and fetch pile has its words."""
    catalog = load_catalog(lang)
    keys = [f"card.{slug}.{part}" for slug in SLUGS for part in ("name", "text")]
    keys += [f"decision.{name}" for name in DECISION_NAMES]
    keys += [f"option.mode.{m}" for m in MODE_NAMES] + [f"option.fetch.{f}" for f in FETCH_NAMES]
    keys += ["rules.summary", "help.commands", "unit.ip"]
    assert [k for k in keys if not catalog.get(k)] == []
    names = [catalog[f"card.{slug}.name"] for slug in SLUGS]
    assert len(set(names)) == len(SLUGS), "two cards share a name"


def test_card_names_follow_the_rulebooks_where_a_rulebook_names_the_card() -> None:
    """Names from the seeds: Russian base and Ablaze (000, 001), Polish base (002), Ukrainian
    Alliance (003), French base (004), and the names the project's rules file quotes
    for the cards of docs/rules.md §1."""
    expected = {
        "ru": {"assassination": "Яд", "shapeshifter": "Подражатель", "royal-decree": "Королевский указ",
               "heir": "Наследник", "plot": "Комбинация", "cutthroat": "Головорез", "felon": "Преступник",
               "schemer": "Интриганка", "impersonation": "Подмена", "bribery": "Подкуп", "trap": "Ловушка",
               "twin": "Близнец", "apothecary": "Аптекарь"},
        "pl": {"assassination": "Zlecenie zabójstwa", "shapeshifter": "Impostor", "archer": "Łucznik",
               "soldier": "Żołnierz", "royal-decree": "Królewski Dekret", "ambush": "Zasadzka",
               "conspiracy": "Spisek", "heir": "Dziedzic"},
        "uk": {"empress": "Імператорка", "fanatic": "Фанатик", "informant": "Інформаторка",
               "diplomat": "Дипломатка", "deserter": "Дезертир", "judge": "Суддя",
               "insurrection": "Повстання", "extortion": "Здирство", "infiltration": "Проникнення",
               "agreement": "Угода"},
        "fr": {"assassination": "Assassinat", "shapeshifter": "Changeforme", "royal-decree": "Décret royal",
               "lord": "Seigneur", "spy": "Espion", "ambush": "Embuscade", "conspiracy": "Complot"},
    }  # fmt: skip
    for lang, names in expected.items():
        t = Translator(lang)
        assert {slug: t.card(slug) for slug in names} == names


def test_russian_and_polish_counts_take_the_right_plural_form() -> None:
    """1 / 3 / 5 / 21 / 22 IP are told with the one / few / many forms of each language."""
    ru = Translator("ru")
    assert [ru.ip(n) for n in (1, 3, 5, 21, 22)] == [
        "1 очко влияния", "3 очка влияния", "5 очков влияния", "21 очко влияния", "22 очка влияния",
    ]  # fmt: skip
    pl = Translator("pl")
    assert [pl.ip(n) for n in (1, 3, 5, 12, 22)] == [
        "1 punkt Wpływu", "3 punkty Wpływu", "5 punktów Wpływu", "12 punktów Wpływu", "22 punkty Wpływu",
    ]  # fmt: skip
    assert Translator("fr").ip(0) == "0 point d'influence"
    assert Translator("en").ip(1) == "1 IP"


@pytest.mark.parametrize(
    ("lang", "two", "three"),
    [
        ("en", "p1 and p2", "p1, p2, and p3"),
        ("ru", "p1 и p2", "p1, p2 и p3"),
        ("uk", "p1 і p2", "p1, p2 і p3"),
        ("pl", "p1 i p2", "p1, p2 i p3"),
        ("fr", "p1 et p2", "p1, p2 et p3"),
    ],
)
def test_names_are_joined_as_each_language_lists_them(lang: str, two: str, three: str) -> None:
    """CLDR's list patterns: English alone puts a comma before "and" from three names on."""
    t = Translator(lang)
    assert [t.join(["p1", "p2", "p3"][:n]) for n in range(4)] == ["", "p1", two, three]


def test_missing_key_falls_back_to_english_then_to_the_key_itself() -> None:
    """A gap degrades one message, it never raises."""
    t = Translator("ru")
    t.catalog = {k: v for k, v in t.catalog.items() if k != "event.gained"}
    assert t("event.gained", player="p1", ip=t.ip(2), cause="Heir") == "p1 gains 2 очка влияния (Heir)."
    assert t("no.such.key", x=1) == "no.such.key"


def test_substitution_leaves_unknown_fields_alone() -> None:
    """A field without a value stays visible instead of raising KeyError."""
    assert substitute("{player} gains {ip}", {"player": "p2"}) == "p2 gains {ip}"
    assert substitute("{ not a field }", {}) == "{ not a field }"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "pl_PL.UTF-8"}, "pl"),
        ({"LANGUAGE": "de:uk:en", "LANG": "fr_FR.UTF-8"}, "uk"),
        ({"LC_MESSAGES": "fr_CA"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_comes_from_the_locale_and_falls_back_to_english(env: dict[str, str], lang: str) -> None:
    """--lang defaults to the environment's locale (gettext's order of variables), else English."""
    assert language_from_environment(env) == lang
