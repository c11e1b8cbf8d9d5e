"""`tile-lsp run`: execute one cuda_tile entry on host data with the NumPy reference
interpreter (`--device cpu`), on a GPU through our compiler and the CUDA driver, or both.

Argument specs (`--arg`, one per entry argument; see docs/interpreter.md):
`f32[1024]` (random), `f16[64,64]:zeros`, `f32[128]:file=x.npy`, `i32[16]:arange`, `f32=1.5`.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

DEFAULT_GPU = "sm_90a"
SPEC = re.compile(r"^(?P<dtype>[A-Za-z0-9]+)(?:\[(?P<dims>[0-9, ]*)\](?::(?P<init>.+))?|=(?P<value>.+))$")


class RunError(Exception):
    """A user-facing failure of `tile-lsp run` (bad spec, missing file, no GPU...): at a place
    in the file (`at`), as diagnostics already rendered (`lines`), or about the options."""

    def __init__(self, message: str, at: Any = None, lines: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.at = at  # a Span of the file, or None
        self.lines = lines or []


@dataclass
class HostArg:
    """One `--arg`: an array (pointer argument) or a scalar."""

    spec: str
    value: Any
    elem: str

    @property
    def is_array(self) -> bool:
        return isinstance(self.value, np.ndarray) and self.value.ndim > 0


def _dtype(name: str) -> tuple[Any, str]:
    """(NumPy dtype, cuda_tile element spelling) of a spec dtype."""
    import ml_dtypes

    table: dict[str, tuple[Any, str]] = {
        "i1": (np.bool_, "i1"), "bool": (np.bool_, "i1"), "i8": (np.int8, "i8"), "i16": (np.int16, "i16"),
        "i32": (np.int32, "i32"), "i64": (np.int64, "i64"), "u8": (np.uint8, "i8"), "u16": (np.uint16, "i16"),
        "u32": (np.uint32, "i32"), "u64": (np.uint64, "i64"), "f16": (np.float16, "f16"),
        "bf16": (ml_dtypes.bfloat16, "bf16"), "f32": (np.float32, "f32"), "tf32": (np.float32, "tf32"),
        "f64": (np.float64, "f64"), "f8e4m3fn": (ml_dtypes.float8_e4m3fn, "f8E4M3FN"),
        "f8e4m3": (ml_dtypes.float8_e4m3fn, "f8E4M3FN"), "f8e5m2": (ml_dtypes.float8_e5m2, "f8E5M2"),
    }
    key = name.lower()
    if key not in table:
        raise RunError(f"unknown dtype '{name}' (known: {', '.join(sorted(table))})")
    return np.dtype(table[key][0]), table[key][1]


def parse_arg(spec: str, rng: np.random.Generator) -> HostArg:
    m = SPEC.match(spec.strip())
    if m is None:
        raise RunError(f"bad --arg '{spec}': expected DTYPE[DIMS][:INIT] or DTYPE=VALUE")
    dtype, elem = _dtype(m["dtype"])
    if m["value"] is not None:
        try:
            number = float(m["value"]) if dtype.kind in "fV" else int(m["value"], 0)
        except ValueError:
            raise RunError(f"bad --arg '{spec}': '{m['value']}' is not a number")
        return HostArg(spec, np.asarray(number).astype(dtype), elem)
    try:
        dims = tuple(int(d) for d in m["dims"].split(",") if d.strip())
    except ValueError:
        raise RunError(f"bad --arg '{spec}': dimensions must be integers")
    if not dims or any(d <= 0 for d in dims):
        raise RunError(f"bad --arg '{spec}': give positive dimensions, e.g. f32[1024]")
    return HostArg(spec, _init(spec, m["init"] or "random", dtype, dims, rng), elem)


def _init(spec: str, init: str, dtype: Any, dims: tuple[int, ...], rng: np.random.Generator) -> Any:
    n = int(np.prod(dims))
    if init == "random":
        if dtype == np.bool_:
            return rng.integers(0, 2, dims).astype(np.bool_)
        if dtype.kind in "iu":
            return rng.integers(0, 100, dims).astype(dtype)
        return rng.uniform(-1.0, 1.0, dims).astype(dtype)
    if init == "zeros":
        return np.zeros(dims, dtype=dtype)
    if init == "ones":
        return np.ones(dims, dtype=dtype)
    if init == "arange":
        return np.arange(n).reshape(dims).astype(dtype)
    if init.startswith("fill="):
        try:
            return np.full(dims, float(init[5:])).astype(dtype)
        except ValueError:
            raise RunError(f"bad --arg '{spec}': fill value '{init[5:]}' is not a number")
    if init.startswith("file="):
        path = init[5:]
        try:
            data = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise RunError(f"--arg '{spec}': cannot read {path}: {exc}")
        if data.size != n:
            raise RunError(f"--arg '{spec}': {path} holds {data.size} elements, the spec wants {n}")
        return data.reshape(dims).astype(dtype)
    raise RunError(f"bad --arg '{spec}': unknown initializer '{init}' (random, zeros, ones, arange, fill=V, file=PATH)")


def parse_grid(text: str) -> tuple[int, int, int]:
    try:
        dims = [int(x) for x in text.split(",")]
    except ValueError:
        raise RunError(f"bad --grid '{text}': expected X[,Y[,Z]]")
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise RunError(f"bad --grid '{text}': expected 1 to 3 positive numbers")
    return tuple((dims + [1, 1])[:3])  # type: ignore[return-value]


# -- CPU (interpreter) ---------------------------------------------------------------------------


def run_cpu(text: str, path: str, entry: str, args: list[HostArg], grid: tuple[int, int, int]) -> dict[int, Any]:
    """Run the interpreter; the final contents of every array argument, by argument number."""
    from tile_lsp.compiler.interp.launch import bind, entry_params, load_module

    interp = load_module(text, path)
    launch = bind(entry_params(interp, entry), [a.value.copy() for a in args], interp.memory)
    interp.run(entry, launch.values, grid)
    return {i: interp.memory.array(name) for i, name in launch.arrays.items()}


def resolve_entry(text: str, path: str, wanted: str | None) -> str:
    from tile_lsp.compiler.interp.launch import load_module
    from tile_lsp.compiler.source import Span

    names = load_module(text, path).entries()
    start = Span(0, min(1, len(text)))
    if wanted is None:
        if len(names) != 1:
            raise RunError(f"the file has {len(names)} entries; pick one with --entry ({', '.join(names)})", start)
        return names[0]
    if wanted in names:
        return wanted
    matches = [n for n in names if n.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    raise RunError(f"no single entry matches '{wanted}' (entries: {', '.join(names) or 'none'})", start)


def _is_int_scalar(t: Any) -> bool:
    from tile_lsp.compiler.dialects.cuda_tile import types as ct

    return isinstance(t, ct.TileType) and t.rank == 0 and ct.is_int(t.element_type)


def check_args(text: str, path: str, entry: str, args: list[HostArg]) -> None:
    """Each `--arg` against the entry's signature, matched as `launch.bind` matches them (an
    array to a pointer parameter, also filling the 2*ndim integer parameters after it with its
    shape and strides when fewer arguments than parameters are given): the element type of a
    pointer or tile parameter, a scalar's type, the count. A mismatch is a RunError at the
    parameter (or the entry) naming the argument, the parameter's type and what was given."""
    from tile_lsp.compiler.dialects.cuda_tile import types as ct
    from tile_lsp.compiler.interp.launch import load_module
    from tile_lsp.compiler.syntax.types import type_str

    interp = load_module(text, path)
    op = interp.symbols[entry]
    block = op.regions[0].blocks.first
    assert block is not None
    params = list(block.args)
    smap = interp.smap
    info = smap.ops.get(op) if smap is not None else None
    entry_at = (info.symbol_span or info.name_span) if info is not None else None

    def at(p: int) -> Any:
        span = smap.value_defs.get(params[p]) if smap is not None else None
        return span or entry_at

    def name(p: int) -> str:
        return (smap.value_names.get(params[p]) if smap is not None else None) or f"#{p}"

    def spelling(t: Any) -> str:
        return ct.ELEMENT_TYPE_SPELLING.get(t, type_str(t))

    def what(arg: HostArg) -> str:
        if arg.is_array:
            return f"an {arg.elem} array of shape {list(arg.value.shape)}"
        return f"an {arg.elem} scalar"

    p = 0
    for i, arg in enumerate(args):
        if p >= len(params):
            raise RunError(f"@{entry} takes {len(params)} parameters; --arg {i} '{arg.spec}' is one too many", entry_at)
        t = params[p].type
        shown = f"--arg {i} '{arg.spec}' is {what(arg)}, but parameter {name(p)} of @{entry} is {type_str(t)}"
        elem = ct.element_type(t) if isinstance(t, ct.TileType) else None
        if isinstance(elem, ct.PointerType):
            want = spelling(elem.pointee)
            if not arg.is_array:
                raise RunError(f"{shown}: give an array of {want}, e.g. {want}[1024]", at(p))
            if arg.elem and arg.elem != want:
                raise RunError(f"{shown}: give an array of {want}", at(p))
            p += 1
            expand = 2 * arg.value.ndim
            left_params, left_args = len(params) - p, len(args) - i - 1
            if left_params - expand >= left_args and all(_is_int_scalar(x.type) for x in params[p : p + expand]):
                p += expand
            continue
        if elem is not None:
            want = spelling(elem)
            shape = ct.shape_of(t)
            if not shape and arg.is_array:
                raise RunError(f"{shown}: give a scalar, e.g. {want}=1", at(p))
            if shape and (not arg.is_array or tuple(arg.value.shape) != tuple(shape)):
                dims = ",".join(map(str, shape))
                raise RunError(f"{shown}: give an array {want}[{dims}]", at(p))
            if arg.elem and arg.elem != want:
                example = f"{want}[{','.join(map(str, shape))}]" if shape else f"{want}=1"
                raise RunError(f"{shown}: give {'an array' if shape else 'a scalar'} of {want}, e.g. {example}", at(p))
        p += 1
    if p < len(params):
        filled = f"the {len(args)} --arg given fill {p}" if args else "no --arg was given"
        raise RunError(f"no --arg for parameter {name(p)} ({type_str(params[p].type)}) of @{entry}: it takes "
                       f"{len(params)} parameters, {filled} (an array also fills the shape and stride parameters "
                       "after its pointer)", at(p))


