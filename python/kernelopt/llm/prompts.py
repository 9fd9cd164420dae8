"""The roles' prompts: versioned template files (prompts/ROLE.vN.md) filled from the context the
engine assembles, and the code block taken out of an answer.

A template is a system part and a user part, split at a line `=== user`; `{{name}}` is replaced by
the context's field `name` as text (sections(): kernels, interface, numbers and memory written out
for a reader). A field the template names and the context lacks is an error, so that a prompt never
goes out with a hole in it."""

from __future__ import annotations

import json
import os
import re

from .errors import LlmError

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prompts")
VERSIONS = {"planner": "v1", "executor": "v1", "retry": "v1", "summarizer": "v1"}
FIELD = re.compile(r"\{\{([a-z_]+)\}\}")
FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.S)


def template_path(role: str) -> str:
    if role not in VERSIONS:
        raise LlmError(f"unknown role '{role}' ({', '.join(VERSIONS)})")
    return os.path.join(HERE, f"{role}.{VERSIONS[role]}.md")


def _none(value, empty: str) -> str:
    return empty if value in (None, "", [], {}) else value


def _kernels(kernels: list) -> str:
    out = []
    for k in kernels or []:
        head = f"### {k.get('name', '?')} ({k.get('kind', 'triton')})"
        aten = ", ".join(k.get("aten_ops") or []) or "unknown"
        parts = [head, f"ATen ops: {aten}", f"launch: `{k.get('launch', '')}`"]
        if k.get("graph_fragment"):
            parts.append("Graph fragment:\n```\n" + k["graph_fragment"].rstrip() + "\n```")
        parts.append("```python\n" + (k.get("source") or "").rstrip() + "\n```")
        out.append("\n".join(parts))
    return "\n\n".join(out) or "(no kernel source)"


def _interface(interface: dict) -> str:
    rows = []
    for side in ("inputs", "outputs"):
        for name, t in (interface or {}).get(side, {}).items():
            rows.append(f"- {side[:-1]} `{name}`: shape {t.get('shape')}, stride {t.get('stride')}, "
                        f"dtype {t.get('dtype') or 'unknown'}")
    return "\n".join(rows) or "(unknown)"


def _numbers(value) -> str:
    if not value:
        return "(not measured)"
    return "\n".join(f"- {k}: {v}" for k, v in value.items())


def _lines(value, empty: str) -> str:
    if not value:
        return empty
    return "\n".join(f"- {line}" for line in value)


def sections(context: dict) -> dict:
    """The context's fields as the text a template puts in its holes."""
    out = {k: v if isinstance(v, str) else json.dumps(v, sort_keys=True) for k, v in context.items()}
    out["kernels"] = _kernels(context.get("kernels"))
    out["interface"] = _interface(context.get("interface"))
    out["roofline"] = _numbers(context.get("roofline"))
    out["counters"] = _numbers(context.get("counters"))
    out["tried"] = _lines(context.get("tried"), "(nothing yet)")
    out["strategies"] = _lines(context.get("strategies"), "(none)")
    out["aten"] = _lines(context.get("aten"), "(unknown)")
    out["directions"] = _lines(context.get("directions"), "(none yet)")
    out["direction"] = _none(context.get("direction"), "(the planner gave none: choose one yourself)")
    out["previous"] = _none(context.get("previous"), "(none)")
    return out


def render(role: str, context: dict) -> tuple[str, str]:
    """(system, user) of the role's template filled from the context."""
    with open(template_path(role), encoding="utf-8") as f:
        text = f.read()
    if "\n=== user\n" not in text:
        raise LlmError(f"{template_path(role)}: no '=== user' line between the system and user parts")
    system, user = text.split("\n=== user\n", 1)
    fields = sections(context)

    def fill(m: re.Match) -> str:
        if m.group(1) not in fields:
            raise LlmError(f"the {role} prompt needs '{m.group(1)}', which the engine did not send")
        return fields[m.group(1)]

    return FIELD.sub(fill, system).strip() + "\n", FIELD.sub(fill, user).strip() + "\n"


def extract_code(text: str) -> str | None:
    """The candidate file in an answer: the last fenced block that defines `run(`, else the last
    Python block, else the whole answer where it defines `run(` with no fence; None otherwise."""
    blocks = [(lang.lower(), body) for lang, body in FENCE.findall(text or "")]
    for _, body in reversed(blocks):
        if re.search(r"^def run\(", body, re.M):
            return body.rstrip() + "\n"
    for lang, body in reversed(blocks):
        if lang in ("python", "py"):
            return body.rstrip() + "\n"
    if not blocks and re.search(r"^def run\(", text or "", re.M):
        return text.strip() + "\n"
    return None
