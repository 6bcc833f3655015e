"""Cardinal numbers written in words, read as figures: "sixty-nine units", "fourteen orders",
"two hundred and five" are 69, 14 and 205 to every figure and amount check.

A number joined to its unit ("five-minute intervals") is read too. A lone "one" or "zero" stays
a word: "one of the pods", "zero-downtime" are not counts, and a count of one is nearly always
written as a digit or "a single" in these answers.
"""

from __future__ import annotations

import re

_UNITS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9,
}  # fmt: skip
_TEENS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

_UNIT = "|".join(_UNITS)
_BELOW_100 = rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{_UNIT}))?|{'|'.join(_TEENS)}|{_UNIT})"
_GROUP = rf"{_BELOW_100}(?:\s+hundred(?:\s+(?:and\s+)?{_BELOW_100})?)?"
_AND = r",?\s+(?:and\s+)?"
_THOUSANDS = rf"(?:{_GROUP})\s+thousand(?:{_AND}(?:{_GROUP}))?"
_SPELLED = re.compile(
    rf"(?<![\w-])(?:(?:{_GROUP})\s+million(?:{_AND}(?:{_THOUSANDS}|{_GROUP}))?"
    rf"|{_THOUSANDS}|{_GROUP})"
    r"(?!\w)(?!-(?!(?:second|minute|hour|day|week|month|year)s?\b))",
    re.IGNORECASE,
)


def _value(words: str) -> int:
    total = current = 0
    for word in re.split(r"[\s,-]+", words.lower()):
        if word in ("and", ""):
            continue
        if word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if word in ("thousand", "million"):
                total, current = total + current, 0
        else:
            current += _UNITS.get(word) or _TEENS.get(word) or _TENS[word]
    return total + current


# a figure with a scale word or an exponent: "1.68 million", "2.5 thousand", "1.68e6"
_SCALED = re.compile(
    r"(?<![\w.\-/#:])(\d+(?:\.\d+)?)(?:\s+(million|thousand)\b|e(\d{1,2})(?![\w.\-]))",
    re.IGNORECASE,
)


def _scaled(match: re.Match[str]) -> str:
    factor = 10 ** int(match.group(3)) if match.group(3) else _SCALES[match.group(2).lower()]
    value = float(match.group(1)) * factor
    return f"{value:.0f}" if abs(value - round(value)) < 1e-6 else match.group(0)


def with_digits(text: str) -> str:
    """The text with every spelled cardinal above one replaced by its digits, and every
    figure with a scale word or exponent ("1.68 million", "1.68e6") written out."""

    def replace(match: re.Match[str]) -> str:
        words = match.group(0)
        if words.lower() in ("one",):
            return words
        start, rest = match.string[: match.start()], match.string[match.end() :]
        if re.match(r"[.)]\s", rest) and not start[start.rfind("\n") + 1 :].strip(" >*_"):
            return words  # "Three. The failed deploys are …": "3." would read as a list item
        return str(_value(words))

    return _SCALED.sub(_scaled, _SPELLED.sub(replace, text))