# -- GPU (our compiler + the CUDA driver) -----------------------------------------------------------


def _driver() -> Any:
    try:
        from cuda.bindings import driver
    except ImportError:
        raise RunError("--device gpu needs the cuda-bindings package: pip install 'tile-lsp[gpu]'")
    return driver


def _check(driver: Any, result: Any, what: str) -> Any:
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(err)
        raise RunError(f"CUDA driver: {what} failed: {name.decode() if isinstance(name, bytes) else name}")
    return rest[0] if len(rest) == 1 else rest


def compile_for_gpu(text: str, path: str, gpu_name: str) -> tuple[bytes, str]:
    """Compile with our pipeline: (cubin bytes, PTX text)."""
    from tile_lsp.compiler.diagnostics import format_text
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target, target_error

    target = Target.resolve(gpu_name, None)
    if target is None:
        raise RunError(target_error(gpu_name, None) or f"invalid --gpu-name '{gpu_name}'")
    source = SourceText(text, path)
    result = compile_source(source, CompileOptions(target=target), "cubin")
    ptx = result.stage("ptx")
    if not result.ok or result.output is None or result.output.data is None or ptx is None:
        lines = [line for d in result.diagnostics if d.is_error for line in format_text(d, source)]
        raise RunError("compiling for the GPU failed", lines=lines[:20] or [f"{path}: error: compiling for the GPU failed"])
    return result.output.data, ptx.text


