"""Keyword logic for search_notes (table 7): words joined by AND, OR, NOT and parentheses.

Grammar (operators are the upper-case words; adjacent terms are joined by AND; commas count
as spaces; "double quotes" make a phrase):

    expr := and ("OR" and)*
    and  := not (["AND"] not)*
    not  := "NOT" not | "(" expr ")" | WORD | "PHRASE"

Each word or phrase becomes an English full-text query (stemmed: "dogs" finds "dog"), and
the tree is compiled to PostgreSQL tsquery operators (&&, ||, !!).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPERATORS = ("AND", "OR", "NOT")
MAX_TERMS = 32
MAX_NESTING = 16  # parentheses and NOTs inside each other; the parser and the compiler recurse that deep
_TOKEN = re.compile(r'"([^"]*)"|(\()|(\))|([^\s(),"]+)|(")')


class KeywordError(ValueError):
    """The keyword expression is malformed; the message says where and why."""


@dataclass(frozen=True)
class Term:
    text: str
    phrase: bool = False


@dataclass(frozen=True)
class Op:
    op: str  # "AND", "OR", "NOT"
    args: tuple


def parse_keywords(text: str):
    """Parse ``text`` into a tree of Term and Op; raises KeywordError naming the problem."""
    tokens = _tokenize(text)
    if not tokens:
        raise KeywordError("keyword is empty")
    parser = _Parser(tokens)
    tree = parser.expr()
    if parser.pos < len(tokens):
        raise KeywordError(f"unexpected {tokens[parser.pos][1]!r} at token {parser.pos + 1}")
    if sum(1 for _ in _terms(tree)) > MAX_TERMS:
        raise KeywordError(f"too many terms (more than {MAX_TERMS})")
    return tree


def to_tsquery_sql(tree) -> tuple[str, list[str]]:
    """SQL that builds the tsquery for ``tree``, and its parameters."""
    if isinstance(tree, Term):
        func = "phraseto_tsquery" if tree.phrase else "plainto_tsquery"
        return f"{func}('english', %s)", [tree.text]
    if tree.op == "NOT":
        sql, params = to_tsquery_sql(tree.args[0])
        return f"(!!{sql})", params
    parts = [to_tsquery_sql(arg) for arg in tree.args]
    joiner = " && " if tree.op == "AND" else " || "
    return "(" + joiner.join(p[0] for p in parts) + ")", [x for p in parts for x in p[1]]


def _terms(tree):
    if isinstance(tree, Term):
        yield tree
    else:
        for arg in tree.args:
            yield from _terms(arg)


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens = []
    for match in _TOKEN.finditer(text):
        phrase, lpar, rpar, word, stray = match.groups()
        if stray is not None:
            raise KeywordError('unbalanced double quote (")')
        if phrase is not None:
            if not phrase.strip():
                raise KeywordError('empty phrase ""')
            tokens.append(("PHRASE", phrase.strip()))
        elif lpar:
            tokens.append(("(", "("))
        elif rpar:
            tokens.append((")", ")"))
        elif word in OPERATORS:
            tokens.append((word, word))
        else:
            tokens.append(("WORD", word))
    return tokens


class _Parser:
    def __init__(self, tokens):
        self.tokens, self.pos, self.depth = tokens, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def take(self):
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expr(self):
        args = [self.conj()]
        while self.peek() == "OR":
            self.take()
            args.append(self.conj())
        return args[0] if len(args) == 1 else Op("OR", tuple(args))

    def conj(self):
        args = [self.unary()]
        while self.peek() in ("AND", "NOT", "(", "WORD", "PHRASE"):
            if self.peek() == "AND":
                self.take()
            args.append(self.unary())
        return args[0] if len(args) == 1 else Op("AND", tuple(args))

    def unary(self):
        kind = self.peek()
        if kind is None:
            last = self.tokens[-1][1]
            raise KeywordError(f"expression ends after {last!r}; a word or phrase must follow")
        kind, value = self.take()
        if kind in ("NOT", "("):
            return self.nested(kind)
        if kind in ("WORD", "PHRASE"):
            return Term(value, phrase=kind == "PHRASE")
        raise KeywordError(f"unexpected {value!r} at token {self.pos}; expected a word, phrase, NOT or '('")

    def nested(self, kind: str):
        """What follows NOT or '(' (the opening token is taken), at most MAX_NESTING levels deep."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise KeywordError(f"parentheses and NOT are nested deeper than {MAX_NESTING} levels")
        if kind == "NOT":
            inner = Op("NOT", (self.unary(),))
        else:
            inner = self.expr()
            if self.peek() != ")":
                raise KeywordError("missing closing parenthesis ')'")
            self.take()
        self.depth -= 1
        return inner
