"""The Triton side of croq's GEMM benchmarks: a GEMM that loads its tiles
through TMA tensor descriptors, out[M, N] = A @ B, with A stored M x K or
K x M and B stored N x K or K x N, read in place (no copies).

Two forms of one kernel: *persistent* (one program per multiprocessor,
each walking output tiles `program_id, program_id + #SMs, ...`, the tile
loop and the K loop flattened so the next tile's loads overlap this one's
store) and *one program per tile*. Tiles go in grouped order (GROUP_M tile
rows share their B tiles in L2); the K loop is `tl.dot` on descriptor loads,
which Triton pipelines (num_stages) and runs on wgmma.

`choose_config` picks the configuration per shape the way a user of Triton
would, with more care than `triton.autotune` takes: every configuration that
compiles and computes the product correctly is timed, the L2 flushed
before each call, the configurations interleaved call by call in rounds
whose order rotates (so no configuration always runs first, or after the
same one), and the lowest median wins. The time is the kernel's own
duration from the torch profiler, which the benchmarks compare (CUDA
events would add the launch, a visible part of a 7 us kernel). Configurations more than PRUNE times slower than the best
after the first round are not timed again. The choice is kept per (shape,
dtype, layout) for the process. `autotuned_matmul` wraps the same kernel
in `triton.autotune` over the same configurations, to check the choice
against Triton's own tuner.
"""

from __future__ import annotations

import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import torch

try:
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor
    IMPORT_ERROR: Optional[str] = None
except Exception as e:  # Triton missing or too old for tensor descriptors
    triton = None
    IMPORT_ERROR = f"{type(e).__name__}: {e}"