def block_size(ptx: str, entry: str) -> int:
    """The entry's threads per block, from its `.reqntid`/`.maxntid` in the PTX."""
    from tile_lsp.compiler.lowering.layout import DEFAULT_THREADS

    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\b[^{]*?\.(?:reqntid|maxntid)\s+(\d+)", ptx, re.S)
    return int(m.group(1)) if m else DEFAULT_THREADS


def compile_cubin(text: str, path: str, entry: str, gpu_name: str) -> tuple[bytes, int]:
    """Compile with our pipeline; (cubin bytes, threads per block from the PTX)."""
    cubin, ptx = compile_for_gpu(text, path, gpu_name)
    return cubin, block_size(ptx, entry)


_CTYPES = {"i1": ctypes.c_uint8, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
           "i64": ctypes.c_int64, "f32": ctypes.c_float, "f64": ctypes.c_double, "tf32": ctypes.c_float}


def _param(t: Any, value: Any) -> Any:
    """A ctypes object holding a scalar kernel parameter of cuda_tile type `t`."""
    from tile_lsp.compiler.dialects.cuda_tile import types as ct
    from tile_lsp.compiler.interp.numerics import np_dtype

    elem = ct.element_type(t)
    spelling = ct.ELEMENT_TYPE_SPELLING.get(elem, "")
    arr = np.asarray(value).astype(np_dtype(elem))
    if spelling in _CTYPES:
        return _CTYPES[spelling](arr.item() if spelling != "i1" else int(bool(arr)))
    return {1: ctypes.c_uint8, 2: ctypes.c_uint16}[arr.itemsize](int(arr.view({1: np.uint8, 2: np.uint16}[arr.itemsize])))


class Gpu:
    """Device 0 through the CUDA driver (its primary context)."""

    def __init__(self) -> None:
        driver = self.driver = _driver()
        try:
            init = driver.cuInit(0)
        except Exception as exc:  # the bindings raise when libcuda cannot be loaded
            raise RunError(f"CUDA driver not available: {exc}")
        if isinstance(init, tuple):
            init = init[0]
        if init != driver.CUresult.CUDA_SUCCESS:
            _, name = driver.cuGetErrorName(init)
            raise RunError(f"no usable GPU: cuInit failed with {name.decode() if isinstance(name, bytes) else name}")
        if not _check(driver, driver.cuDeviceGetCount(), "cuDeviceGetCount"):
            raise RunError("no usable GPU: the CUDA driver sees no device")
        self.device = _check(driver, driver.cuDeviceGet(0), "cuDeviceGet")
        attr = driver.CUdevice_attribute
        major = _check(driver, driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                                            self.device), "cuDeviceGetAttribute")
        minor = _check(driver, driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                                            self.device), "cuDeviceGetAttribute")
        self.cc = 10 * major + minor

    def image(self, gpu_name: str, cubin: bytes, ptx: str) -> bytes:
        """What to load for a kernel compiled for `gpu_name`: the cubin when it is this GPU's
        (sm_XX, sm_XXa or sm_XXf of its compute capability), else the PTX, which the driver
        compiles for this GPU when the PTX's target is not newer than it."""
        from tile_lsp.compiler.target import Target

        target = Target.resolve(gpu_name, None)
        assert target is not None
        if target.cc == self.cc:
            return cubin
        if target.cc > self.cc or target.suffix == "a":
            raise RunError(f"this GPU is sm_{self.cc}: code for {gpu_name} cannot run on it")
        return ptx.encode() + b"\0"

    def launch(self, image: bytes, entry: str, args: list[Any], grid: tuple[int, int, int],
               threads: int, timings: list[float] | None = None, repeat: int = 0) -> dict[int, np.ndarray[Any, Any]]:
        """Load `image` (a cubin, or NUL-ended PTX), launch `entry` once over `grid` with `args`
        (NumPy arrays, copied to device memory and passed as pointers, or ctypes scalars), copy
        every array back: {argument index: array}. With `repeat`, then launch it that many more
        times on the same buffers, each timed by CUDA events into `timings` (milliseconds); the
        arrays returned are those of the first launch. A kernel fault resets the context, so a
        later launch starts clean."""
        driver = self.driver
        ctx = _check(driver, driver.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        _check(driver, driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        module = _check(driver, driver.cuModuleLoadData(image), "cuModuleLoadData")
        buffers: dict[int, tuple[Any, np.ndarray[Any, Any]]] = {}
        fault = False
        try:
            fn = _check(driver, driver.cuModuleGetFunction(module, entry.encode()), "cuModuleGetFunction")
            for i, a in enumerate(args):
                if isinstance(a, np.ndarray):
                    host = np.ascontiguousarray(a).copy()
                    dptr = _check(driver, driver.cuMemAlloc(max(host.nbytes, 1)), "cuMemAlloc")
                    buffers[i] = (dptr, host)
                    _check(driver, driver.cuMemcpyHtoD(dptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")
            holders = [ctypes.c_uint64(int(buffers[i][0])) if i in buffers else a for i, a in enumerate(args)]
            pointers = (ctypes.c_void_p * max(len(holders), 1))(*[ctypes.addressof(h) for h in holders])
            def go() -> None:
                _check(driver, driver.cuLaunchKernel(fn, *grid, threads, 1, 1, 0, 0, ctypes.addressof(pointers), 0),
                       "cuLaunchKernel")

            go()
            fault = True
            _check(driver, driver.cuCtxSynchronize(), "kernel execution")
            fault = False
            for dptr, host in buffers.values():
                _check(driver, driver.cuMemcpyDtoH(host.ctypes.data, dptr, host.nbytes), "cuMemcpyDtoH")
            if repeat:
                fault = True
                self._time(go, repeat, timings if timings is not None else [])
                fault = False
            return {i: host for i, (_, host) in buffers.items()}
        finally:
            if fault:  # the context is lost: start a new one for the next launch
                driver.cuDevicePrimaryCtxRelease(self.device)
                driver.cuDevicePrimaryCtxReset(self.device)
            else:
                for dptr, _ in buffers.values():
                    driver.cuMemFree(dptr)
                driver.cuModuleUnload(module)
                driver.cuDevicePrimaryCtxRelease(self.device)


    def _time(self, go: Any, repeat: int, timings: list[float]) -> None:
        driver = self.driver
        start = _check(driver, driver.cuEventCreate(0), "cuEventCreate")
        end = _check(driver, driver.cuEventCreate(0), "cuEventCreate")
        try:
            for _ in range(repeat):
                _check(driver, driver.cuEventRecord(start, 0), "cuEventRecord")
                go()
                _check(driver, driver.cuEventRecord(end, 0), "cuEventRecord")
                _check(driver, driver.cuEventSynchronize(end), "kernel execution")
                timings.append(float(_check(driver, driver.cuEventElapsedTime(start, end), "cuEventElapsedTime")))
        finally:
            driver.cuEventDestroy(start)
            driver.cuEventDestroy(end)


def run_gpu(text: str, path: str, entry: str, args: list[HostArg], grid: tuple[int, int, int],
            gpu_name: str, timings: list[float] | None = None, repeat: int = 0) -> dict[int, Any]:
    """Compile, launch once over `grid` through the CUDA driver, copy every array back (then,
    with `repeat`, time that many more launches into `timings`, ms). Code for an older GPU than
    this one runs through its PTX (the driver compiles it)."""
    from tile_lsp.compiler.interp.launch import bind, entry_params, load_module
    from tile_lsp.compiler.interp.memory import GlobalMemory

    gpu = Gpu()
    params = entry_params(load_module(text, path), entry)
    launch = bind(params, [a.value for a in args], GlobalMemory())
    cubin, ptx = compile_for_gpu(text, path, gpu_name)
    values = [np.asarray(args[launch.pointer_params[p]].value) if p in launch.pointer_params
              else _param(t, launch.values[p]) for p, t in enumerate(params)]
    out = gpu.launch(gpu.image(gpu_name, cubin, ptx), entry, values, grid, block_size(ptx, entry), timings, repeat)
    return {launch.pointer_params[p]: a for p, a in out.items()}


# -- reporting ------------------------------------------------------------------------------------------


def summary_line(name: str, a: Any) -> str:
    f = np.asarray(a).astype(np.float64)
    finite = f[np.isfinite(f)]
    stats = (f"min {finite.min():.6g} max {finite.max():.6g} mean {finite.mean():.6g}" if finite.size
             else "no finite values")
    crc = zlib.crc32(np.ascontiguousarray(a).tobytes())
    return f"{name}: {np.asarray(a).dtype}{list(np.shape(a))} {stats} sum {f.sum():.9g} crc32 {crc:08x}"


def compare_line(name: str, cpu: Any, gpu: Any) -> str:
    a, b = np.asarray(cpu).astype(np.float64), np.asarray(gpu).astype(np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    diff = np.where(both_nan, 0.0, np.abs(a - b))
    rel = diff / np.maximum(np.abs(a), np.finfo(np.float64).tiny)
    return f"{name}: max abs err {np.nanmax(diff) if diff.size else 0:.3g} max rel err {np.nanmax(rel) if rel.size else 0:.3g}"


def time_line(timings: list[float]) -> str:
    ordered = sorted(timings)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return (f"gpu kernel time: median {median:.4g} ms, min {ordered[0]:.4g} ms over {n} launches "
            "(CUDA events; after one untimed launch, same buffers)")


def _report_error(exc: Exception, text: str, path: str) -> None:
    """One error as `check` prints its diagnostics: `path:line:col: error: message` at its place
    in the file; an error about the options (or the machine) as `tile-lsp run: error: message`."""
    from tile_lsp.compiler.diagnostics import Diagnostic, Severity, format_text
    from tile_lsp.compiler.interp.machine import InterpError
    from tile_lsp.compiler.source import SourceText

    if isinstance(exc, RunError) and exc.lines:
        print("\n".join(exc.lines), file=sys.stderr)
    elif isinstance(exc, RunError) and exc.at is not None:
        diag = Diagnostic(exc.at, Severity.ERROR, exc.message, "run")
        print("\n".join(format_text(diag, SourceText(text, path))), file=sys.stderr)
    elif isinstance(exc, InterpError) and exc.where.startswith(f"{path}:"):
        print(f"{exc.where}: error: {exc.message}", file=sys.stderr)
    else:
        print(f"tile-lsp run: error: {exc}", file=sys.stderr)


def run_command(args: argparse.Namespace) -> int:
    from tile_lsp.compiler.bytecode.convert import load_source
    from tile_lsp.compiler.diagnostics import Severity, format_text
    from tile_lsp.compiler.interp.machine import InterpError
    from tile_lsp.compiler.target import Target, target_error

    try:
        with open(args.file, "rb") as f:
            source, unreadable = load_source(f.read(), args.file)
    except OSError as exc:
        print(f"{args.file}: error: {exc.strerror}", file=sys.stderr)
        return 1
    if any(d.severity == Severity.ERROR for d in unreadable):  # bytecode that cannot be read
        for d in unreadable:
            print("\n".join(format_text(d, source)), file=sys.stderr)
        return 1
    text = source.text
    try:
        rng = np.random.default_rng(args.seed)
        host = [parse_arg(s, rng) for s in args.arg or []]
        grid = parse_grid(args.grid)
        devices = ["cpu", "gpu"] if args.compare else [args.device]
        if args.time < 0:
            raise RunError("--time takes a number of launches (0 or more)")
        if args.time and "gpu" not in devices:
            raise RunError("--time measures the GPU kernel: add --device gpu or --compare")
        gpu_name = args.gpu_name or DEFAULT_GPU
        if "gpu" in devices and Target.resolve(gpu_name) is None:
            raise RunError(target_error(gpu_name, None) or f"invalid --gpu-name '{gpu_name}'")
        entry = resolve_entry(text, args.file, args.entry)
        check_args(text, args.file, entry, host)
        results = {}
        timings: list[float] = []
        for device in devices:
            if device == "cpu":
                results[device] = run_cpu(text, args.file, entry, host, grid)
            else:
                results[device] = run_gpu(text, args.file, entry, host, grid, gpu_name, timings, args.time)
    except (RunError, InterpError) as exc:
        _report_error(exc, text, args.file)
        return 1
    except Exception as exc:  # never a traceback for the user
        print(f"tile-lsp run: error: internal error in tile-lsp run (please report): {exc!r}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    for device, outs in results.items():
        for i, a in sorted(outs.items()):
            tag = f" ({device})" if len(results) > 1 else ""
            print(summary_line(f"arg{i}{tag}", a))
            if args.out:
                os.makedirs(args.out, exist_ok=True)
                suffix = f".{device}" if len(results) > 1 else ""
                np.save(os.path.join(args.out, f"arg{i}{suffix}.npy"), a)
    if args.compare:
        for i in sorted(results["cpu"]):
            print(compare_line(f"arg{i}", results["cpu"][i], results["gpu"][i]))
    if timings:
        print(time_line(timings))
    return 0
