"""The entities a task's environment declares, found in answer text.

Every declared thing is an entity with its names and the environment text that describes it
(its evidence): cluster objects (namespaces, nodes, pods and their containers, deployments,
services, configmaps, secrets, ... with the events about them), files (path and base name, with
their content), host units, users, disks, DNS names and TLS hosts, HTTP hosts (with their
bodies), SQL tables and the values of their key-like columns (with their rows), and the
identifiers that file contents, HTTP bodies and rule outputs carry (`dep-70e8`, `replica-2`,
with the lines that hold them). An entity's family is itself, what it belongs to (its
namespace, its owner) and what belongs to it (a pod's containers), and entities of the same
name: a claim about any of them is a claim about the family, never about a neighbour.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from agentbench.scoring.naming import as_user, service_names
from agentbench.scoring.structured import add_records, parse
from agentbench.tasks.model import Environment

# An identifier in free text: letters, then `-`/`_`-joined parts, with a digit somewhere.
IDENT = re.compile(
    r"(?<![\w./@-])(?:(?P<key>[a-z_]+)=)?"
    r"(?P<id>[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+(?:\.\d{1,2}\b(?!\.\d))?)(?![\w-])"
)
_LINE_LIMIT = 400
# `key: value` lines of a YAML or JSON file whose key names a person or a named thing.
_NAMED_VALUE = re.compile(
    r"^\s*-?\s*\"?(?:name|primary|secondary|person|owner|user|assignee|engineer|oncall|on_call"
    r"|manager|lead|customer|author)\"?\s*:\s*(?P<value>[^#\n{}\[\],]+)",
    re.MULTILINE | re.IGNORECASE,
)  # lines of evidence kept per identifier


@dataclass
class Entity:
    key: str  # "pod/web/nginx-7c5ddbdf54-x8k2p", "file:/etc/nginx/nginx.conf", "id:dep-70e8"
    kind: str  # "pod", "file", "unit", "id:dep", "row:inventory.sku", ...
    names: set[str] = field(default_factory=set)
    evidence: list[str] = field(default_factory=list)
    parents: set[str] = field(default_factory=set)
    cells: set[str] = field(default_factory=set)  # a declared row's values, as written


def kind_of_token(key: str | None, token: str) -> str:
    if key:
        return f"id:{key}"
    return "id:" + re.split(r"[-_\d]", token.lower(), maxsplit=1)[0]


_NUMBERED = re.compile(r"^([a-z][a-z]*)-([1-9])$", re.IGNORECASE)
_ORDINALS = [
    *("-", "first", "second", "third", "fourth"),
    *("fifth", "sixth", "seventh", "eighth", "ninth"),
]


class Entities:
    """The declared entities of one environment and where answer text names them."""

    def __init__(self, environment: Environment, prompt: str = "") -> None:
        self.by_key: dict[str, Entity] = {}
        self.prompt = prompt
        self.declared = environment.declared or bool(environment.rules)
        self.simulated = environment.declared
        self._texts: list[str] = []
        self._cluster(environment)
        self._files(environment)
        self._system(environment)
        self._sql(environment)
        self._http(environment)
        for rule in environment.rules:
            self._texts.append(rule.output or rule.error or "")
        self._identifiers()
        self._corpus = [*self._texts, *self._all_evidence()]
        self.global_evidence = "\n".join([prompt, *self._corpus])
        self._patterns = self._name_patterns()
        spaces = sorted(
            {n for e in self.by_key.values() if e.kind == "namespace" for n in e.names} | _KINDS
        )
        self._prefixes = re.compile(
            r"(?<![\w./-])(" + "|".join(map(re.escape, spaces)) + r")/(?=[A-Za-z])", re.IGNORECASE
        )

    def _add(
        self, key: str, kind: str, names: list[str], evidence: str, parents: list[str]
    ) -> Entity:
        found = self.by_key.setdefault(key, Entity(key, kind))
        found.names.update(n for n in names if n and len(n) >= 3)
        found.evidence.append(evidence)
        found.parents.update(parents)
        return found

    def _cluster(self, environment: Environment) -> None:
        if environment.cluster is None:
            return
        data = environment.cluster.model_dump(mode="json")
        namespaces = set(data.get("namespaces") or [])
        for section, items in data.items():
            if section in ("events", "namespaces") or not isinstance(items, list):
                continue
            kind = section[:-1] if section.endswith("s") else section
            for item in items:
                if not isinstance(item, dict) or "name" not in item:
                    continue
                ns = item.get("namespace")
                key = f"{kind}/{ns}/{item['name']}" if ns else f"{kind}/{item['name']}"
                parents = []
                if ns:
                    namespaces.add(ns)
                    parents.append(f"namespace/{ns}")
                owner = item.get("owner")
                if isinstance(owner, str) and "/" in owner and ns:
                    parents.append(f"{owner.split('/')[0]}/{ns}/{owner.split('/', 1)[1]}")
                ips = [item.get(f) for f in ("ip", "cluster_ip", "external_ip")]
                names = [item["name"], *(ip for ip in ips if isinstance(ip, str) and ip)]
                self._add(key, kind, names, json.dumps(item), parents)
                template = item.get("template") or {}
                for container in [*item.get("containers", []), *template.get("containers", [])]:
                    if isinstance(container, dict) and container.get("name"):
                        self._add(
                            f"{key}/container/{container['name']}",
                            "container",
                            [container["name"]],
                            json.dumps(container),
                            [key],
                        )
        for ns in namespaces:
            self._add(f"namespace/{ns}", "namespace", [ns], "", [])
        for event in data.get("events") or []:
            obj, ns = str(event.get("object", "")), event.get("namespace")
            kind, _, name = obj.partition("/")
            key = f"{kind}/{ns}/{name}" if ns else obj
            text = f"{event.get('type')} {event.get('reason')} {event.get('message')}"
            if key in self.by_key:
                self.by_key[key].evidence.append(text)
            self._texts.append(text)

    def _files(self, environment: Environment) -> None:
        for path, spec in environment.files.items():
            content = spec if isinstance(spec, str) else spec.content
            base = path.rstrip("/").rsplit("/", 1)[-1]
            stem = base.split(".", 1)[0]
            names = [path, base] + ([stem] if re.search(r"[\d-]", stem) else [])
            self._add(f"file:{path}", "file", names, content[:20000], [])
            self._texts.append(content[:200000])
            if re.search(r"\.(?:ya?ml|json)$", path):
                self._people(content[:200000])
                add_records(parse(content), f"file:{path}", self._add)

    def _people(self, content: str) -> None:
        """People and named things a structured file lists (`primary: Marta Silva`)."""
        for m in _NAMED_VALUE.finditer(content):
            value = m.group("value").strip().strip("'\"")
            if not 3 <= len(value) <= 60 or re.match(r"\d", value):
                continue
            names = [value]
            if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z'-]+)+", value):
                names.append(value.split()[0])  # a person by first name
            self._add(f"person:{value}", "person", names, "", [])

    def _system(self, environment: Environment) -> None:
        system = environment.system
        if system is None:
            return
        data = system.model_dump(mode="json")
        journal: dict[str, list[str]] = defaultdict(list)
        for entry in data.get("journal") or []:
            journal[str(entry.get("unit") or entry.get("ident"))].append(str(entry.get("message")))
            self._texts.append(str(entry.get("message")))
        for unit in data.get("units") or []:
            name = unit["name"]
            names = [name, name.rsplit(".", 1)[0]]
            self._add(
                f"unit:{name}", "unit", names, json.dumps(unit) + "\n".join(journal[name]), []
            )
        for user in data.get("users") or []:
            self._add(f"user:{user['name']}", "user", [user["name"]], json.dumps(user), [])
        for disk, spec in zip(data.get("disks") or [], system.disks, strict=False):
            used = f"{100 * _bytes(spec.used) / max(1.0, _bytes(spec.size)):.0f}% used, "
            used += f"{100 * spec.inodes_used / max(1, spec.inodes):.0f}% inodes used"
            self._add(
                f"disk:{disk['mount']}",
                "disk",
                [disk["mount"], disk["filesystem"]],
                json.dumps(disk) + " " + used,
                [],
            )
        for process in data.get("processes") or []:
            self._texts.append(json.dumps(process))
        for section in ("dns", "tls", "sockets"):
            for item in data.get(section) or []:
                self._texts.append(json.dumps(item))

    def _sql(self, environment: Environment) -> None:
        if environment.sql is None:
            return
        for table, spec in environment.sql.tables.items():
            self._add(f"table:{table}", "table", [table], "", [])
            columns = list(spec.columns)
            rows = [list(r) for r in spec.rows]
            if spec.csv:
                lines = [ln.split(",") for ln in spec.csv.strip().splitlines()[1:]]
                rows += lines
            for index, column in enumerate(columns):
                values = [str(r[index]) for r in rows if index < len(r) and r[index] is not None]
                if not values or not all(re.search(r"[A-Za-z]", v) for v in values):
                    continue
                if not _identifier_column(column, values) or re.match(r"\d{4}-\d\d", values[0]):
                    continue
                for row in rows:
                    if index < len(row) and row[index] is not None:
                        text = " ".join(f"{c}={v}" for c, v in zip(columns, row, strict=False))
                        value = str(row[index])
                        entity = self._add(
                            f"row:{table}.{column}:{value}",
                            f"row:{table}.{column}",
                            [value],
                            text,
                            [f"table:{table}"],
                        )
                        entity.cells.update(str(v) for v in row if v is not None)
            self._texts += [" ".join(map(str, r)) for r in rows]

    def _http(self, environment: Environment) -> None:
        for number, route in enumerate(environment.http):
            match = re.match(r"https?://([^/:]+)", route.url)
            body = route.body if isinstance(route.body, str) else json.dumps(route.body)
            text = f"status {route.status} {body}"
            self._texts.append(text)
            if match:  # a host answering only by a wildcard route is declared too
                host = match.group(1)
                names = [host, host.split(".")[0], *service_names(host, body, environment)]
                self._add(f"host:{host}", "host", names, text, [])
            if match and "*" not in route.url:
                body_data = route.body if not isinstance(route.body, str) else parse(route.body)
                add_records(body_data, f"host:{host}", self._add, f"route{number}:{host}")

    def _identifiers(self) -> None:
        lines: dict[str, list[str]] = defaultdict(list)
        kinds: dict[str, str] = {}
        for text in self._texts:
            for line in text.splitlines():
                for m in IDENT.finditer(line):
                    token = m.group("id")
                    if not re.search(r"\d", token) or re.search(
                        r"\d{4}-\d\d|^[0-9a-f-]{20,}$", token
                    ):
                        continue
                    kinds.setdefault(token, kind_of_token(m.group("key"), token))
                    if len(lines[token]) < _LINE_LIMIT:
                        lines[token].append(line)
        taken = {n.lower() for e in self.by_key.values() for n in e.names}
        for token, held in lines.items():
            if token.lower() not in taken:
                self._add(f"id:{token}", kinds[token], [token], "\n".join(held), [])

    def _all_evidence(self) -> list[str]:
        return [text for e in self.by_key.values() for text in e.evidence]

    def _name_patterns(self) -> list[tuple[re.Pattern[str], str]]:
        out = []
        for entity in self.by_key.values():
            for name in entity.names:
                body = re.escape(name)
                out.append((_pattern(body), entity.key))
                numbered = _NUMBERED.match(name)
                if numbered:  # replica-3 is "the third replica", "replica 3", "replica #3"
                    stem, n = re.escape(numbered.group(1)), int(numbered.group(2))
                    alias = rf"(?:{_ORDINALS[n]}\s+{stem}|{stem}\s+(?:#|no\.\s*)?{n})"
                    found = re.compile(rf"(?<![\w-]){alias}(?![\w-])", re.IGNORECASE)
                    out.append((found, entity.key))
        out.sort(key=lambda p: -len(p[0].pattern))
        return out

    def family(self, key: str) -> set[str]:
        """The entity, its ancestors, its descendants and the entities sharing a name."""
        ancestors = self._ancestors(key)
        descendants = {k for k, e in self.by_key.items() if key in self._ancestors(k)}
        names = {n.lower() for n in self.by_key[key].names}
        same = {k for k, e in self.by_key.items() if names & {n.lower() for n in e.names}}
        return {key} | ancestors | descendants | same

    def _ancestors(self, key: str) -> set[str]:
        out: set[str] = set()
        stack = [key]
        while stack:
            entity = self.by_key.get(stack.pop())
            for parent in entity.parents if entity else ():
                if parent not in out:
                    out.add(parent)
                    stack.append(parent)
        return out

    def evidence(self, keys: set[str], extra: list[str] | None = None) -> str:
        """The environment text of these entities and their families: their own, and every
        line of the environment (or of `extra`, e.g. the episode's changes) naming one."""
        family: set[str] = set()
        for key in keys:  # the entity and what belongs to it, not its namespace's neighbours
            family |= self.family(key) - (self._ancestors(key) - keys)
        own = [t for k in family for t in self.by_key[k].evidence]
        names = {n for k in family for n in self.by_key[k].names}
        patterns = [_pattern(re.escape(n)) for n in names]
        lines = [
            line
            for text in [*self._corpus, *(extra or [])]
            for line in text.splitlines()
            if any(p.search(line) for p in patterns)
        ]
        return "\n".join([*own, *lines])

    def mentions(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, entity key) of every name in the text, longest names first, no overlap
        between different names (a name shared by entities names them all); a name written
        under its namespace or kind (`kube-system/calico-node-c7553`, `pod/web-0`) counts."""
        text = self._prefixes.sub(lambda m: m.group(1) + " ", text)
        spans: list[tuple[int, int, str]] = []
        for pattern, key in self._patterns:
            for m in pattern.finditer(text):
                if key.startswith("user:") and not as_user(text, m.start(), m.end()):
                    continue  # "Postgres crashed", "the backup failed": a program, not the user
                clash = [s for s in spans if m.start() < s[1] and s[0] < m.end()]
                if all(s[0] == m.start() and s[1] == m.end() for s in clash):
                    spans.append((m.start(), m.end(), key))
        return sorted(spans)

    def resolve(self, ref: str) -> str:
        """An entity key from a task's reference: a key, or a name of exactly one family."""
        if ref in self.by_key:
            return ref
        named = [k for k, e in self.by_key.items() if ref.lower() in {n.lower() for n in e.names}]
        if not named:
            raise KeyError(f"no declared entity named {ref!r}")
        named.sort(key=lambda k: (len(self._ancestors(k)), k))
        return named[0]


# kubectl's kind/name prefixes: `pod/web-0`, `deploy/api`, `node/worker-2`
_KINDS = frozenset(
    {"pod", "pods", "po", "deployment", "deployments", "deploy", "node", "nodes", "no"}
    | {"service", "services", "svc", "statefulset", "sts", "daemonset", "ds", "replicaset"}
    | {"rs", "job", "cronjob", "configmap", "cm", "secret", "namespace", "ns", "pvc", "pv"}
    | {"ingress"}
)


@lru_cache(maxsize=4096)
def _pattern(body: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.@/-])" + body + r"(?![\w-]|\.\w|/\w)", re.IGNORECASE)