if triton is not None:

    @triton.jit
    def _output_tile(tile, tiles_m, tiles_n, GROUP_M: tl.constexpr):
        """The (row, column) of output tile `tile` in grouped order."""
        in_group = GROUP_M * tiles_n
        first_m = (tile // in_group) * GROUP_M
        group_m = min(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (tile % group_m)
        pid_n = (tile % in_group) // group_m
        return pid_m, pid_n

    @triton.jit
    def _store_tile(a_desc, b_desc, c_desc, tile, tiles_m, tiles_n, k_tiles,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                    A_KM: tl.constexpr, B_KN: tl.constexpr,
                    OUT_BF16: tl.constexpr):
        pid_m, pid_n = _output_tile(tile, tiles_m, tiles_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kk in range(k_tiles):
            off_k = kk * BLOCK_K
            if A_KM:
                a = a_desc.load([off_k, off_m]).T
            else:
                a = a_desc.load([off_m, off_k])
            if B_KN:
                b = b_desc.load([off_k, off_n])
            else:
                b = b_desc.load([off_n, off_k]).T
            acc = tl.dot(a, b, acc)
        if OUT_BF16:
            c = acc.to(tl.bfloat16)
        else:
            c = acc.to(tl.float16)
        c_desc.store([off_m, off_n], c)

    # M, N and K are not specialized (divisibility by 16, equality to 1):
    # the descriptors bound the tiles, and one compiled kernel per
    # configuration and layout serves every shape.
    @triton.jit(do_not_specialize=["M", "N", "K"])
    def _tma_matmul(a_desc, b_desc, c_desc, M, N, K,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                    PERSISTENT: tl.constexpr, NUM_SMS: tl.constexpr,
                    A_KM: tl.constexpr, B_KN: tl.constexpr,
                    OUT_BF16: tl.constexpr):
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        k_tiles = tl.cdiv(K, BLOCK_K)
        if PERSISTENT:
            for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS,
                                 flatten=True):
                _store_tile(a_desc, b_desc, c_desc, tile, tiles_m, tiles_n,
                            k_tiles, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, A_KM,
                            B_KN, OUT_BF16)
        else:
            _store_tile(a_desc, b_desc, c_desc, tl.program_id(0), tiles_m,
                        tiles_n, k_tiles, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
                        A_KM, B_KN, OUT_BF16)


@dataclass(frozen=True)
class Config:
    block_m: int
    block_n: int
    block_k: int
    stages: int
    warps: int
    persistent: bool

    def __str__(self) -> str:
        return (f"{self.block_m}x{self.block_n}x{self.block_k} s{self.stages}"
                f" w{self.warps}" + (" pers" if self.persistent else ""))


def _both(bm, bn, bk, stages, warps) -> List[Config]:
    return [Config(bm, bn, bk, stages, warps, True),
            Config(bm, bn, bk, stages, warps, False)]


# Large tiles (two warpgroups) for large problems; 128x128 with one or two
# warpgroups; small tiles with more stages for partial waves, skinny and
# small problems (more programs, less padding of a short M or N); 128-wide
# K tiles for the skinny ones, which stream B. Stages are as many as fit
# in the 227 KiB of shared memory with the output tile.
CONFIGS: List[Config] = [
    *_both(128, 256, 64, 3, 8),
    *_both(256, 128, 64, 3, 8),
    *_both(128, 128, 64, 4, 8),
    *_both(128, 128, 64, 5, 4),
    *_both(128, 64, 64, 5, 4),
    *_both(64, 128, 64, 5, 4),
    *_both(64, 64, 64, 6, 4),
    Config(64, 128, 128, 4, 4, False),
    Config(64, 64, 128, 5, 4, False),
    # Two programs a multiprocessor (96 KiB each): for M of 1 to 64, whose
    # time is reading B, 64x64 tiles leave N = 8192 at 128 programs.
    Config(64, 32, 128, 4, 4, False),
]

#: Configurations slower than PRUNE x the best after the first round are
#: not timed again.
PRUNE = 1.25

#: The choice per (M, N, K, dtype, A stored K x M, B stored K x N).
_CHOICES: Dict[tuple, Tuple[Optional[Config], str]] = {}

_FLUSH: List[torch.Tensor] = []
_SMS: Dict[int, int] = {}


def _flush_l2() -> None:
    """Overwrites 256 MiB (more than the H100's and H200's 50 MB L2)."""
    if not _FLUSH:
        _FLUSH.append(torch.empty(64 << 20, dtype=torch.int32, device="cuda"))
    _FLUSH[0].zero_()


def _sm_count(device: torch.device) -> int:
    index = device.index if device.index is not None else \
        torch.cuda.current_device()
    if index not in _SMS:
        _SMS[index] = torch.cuda.get_device_properties(
            index).multi_processor_count
    return _SMS[index]


def _describable(t: torch.Tensor) -> bool:
    """Whether TMA can describe t as stored (row-major, rows 16-byte
    aligned, at least 16 bytes wide)."""
    size = t.element_size()
    return t.dim() == 2 and t.stride(1) == 1 and \
        (t.stride(0) * size) % 16 == 0 and t.shape[1] * size >= 16 and \
        t.data_ptr() % 16 == 0


def _in_place(t: torch.Tensor) -> Optional[torch.Tensor]:
    """t as TMA can describe it without a copy, or None. A single row's
    stride is arbitrary (the view of a K x 1 tensor has stride 1): it is
    given the row's width."""
    if t.dim() == 2 and t.shape[0] == 1 and t.stride(1) == 1:
        t = t.as_strided(t.shape, (t.shape[1], 1))
    return t if _describable(t) else None


def _row_major_copy(t: torch.Tensor) -> torch.Tensor:
    return torch.empty(t.shape, dtype=t.dtype, device=t.device).copy_(t)


def operands(a: torch.Tensor, b: torch.Tensor):
    """The tensors the kernel reads for A [M, K] and B [K, N] given as
    views, with their layouts: (a_stored, a_km, b_stored, b_kn, copies).
    A view of a stored transpose is read in place; an operand TMA cannot
    describe either way is copied row-major, and `copies` names it."""
    notes = []
    a_stored, a_km = _in_place(a), False
    if a_stored is None:
        a_stored, a_km = _in_place(a.t()), True
    if a_stored is None:
        a_stored, a_km = _row_major_copy(a), False
        notes.append("A copied")
    b_stored, b_kn = _in_place(b.t()), False
    if b_stored is None:
        b_stored, b_kn = _in_place(b), True
    if b_stored is None:
        b_stored, b_kn = _row_major_copy(b.t()), False
        notes.append("B copied")
    return a_stored, a_km, b_stored, b_kn, ", ".join(notes)


def make_call(a_stored: torch.Tensor, a_km: bool, b_stored: torch.Tensor,
              b_kn: bool, out: torch.Tensor, config: Config) -> Callable:
    """A call that computes out = A @ B with one configuration, A and B
    as `operands` gives them."""
    c = config
    m, n = out.shape
    k = a_stored.shape[0] if a_km else a_stored.shape[1]
    a_desc = TensorDescriptor.from_tensor(
        a_stored, [c.block_k, c.block_m] if a_km else [c.block_m, c.block_k])
    b_desc = TensorDescriptor.from_tensor(
        b_stored, [c.block_k, c.block_n] if b_kn else [c.block_n, c.block_k])
    c_desc = TensorDescriptor.from_tensor(out, [c.block_m, c.block_n])
    sms = _sm_count(out.device)
    tiles = triton.cdiv(m, c.block_m) * triton.cdiv(n, c.block_n)
    grid = (min(sms, tiles) if c.persistent else tiles,)
    # The options in the order triton.autotune passes them (Config's
    # all_kwargs), so that its launches find these compiled kernels.
    kwargs = dict(BLOCK_M=c.block_m, BLOCK_N=c.block_n, BLOCK_K=c.block_k,
                  GROUP_M=8, PERSISTENT=c.persistent, NUM_SMS=sms, A_KM=a_km,
                  B_KN=b_kn, OUT_BF16=out.dtype == torch.bfloat16,
                  num_warps=c.warps, num_ctas=1, num_stages=c.stages)

    def call():
        _tma_matmul[grid](a_desc, b_desc, c_desc, m, n, k, **kwargs)
    call.warmup = lambda: _tma_matmul.warmup(a_desc, b_desc, c_desc, m, n, k,
                                             grid=grid, **kwargs)
    return call


def precompile(calls: List[Callable]) -> None:
    """Compiles the calls' kernels on a thread pool (Triton's
    AsyncCompileMode) when this Triton has it; the launches then find them
    compiled. A configuration that does not compile fails again, by name,
    at its first launch."""
    try:
        from triton.runtime._async_compile import AsyncCompileMode
    except ImportError:
        return
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            try:
                mode = AsyncCompileMode(pool, ignore_errors=True)
            except TypeError:  # a Triton whose mode always raises
                mode = AsyncCompileMode(pool)
            with mode:
                for call in calls:
                    try:
                        call.warmup()
                    except Exception:  # reported at the launch
                        pass
    except Exception:  # the launches compile what is left
        pass


def _event_times(call: Callable, iters: int) -> List[float]:
    """Milliseconds of `iters` calls, CUDA events around each, L2 flushed
    before each."""
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for start, end in events:
        _flush_l2()
        start.record()
        call()
        end.record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in events]


def _round_times(calls: Dict["Config", Callable], order: List["Config"],
                 iters: int) -> Dict["Config", List[float]]:
    """Each call's kernel durations (ms) over `iters` calls, the calls
    interleaved one by one in `order`, L2 flushed before each: from the
    torch profiler (the kernel's own time, as bench_linalg.py and
    bench_gemm.py time it; CUDA events would add the launch to kernels of
    a few microseconds), or from CUDA events when the profiler gives no
    kernel per call."""
    from torch.profiler import ProfilerActivity, profile
    sequence = order * iters
    kernels = []
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for config in sequence:
                _flush_l2()
                calls[config]()
            torch.cuda.synchronize()
        kernels = sorted(
            (e for e in prof.events() if "tma_matmul" in e.name and
             str(getattr(e, "device_type", "")).endswith("CUDA")),
            key=lambda e: e.time_range.start)
    except Exception:  # profiler unavailable: events below
        pass
    times: Dict[Config, List[float]] = {c: [] for c in order}
    if len(kernels) != len(sequence):
        for config in order:
            times[config] = _event_times(calls[config], iters)
        return times
    for config, event in zip(sequence, kernels):
        times[config].append(event.time_range.elapsed_us() / 1e3)
    return times


def relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    scale = float(ref.abs().max()) or 1.0
    return float(torch.nan_to_num((out.float() - ref).abs(),
                                  nan=float("inf")).max()) / scale


def choose_config(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
                  rounds: int = 3, iters: int = 5,
                  configs: Optional[List[Config]] = None,
                  ref: Optional[torch.Tensor] = None
                  ) -> Tuple[Optional[Config], str]:
    """The fastest configuration for out = a @ b (a [M, K], b [K, N],
    views of the stored operands) and a note: the configuration, the
    copies the layout needs, or why none runs. Cached per shape, dtype and
    layout."""
    if triton is None:
        return None, f"no triton ({IMPORT_ERROR})"
    a_stored, a_km, b_stored, b_kn, copies = operands(a, b)
    key = (*out.shape, a.shape[1], a.dtype, a_km, b_kn, copies)
    if configs is None and key in _CHOICES:
        return _CHOICES[key]
    if not _describable(out):
        return None, "TMA cannot describe the output"
    if ref is None:
        ref = a.float() @ b.float()
    probe = torch.empty_like(out)
    calls, errors = {}, []
    built = []
    for config in configs or CONFIGS:
        try:
            built.append((config, make_call(a_stored, a_km, b_stored, b_kn,
                                            probe, config)))
        except Exception as e:
            errors.append(f"{config}: {type(e).__name__}: {str(e)[:100]}")
    precompile([call for _, call in built])
    for config, call in built:
        probe.fill_(float("nan"))
        try:
            call()
            torch.cuda.synchronize()
        except Exception as e:  # a configuration Triton cannot take
            errors.append(f"{config}: {type(e).__name__}: {str(e)[:100]}")
            continue
        err = relative_error(probe, ref)
        if not err <= 1e-2:
            errors.append(f"{config}: wrong (relative error {err:.3g})")
            continue
        calls[config] = call
    if not calls:
        result = (None, "; ".join(errors) or "no configuration ran")
    else:
        times: Dict[Config, List[float]] = {c: [] for c in calls}
        order = list(calls)
        for r in range(rounds):
            shift = r % len(order)
            rotated = order[shift:] + order[:shift]
            for config, t in _round_times(calls, rotated, iters).items():
                times[config] += t
            best = min(statistics.median(times[c]) for c in order)
            order = [c for c in order
                     if statistics.median(times[c]) <= PRUNE * best]
        chosen = min(order, key=lambda c: statistics.median(times[c]))
        result = (chosen, str(chosen) +
                  (f" ({copies} in the call)" if copies else ""))
    if configs is None:
        _CHOICES[key] = result
    return result


def best_call(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
              ref: Optional[torch.Tensor] = None
              ) -> Tuple[Optional[Callable], str]:
    """A call computing out = a @ b (a [M, K], b [K, N], views of the
    stored operands, read in place where TMA can) with the configuration
    `choose_config` picks (ref: a @ b in float32, when the caller has
    it), and its note; None and why when none runs. An operand TMA cannot
    describe as stored is copied by the call, before the kernel, as a
    user would have to (the note says so)."""
    config, note = choose_config(a, b, out, ref=ref)
    if config is None:
        return None, note
    a_stored, a_km, b_stored, b_kn, copies = operands(a, b)
    kernel = make_call(a_stored, a_km, b_stored, b_kn, out, config)
    if not copies:
        return kernel, note

    def call():
        if "A copied" in copies:
            a_stored.copy_(a)
        if "B copied" in copies:
            b_stored.copy_(b.t())
        kernel()
    return call, note


def fastest_triton_matmul(a: torch.Tensor, b: torch.Tensor
                          ) -> Tuple[Optional[Callable], str]:
    """best_call for a @ b.T (a [M, K], b [N, K]) into a new output."""
    out = torch.empty(a.shape[0], b.shape[0], device=a.device, dtype=a.dtype)
    return best_call(a, b.t(), out)


def autotuned_matmul(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
                     configs: Optional[List[Config]] = None
                     ) -> Tuple[Callable, Callable[[], Optional[Config]]]:
    """out = a @ b through `triton.autotune` over the same configurations
    (its own do_bench: L2 flushed, median), keyed on M, N and K: the call,
    and a function giving the configuration it chose after its first
    call."""
    a_stored, a_km, b_stored, b_kn, _ = operands(a, b)
    configs = configs or CONFIGS
    sms = _sm_count(out.device)

    def set_blocks(nargs):
        bm, bn, bk = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["BLOCK_K"]
        nargs["a_desc"].block_shape = [bk, bm] if a_km else [bm, bk]
        nargs["b_desc"].block_shape = [bk, bn] if b_kn else [bn, bk]
        nargs["c_desc"].block_shape = [bm, bn]

    tuned = triton.autotune(
        configs=[triton.Config(
            dict(BLOCK_M=c.block_m, BLOCK_N=c.block_n, BLOCK_K=c.block_k,
                 PERSISTENT=c.persistent), num_stages=c.stages,
            num_warps=c.warps, pre_hook=set_blocks) for c in configs],
        key=["M", "N", "K"])(_tma_matmul)
    m, n = out.shape
    k = a_stored.shape[0] if a_km else a_stored.shape[1]
    # Placeholder block shapes; set_blocks sets each configuration's.
    a_desc = TensorDescriptor.from_tensor(a_stored, [64, 64])
    b_desc = TensorDescriptor.from_tensor(b_stored, [64, 64])
    c_desc = TensorDescriptor.from_tensor(out, [64, 64])

    def grid(meta):
        tiles = triton.cdiv(m, meta["BLOCK_M"]) * \
            triton.cdiv(n, meta["BLOCK_N"])
        return (min(sms, tiles) if meta["PERSISTENT"] else tiles,)

    def call():
        tuned[grid](a_desc, b_desc, c_desc, m, n, k, GROUP_M=8, NUM_SMS=sms,
                    A_KM=a_km, B_KN=b_kn,
                    OUT_BF16=out.dtype == torch.bfloat16)

    def chosen() -> Optional[Config]:
        best = tuned.best_config
        if best is None:
            return None
        kw = best.kwargs
        return Config(kw["BLOCK_M"], kw["BLOCK_N"], kw["BLOCK_K"],
                      best.num_stages, best.num_warps, kw["PERSISTENT"])
    return call, chosen
