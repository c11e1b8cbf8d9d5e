"""What every lowering stage shares: the context (options + diagnostics at source ranges),
pattern application that stamps provenance on new ops, and the legality check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from tile_lsp.compiler import cancel
from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.mlir.context import op_span
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions


@dataclass
class LoweringContext:
    """Options and the diagnostics sink of one pipeline run over one source text."""

    source: SourceText
    options: CompileOptions
    sink: DiagnosticSink = field(default_factory=DiagnosticSink)
    spans: dict[Operation, Span] = field(default_factory=dict)
    # Source offset of an op -> the layout the gpu stage gave its result, in words (hover).
    layouts: dict[int, str] = field(default_factory=dict)

    def span_of(self, op: Operation) -> Span:
        return op_span(op, self.source, self.spans)

    def note_layout(self, op: Operation, text: str) -> None:
        self.layouts.setdefault(self.span_of(op).start, text)

    def error(self, op: Operation, message: str, stage: str | None = None) -> None:
        """A diagnostic at the source op `op` came from (its location)."""
        old = self.sink.stage
        if stage is not None:
            self.sink.stage = stage
        try:
            self.sink.error(self.span_of(op), message)
        finally:
            self.sink.stage = old

    def warning(self, op: Operation, message: str) -> None:
        self.sink.warning(self.span_of(op), message)


class LoweringPattern(RewritePattern):
    """A rewrite pattern of a lowering stage: it reports its diagnostics to `lctx`."""

    def __init__(self, lctx: LoweringContext) -> None:
        self.lctx = lctx


class _Stamped(RewritePattern):
    """Runs `inner` and gives every op it creates the location of the op it rewrote."""

    def __init__(self, inner: RewritePattern, listener: PatternRewriterListener) -> None:
        self.inner = inner
        self.listener = listener
        self.current: list[Operation] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        self.current.append(op)
        try:
            self.inner.match_and_rewrite(op, rewriter)
        finally:
            self.current.pop()


def _stamp(new: Operation, rewritten: Operation) -> None:
    """`new` (and what it holds) without a location takes the location of the op it replaces."""
    if type(new.location) is not builtin.UnknownLoc:
        return
    new.location = rewritten.location
    for nested in walk_ops(new):
        if type(nested.location) is builtin.UnknownLoc:
            nested.location = new.location


def apply_patterns(
    module: builtin.ModuleOp,
    patterns: Sequence[RewritePattern],
    *,
    walk_regions_first: bool = False,
    dce: bool = True,
) -> None:
    """Greedy application to a fixpoint; new ops inherit the rewritten op's location.
    `dce=False` keeps unused pure ops (upstream's conversions keep them too)."""
    listener = PatternRewriterListener()
    stamped: list[_Stamped] = []

    def on_insert(new: Operation) -> None:
        for pattern in stamped:
            if pattern.current:
                _stamp(new, pattern.current[-1])
                return

    listener.operation_insertion_handler.append(on_insert)
    stamped = [_Stamped(p, listener) for p in patterns]
    PatternRewriteWalker(
        GreedyRewritePatternApplier(list(stamped), dce_enabled=dce), walk_regions_first=walk_regions_first, listener=listener
    ).rewrite_module(module)


def apply_patterns_to(
    module: builtin.ModuleOp, patterns: Sequence[RewritePattern], wanted: Callable[[str], bool], *,
    last_first: bool = False,
) -> None:
    """`apply_patterns` for a pass whose patterns act only on the ops `wanted` names (by written
    name, `op_name`): those ops, in walk order, and the wanted ops the rewrites create, each
    tried until a round changes nothing (an op whose pattern waits for others, like gpu.func for
    its body, acts in a later round). Nothing else is visited, and no dead code is removed (the
    caller does that where it wants it). New ops get the rewritten op's location. About a third
    of the greedy driver's work on large modules, which visits every op at least twice."""
    listener = PatternRewriterListener()
    created: list[Operation] = []
    current: list[Operation] = []

    def on_insert(new: Operation) -> None:
        if current:
            _stamp(new, current[-1])
        for nested in walk_ops(new):
            if wanted(op_name(nested)):
                created.append(nested)

    listener.operation_insertion_handler.append(on_insert)
    pending = [op for op in walk_ops(module) if op is not module and wanted(op_name(op))]
    if last_first:
        pending.reverse()
    # One rewriter for the pass, pointed at each op in turn as a new one would be (the
    # listener's handlers copied once: building one per op visited was ~5% of the nvvm stage).
    if not pending:
        return
    rewriter = PatternRewriter(pending[0])
    rewriter.extend_from_listener(listener)
    while pending:
        changed = False
        left: list[Operation] = []
        for op in pending:
            cancel.checkpoint()
            if not _inside(op, module):  # erased or detached by an earlier rewrite
                continue
            _point_at(rewriter, op)
            current.append(op)
            try:
                for pattern in patterns:
                    pattern.match_and_rewrite(op, rewriter)
                    if rewriter.has_done_action:
                        break
            finally:
                current.pop()
            if rewriter.has_done_action:
                changed = True
            else:
                left.append(op)
        pending = [*left, *created] if changed else []
        created = []


def _point_at(rewriter: PatternRewriter, op: Operation) -> None:
    """`rewriter` as `PatternRewriter(op)` makes it: matching `op`, inserting before it, no
    action done, no name hint (the handlers stay: the same for every op of a pass)."""
    rewriter._current_operation = op
    rewriter.insertion_point = InsertPoint.before(op)
    rewriter.has_done_action = False
    rewriter._name_hint = None


def _inside(op: Operation, root: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and parent is not root:
        parent = parent.parent_op()
    return parent is root


_UNREGISTERED = builtin.UnregisteredOp.name


def constant_value(value: SSAValue) -> int | None:
    """The integer a value is defined to be by llvm.mlir.constant / arith.constant, if any."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in ("llvm.mlir.constant", "arith.constant"):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def op_name(op: Operation) -> str:
    """The written name, also for ops no dialect defines (xDSL calls those builtin.unregistered;
    a name compare, not isinstance: the stages ask this of every op, many times)."""
    name = op.name
    if name == _UNREGISTERED:
        return op.op_name.data  # type: ignore[attr-defined, no-any-return]
    return name


def check_legal(
    module: builtin.ModuleOp,
    lctx: LoweringContext,
    illegal_prefixes: Iterable[str],
    allowed: Iterable[str] = (),
    message: str = "failed to legalize operation '{name}'",
) -> bool:
    """Report every op whose name starts with an illegal prefix (MLIR's partial-conversion wording)."""
    prefixes = tuple(illegal_prefixes)
    keep = set(allowed)
    ok = True
    for op in walk_ops(module):
        name = op_name(op)
        if name.startswith(prefixes) and name not in keep:
            lctx.error(op, message.format(name=name))
            ok = False
    return ok
