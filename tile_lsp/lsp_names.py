"""The names the language server declares at `initialize`: its custom requests and commands and
the semantic tokens' legend. No imports: `serve` answers `initialize` before the compiler loads.

The modules that answer them import their names from here (`features/semantic_tokens.py`,
`features/pipeline_view.py`, `features/bytecode_view.py`).
"""

# semantic tokens' legend: a token's type and modifiers are indices into these
TOKEN_TYPES = [
    "function",
    "type",
    "variable",
    "parameter",
    "namespace",
    "property",
    "keyword",
    "number",
    "string",
    "comment",
]
TOKEN_MODIFIERS = ["declaration", "definition", "readonly"]
SET_GPU_NAME = "tileLsp.setGpuName"  # command [chip]: the target for this session
VIEW_STAGE = "tileLsp.viewStage"  # command [{uri, stage, show?}]
BYTECODE_TEXT_REQUEST = "tileLsp/bytecodeText"  # {uri} -> bytecode_view.bytecode_text's answer
SAVE_AS_BYTECODE = "tileLsp.saveAsBytecode"  # command [{uri, path, version?}] -> save_as_bytecode's