def _bytes(size: object) -> float:
    """A declared size (`200G`, `512M`, a number of bytes) in bytes."""
    from agentbench.scoring.quantities import quantities

    found = quantities(str(size).replace("G", " GiB").replace("M", " MiB").replace("T", " TiB"))
    return found[0].value if found else 0.0


_CACHE: dict[tuple[int, str], tuple[Environment, Entities]] = {}


def declared_entities(environment: Environment, prompt: str = "") -> Entities:
    """The entities of an environment (a bounded per-process cache: tasks never change)."""
    key = (id(environment), prompt)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is environment:
        return hit[1]
    if len(_CACHE) >= 256:
        _CACHE.clear()
    found = Entities(environment, prompt)
    _CACHE[key] = (environment, found)
    return found


_NAME_COLUMN = re.compile(
    r"(?:^|_)(?:id|ids|key|name|names|user|username|login|email|customer|owner|host|hostname"
    r"|sku|code|slug|ref|number|no|handle|account|team|service|node|pod|item|product|assignee"
    r"|author|member|person|contact|engineer|reporter|title)(?:$|_)",
    re.IGNORECASE,
)


def _identifier_column(column: str, values: list[str]) -> bool:
    """Whether a SQL column's values name rows (ids, names, keys) rather than describe them: a
    column named as an identifier or name, one whose every value carries a digit (`ORD-1042`),
    or one of four or more rows whose values are all different. A low-variety column such as
    `status` (resolved/open) describes rows; its values are not entities even in a two-row table."""
    if _NAME_COLUMN.search(column):
        return True
    if all(re.search(r"\d", v) for v in values):
        return True
    return len(values) >= 4 and len(set(values)) == len(values)
