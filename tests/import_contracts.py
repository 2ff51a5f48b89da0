"""import-linter contract types of tajsim (``contract_types`` in pyproject.toml).

``wildcard_layers``: import-linter's layers contract whose layer names may hold ``*`` / ``**``
wildcards (``tajsim.games.*.report``), expanded against the import graph when the contract is
checked. import-linter accepts wildcards in ``containers`` and in the forbidden and independence
contracts, not in a layer's name, and every wing's half belongs at its own layer of the one
generic stack: with wildcards a new wing ``tajsim.games.<name>`` is checked with no edit here or
in pyproject.toml. The modules one wildcard matches form one layer of independent siblings
(different games' halves never import each other) unless the layer is written with ``:``.
"""

from __future__ import annotations

from typing import cast

import grimp
from importlinter.contracts.layers import Layer, LayersContract, ModuleTail
from importlinter.domain.contract import ContractCheck


class WildcardLayersContract(LayersContract):
    """The layers contract, its layer names expanded with :meth:`grimp.ImportGraph.
    find_matching_modules`; a wildcard that matches nothing breaks the contract in one line unless
    it is optional (in parentheses), as a missing plain layer does."""

    type_name = "wildcard_layers"

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        # import-linter declares each option as a class-level Field and keeps its parsed value
        # in the instance attribute of the same name: the expanded layers replace it there
        expanded = [self._expanded(layer, graph) for layer in cast(list[Layer], self.layers)]
        self.layers = expanded  # type: ignore[assignment]
        return super().check(graph, verbose)

    @staticmethod
    def _expanded(layer: Layer, graph: grimp.ImportGraph) -> Layer:
        tails: set[ModuleTail] = set()
        for tail in layer.module_tails:
            if "*" not in tail.name:
                tails.add(tail)
                continue
            matches = graph.find_matching_modules(tail.name)
            if not matches and not tail.is_optional:
                raise ValueError(f"Missing layer '{tail.name}': no module matches it.")
            tails.update(ModuleTail(name=name, is_optional=tail.is_optional)
                         for name in sorted(matches))
        return Layer(module_tails=tails, is_independent=layer.is_independent)
