"""The words that decide a clause's stance (agentbench.scoring.claims).

Clause breaks (`, ; : ( ) …`, "but", "because", ...) bound a negation's reach; contrast words
("rather than") negate what follows them; negation and hedge cues mark a clause; a short
negating lead-in ("Ruled out:") negates the items after it. A space in a multi-word cue also
matches `_` or `-`, so JSON keys such as `ruled_out` count.

"probably", "likely" and "seems" are deliberately not hedges: a committed answer often says
"the most likely cause is X", while "X or Y" lists and "maybe X" do not commit.
"""

from __future__ import annotations

import re


def _cues(*words: str) -> str:
    """An alternation of cue words; a space in a cue also matches `_` or `-` (JSON keys)."""
    return "|".join(w.replace(" ", r"[\s_\-]+") for w in words)


CLAUSE_BREAK = re.compile(
    r"\s*(?:[;()|]|(?<!\")\s*:(?=\s|$)|,\s|…|\.\.\.|\s[-–—]\s|\bbut\b|\bhowever\b|\bwhereas\b"
    r"|\bwhile\b|\balthough\b|\bthough\b|\byet\b|\bwhich\b"
    r"|(?<!not )(?<!n't )(?<!not just )(?<!not only )\b(?:because|due to|since)\b"
    r"|\band then\b|\b(?:and|with)(?=\s+(?:not|no|never|nothing|none|nobody|neither)\b)|"
    r"\b(?:so|therefore|hence|thus)\b"
    r"(?!\s+(?:far|much|many|long|that|as|on|forth|it seems)\b))\s*",
    re.IGNORECASE,
)
# A break that starts a consequence ("..., so nginx reads on"): what follows is a new statement
# about its own subject, not the one an earlier clause left unnamed.
CONSEQUENCE = re.compile(r"\b(?:so|therefore|hence|thus)\b", re.IGNORECASE)
# A later clause of the sentence that disowns what came before it: "the Permission denied was
# my own read, not the job's problem"; "X - not the root cause".
DISOWNED = re.compile(
    r"^\W*(?:and\s+|but\s+)?(?:(?:it|this|that|which)\s+(?:is|was)\s+)?(?:not|never)\s+"
    r"(?:the|a|an|its|their|our)?\s*(?:[\w-]+'s\s+)?(?:root\s+|real\s+|actual\s+|underlying\s+)?"
    r"(?:cause|problem|issue|culprit|reason|failure|error|fault)s?\b"
    # a retraction: "my first guess was X, but that is wrong", "…, which turned out wrong"
    r"|^\W*(?:and\s+|but\s+)?(?:that|this|it|which)\s+(?:is|was|'s|turned\s+out\s+(?:to\s+be\s+)?)"
    r"\s*(?:wrong|incorrect|mistaken|not\s+(?:quite\s+)?(?:it|right|correct|the\s+case"
    r"|what\s+happened)|a\s+red\s+herring)\b"
    r"|^\W*(?:scratch\s+that|no\s*,?\s+wait|wait\s*,?\s+no|actually\s*,?\s+no)\b"
    # "..., not why the job failed"
    r"|^\W*(?:and\s+|but\s+)?(?:(?:it|this|that)\s+(?:is|was)\s+)?not\s+why\b"
    r"|^\W*(?:and\s+|but\s+)?(?:(?:it|this|that)\s+(?:is|was)\s+)?not\s+(?:a\s+)?part\s+of\s+"
    r"(?:the|its|their)\s+(?:failure|problem|cause|issue|outage|incident)\b"
    # "BER-2 also has two low SKUs (…), but they are in another warehouse and not part of it"
    r"|^\W*(?:and\s+|but\s+)?(?:they|it|this|that|these|those)\s+(?:is|are|was|were)\s+(?:\w+\s+)?"
    r"(?:not\s+part\s+of|outside|out\s+of\s+scope|in\s+(?:a\s+)?(?:different|another|other))\b",
    re.IGNORECASE,
)
# Said right after a claim, clears it: "the liveness probe is fine", "the image looks OK".
EXCULPATED = re.compile(
    r"^\W*(?:(?:is|are|was|were|looks?|seems?|appears?)\s+(?:\w+\s+)?)"
    r"(?:fine|healthy|ok|okay|normal|good|correct|valid|working|passing)\b",
    re.IGNORECASE,
)
# What the clause goes on to say leaves it out: "weekends are skipped", "it is omitted".
PASSED_OVER = re.compile(
    r"^\W*(?:is|are|was|were|gets?|got)\s+(?:\w+\s+)?(?:skipped|omitted|excluded|left\s+out)\b",
    re.IGNORECASE,
)
# Breaks a hedge does not reach past: "maybe X; Y" asserts Y, while "maybe X, Y" hedges both.
HEDGE_STOP = re.compile(r";|[-–—]|but|however|whereas|although|though|yet|while", re.IGNORECASE)
# "X rather than Y": X keeps its stance, Y is negated.
# what follows is not so: "X rather than Y", "an override replacing Sara Haddad as primary"
CONTRAST = re.compile(
    r"\s*\b(?:rather than|instead of|as opposed to|in place of|replacing|standing in for"
    r"|covering for)\b\s*",
    re.IGNORECASE,
)
NEGATION = re.compile(
    r"\b(?:"
    + _cues(
        "not",
        "never",
        "no longer",
        "nor",
        "neither",
        "none",
        "cannot",
        "without",
        "ruled out",
        "rule out",
        "rules out",
        "unlikely",
        "excluded",
        "no",
        "unrelated",
        "irrelevant",
        "red herring",
        "unlike",
        "nothing",
        "nobody",
        "not due to",
        "different from",
        "distinct from",
    )
    + r")\b|n't\b",
    re.IGNORECASE,
)
NEGATING_LEAD = re.compile(
    r"(?:(?:causes?|things?|what (?:I|we))\s+)?(?:ruled\s+out|excluded|eliminated|not\s+(?:the\s+)?"
    r"(?:root\s+)?(?:causes?|problems?|issues?|culprits?|responsible)|unlikely|unrelated"
    r"|healthy|fine|ok|okay|no\s+issues?|not\s+involved|not\s+included|left\s+out|not\s+counted"
    r"|(?:the\s+)?(?:distractors?|decoys?|red\s+herrings?)|(?:why\s+)?not\s+(?:the\s+)?others?"
    r"|(?:does|do|did)\s*(?:not|n't)\s+(?:count|qualify|apply|match)|not\s+(?:eligible|relevant))",
    re.IGNORECASE,
)
# A longer lead-in that ends by disqualifying what it introduces: "The history has two newer
# entries, but neither qualifies: ...", "Two rows look close but do not count: ..."
NEGATING_TAIL = re.compile(
    r"(?:\b(?:neither|none)(?:\s+of\s+(?:them|these|those))?\s+(?:qualif\w+|counts?|appl\w+"
    r"|match\w*|is\s+(?:the\s+)?(?:answer|culprit|cause)|are\s+(?:the\s+)?(?:answers?|culprits"
    r"|causes))|\b(?:do|does|did)\s*(?:not|n't)\s+(?:count|qualify|apply)"
    r"|\b(?:are|is)(?:\s+not|n't)\s+(?:included|counted|eligible|(?:the\s+)?(?:answers?|ones?"
    r"|culprits?|causes?))|\bleft\s+out|\bexcluded"
    r"|\bruled\s+out)\W*$",
    re.IGNORECASE,
)
HEDGE = re.compile(
    r"\b(?:"
    + _cues(
        "maybe",
        "might",
        "may be",
        "may have",
        "could be",
        "could have",
        "could also",
        "possibly",
        "possible cause",
        "possible causes",
        "possible reasons",
        "possible explanations",
        "possible culprits",
        "it is possible",
        "it's possible",
        "perhaps",
        "potentially",
        "potential",
        "either",
        "whether",
        "candidate",
        "candidates",
        "not sure",
        "unsure",
        "unclear",
        "uncertain",
        "some combination",
        "if",
        "unless",
        "assuming",
        "suppose",
    )
    + r"|(?<!in )(?<!since )may(?!\s+\d)"
    r"|one of(?:\s+the)?\s+(?:following|these|those|several|possible|potential|likely|candidate)"
    r"|one of\s*:)\b",
    re.IGNORECASE,
)
# A negation of a negation keeps the candidate open: "I can't rule out X", "X is not unlikely".
DOUBLE_NEGATION = re.compile(
    r"\b(?:(?:can(?:no|')t|could(?:n't| not)|not|n't|haven't|hasn't|have not|has not|no reason to)"
    r"\s+(?:yet\s+|fully\s+|completely\s+|entirely\s+)?(?:be\s+)?(?:rule[sd]?\s+out|exclude[sd]?"
    r"|eliminate[sd]?)|not\s+(?:un(?:likely|related)|impossible|excluded|ruled\s+out))\b",
    re.IGNORECASE,
)
