"""No import cycle among the `core` modules, nor among the `adapters` modules, counting every
import a module makes (at its top, inside functions, and under `TYPE_CHECKING`): the layers stay
one-way, and a seam between two modules that need each other is a protocol
(core/engine/rules.py, core/service/commands/context.py) or a part handed in (the Matrix
adapter's parts get their collaborators, never the adapter). And `core` imports no module of
`adapters`: adapters come in through `core/plugins.py`."""

from __future__ import annotations

from pathlib import Path

from ..imports import imports_of, modules_of


def core_modules() -> dict[str, Path]:
    return modules_of("core")


def graph(package: str = "core") -> dict[str, set[str]]:
    modules = modules_of(package)
    return {name: {m for m in imports_of(name, path) if m in modules and m != name}
            for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_graph_has_the_seams() -> None:
    edges = graph()
    assert "core.engine.game" in edges["core.engine.ruleset"]
    assert "core.engine.rules" in edges["core.engine.game"]
    assert "core.service.commands.lobby" in edges["core.service.commands.game_service"]


def test_no_import_cycle_among_core_modules() -> None:
    assert cycles(graph()) == []


def test_core_imports_no_adapter() -> None:
    offenders = {name: sorted(m for m in imports_of(name, path) if m.split(".")[0] == "adapters")
                 for name, path in core_modules().items()}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_no_import_cycle_among_adapter_modules() -> None:
    edges = graph("adapters")
    assert "adapters.matrix.client.routes" in edges["adapters.matrix.adapter"]
    assert cycles(edges) == []


def test_the_matrix_parts_never_import_the_adapter_and_the_protocol_no_client() -> None:
    """The adapter composes its parts: none of them reaches back for it. The protocol parts
    (pure, driven by event dicts) import neither the client parts nor the store."""
    edges = graph("adapters")
    parts = {name for name in edges if name.startswith(("adapters.matrix.client",
                                                         "adapters.matrix.protocol"))}
    assert parts
    assert {name for name in parts if "adapters.matrix.adapter" in edges[name]} == set()
    protocol = {name for name in parts if name.startswith("adapters.matrix.protocol")}
    assert {name: sorted(m for m in edges[name]
                         if m.startswith(("adapters.matrix.client", "adapters.matrix.store")))
            for name in protocol} == {name: [] for name in protocol}
