# ===- grouped_tests.py - GPU tests of croq.grouped_mm -------------------===#
#
# The kernels of examples/grouped_matmul.mlir, called through
# croq.grouped_mm on random inputs (no zeros) with poisoned (NaN) outputs,
# compared per group with the float64 product: uneven groups, groups of no
# rows, groups smaller than a tile, G = 1 and G = 256, N and K off the tile
# sizes. Rows of no group (contiguous form) and rows past a group's count
# (masked form) must keep their poison. The masked form is also captured in
# a CUDA graph and replayed with other counts, and bad arguments must be
# refused with a ValueError. run_gpu_tests.py runs them with the other
# groups.
#
# ===----------------------------------------------------------------------===#

import math

import torch

import croq
import croq.grouped

MODULE = "grouped_matmul"

TOLERANCE = {torch.float16: 2e-3, torch.bfloat16: 1e-2}


def _check(out, ref, written, tolerance):
    """``out`` matches ``ref`` (float64) where ``written`` (a bool mask of
    rows) and is NaN elsewhere; returns (ok, error, detail)."""
    rows = written.nonzero().flatten()
    kept = (~written).nonzero().flatten()
    detail = []
    err = 0.0
    if rows.numel():
        got = out.index_select(0, rows).double()
        want = ref.index_select(0, rows)
        unwritten = int(torch.isnan(got).sum())
        scale = float(want.abs().max()) or 1.0
        diff = torch.nan_to_num((got - want).abs(), nan=math.inf)
        err = float(diff.max()) / scale
        if unwritten:
            detail.append(f"{unwritten} elements never written")
        if not err <= tolerance:
            where = tuple(torch.nonzero(diff > tolerance * scale)[0].tolist())
            detail.append(f"relative error {err:.3g} > {tolerance}, first at "
                          f"row {int(rows[where[0]])} col {where[1]}")
    if kept.numel():
        touched = int((~torch.isnan(out.index_select(0, kept))).sum())
        if touched:
            detail.append(f"{touched} elements of rows of no group written")
    return not detail, err, "; ".join(detail)


def _contiguous_ref(a, b, offsets):
    m, n = a.shape[0], b.shape[1]
    ref = torch.full((m, n), math.nan, dtype=torch.float64, device=a.device)
    written = torch.zeros(m, dtype=torch.bool, device=a.device)
    off = offsets.tolist()
    for g in range(b.shape[0]):
        lo, hi = off[g], off[g + 1]
        if hi > lo:
            ref[lo:hi] = a[lo:hi].double() @ b[g].double().t()
            written[lo:hi] = True
    return ref, written


def _masked_ref(a, b, counts):
    groups, max_m, _ = a.shape
    n = b.shape[1]
    ref = torch.full((groups, max_m, n), math.nan, dtype=torch.float64,
                     device=a.device)
    written = torch.zeros(groups, max_m, dtype=torch.bool, device=a.device)
    for g, c in enumerate(counts.tolist()):
        c = max(0, min(c, max_m))
        if c:
            ref[g, :c] = a[g, :c].double() @ b[g].double().t()
            written[g, :c] = True
    return ref.view(groups * max_m, n), written.view(-1)


def grouped_tests(s, random_tensor, poisoned):
    def use_kernels():
        s.module(MODULE)  # reports a module that did not compile
        croq.grouped.set_kernels(s.kernels / f"lib{MODULE}.so")

    def weights(groups, n, k, dtype, n_major):
        """b [G, N, K]: contiguous, or the transpose of a contiguous
        [G, K, N]."""
        if n_major:
            return random_tensor((groups, k, n), dtype).transpose(1, 2)
        return random_tensor((groups, n, k), dtype)

    def contiguous(dtype, sizes, n, k, tail=0, index_dtype=torch.int32,
                   as_counts=False, n_major=False):
        groups = len(sizes)
        m = sum(sizes) + tail
        name = (f"{MODULE} contiguous {str(dtype)[6:]} G={groups} "
                f"M={m} N={n} K={k}" + (f" tail={tail}" if tail else "") +
                (" counts" if as_counts else "") +
                (" i64" if index_dtype == torch.int64 else "") +
                (" b[G,K,N]" if n_major else ""))

        def body():
            use_kernels()
            a = random_tensor((m, k), dtype)
            b = weights(groups, n, k, dtype, n_major)
            out = poisoned((m, n), dtype)
            cum = [0]
            for size in sizes:
                cum.append(cum[-1] + size)
            offsets = torch.tensor(cum, dtype=index_dtype, device="cuda")
            if as_counts:
                counts = torch.tensor(sizes, dtype=index_dtype, device="cuda")
                croq.grouped_mm(a, b, counts=counts, out=out)
            else:
                croq.grouped_mm(a, b, offsets, out=out)
            torch.cuda.synchronize()
            ref, written = _contiguous_ref(a, b, offsets)
            return _check(out, ref, written, TOLERANCE[dtype])
        s.run(name, "grouped_mm", body)

    def masked(dtype, counts_list, max_m, n, k, n_major=False):
        groups = len(counts_list)
        name = (f"{MODULE} masked {str(dtype)[6:]} G={groups} maxM={max_m} "
                f"N={n} K={k}" + (" b[G,K,N]" if n_major else ""))

        def body():
            use_kernels()
            a = random_tensor((groups, max_m, k), dtype)
            b = weights(groups, n, k, dtype, n_major)
            out = poisoned((groups, max_m, n), dtype)
            counts = torch.tensor(counts_list, dtype=torch.int32,
                                  device="cuda")
            croq.grouped_mm(a, b, counts=counts, out=out, masked=True)
            torch.cuda.synchronize()
            ref, written = _masked_ref(a, b, counts)
            return _check(out.view(-1, n), ref, written, TOLERANCE[dtype])
        s.run(name, "grouped_mm_masked", body)

    def graph(dtype, groups, max_m, n, k, replays):
        name = (f"{MODULE} masked cuda-graph {str(dtype)[6:]} G={groups} "
                f"maxM={max_m} N={n} K={k}")

        def body():
            use_kernels()
            a = random_tensor((groups, max_m, k), dtype)
            b = random_tensor((groups, n, k), dtype)
            out = poisoned((groups, max_m, n), dtype)
            counts = torch.full((groups,), max_m, dtype=torch.int32,
                                device="cuda")
            # Warm up (loads the module, builds the tensor maps) outside
            # the capture.
            croq.grouped_mm(a, b, counts=counts, out=out, masked=True)
            torch.cuda.synchronize()
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                croq.grouped_mm(a, b, counts=counts, out=out, masked=True)
            worst = 0.0
            gen = torch.Generator().manual_seed(7)
            for r in range(replays):
                new = torch.randint(0, max_m + 1, (groups,), generator=gen)
                if r == 0:
                    new[0] = 0
                    new[-1] = max_m
                counts.copy_(new.to(torch.int32))
                out.fill_(math.nan)
                a.copy_(random_tensor((groups, max_m, k), dtype))
                g.replay()
                torch.cuda.synchronize()
                ref, written = _masked_ref(a, b, counts)
                ok, err, detail = _check(out.view(-1, n), ref, written,
                                         TOLERANCE[dtype])
                worst = max(worst, err)
                if not ok:
                    return False, err, f"replay {r}: {detail}"
            return True, worst, ""
        s.run(name, "grouped_mm_masked", body)

    def refused(what, call):
        def body():
            try:
                call()
            except ValueError as e:
                if "croq.grouped_mm" in str(e):
                    return True, 0.0, ""
                return False, 0.0, (f"ValueError without the function's "
                                    f"name: {e}")
            return False, 0.0, "accepted"
        s.run(f"{MODULE} refuses {what}", "grouped_mm", body)

    gen = torch.Generator().manual_seed(1234)

    def random_sizes(groups, total, zeros=0):
        """Uneven sizes summing to ``total`` (random routing), ``zeros`` of
        them forced to 0."""
        weights = torch.rand(groups, generator=gen) ** 2
        if zeros:
            weights[torch.randperm(groups, generator=gen)[:zeros]] = 0
        sizes = (weights / weights.sum() * total).floor().long()
        sizes[int(torch.argmax(weights))] += total - int(sizes.sum())
        return sizes.tolist()

    for dtype in (torch.float16, torch.bfloat16):
        # Tile edges: empty groups, groups of 1, 127, 128, 129 rows; N and K
        # off the 256 / 64 tile sizes.
        contiguous(dtype, [0, 1, 127, 128, 129, 300, 0, 64], 256, 128)
        contiguous(dtype, [5, 0, 200, 77, 0, 0, 512, 3], 200, 200)
        contiguous(dtype, [1000], 512, 1024)
        contiguous(dtype, random_sizes(256, 8192, zeros=40), 256, 256)
        contiguous(dtype, random_sizes(16, 3000, zeros=3), 1000, 520,
                   tail=37)
        contiguous(dtype, random_sizes(8, 2048), 384, 192,
                   index_dtype=torch.int64, as_counts=True)
        masked(dtype, [0, 1, 127, 128, 129, 300, 0, 64], 300, 256, 128)
        masked(dtype, [17] * 256, 64, 256, 128)
        masked(dtype, [200], 200, 600, 320)
        masked(dtype, random_sizes(32, 32 * 100, zeros=5), 400, 512, 256)
        # N-major weights ([G, K, N]): K off the 64-row tile (each expert's
        # K edge), N off the 256-column tile.
        contiguous(dtype, [0, 1, 127, 128, 129, 300, 0, 64], 256, 128,
                   n_major=True)
        contiguous(dtype, [5, 0, 200, 77, 0, 0, 512, 3], 200, 200,
                   n_major=True)
        contiguous(dtype, random_sizes(256, 8192, zeros=40), 512, 72,
                   n_major=True)
        masked(dtype, [0, 1, 127, 128, 129, 300, 0, 64], 300, 264, 136,
               n_major=True)
    # A DeepSeek-like down projection (N = 7168, K = 2048) on 64 experts.
    contiguous(torch.bfloat16, random_sizes(64, 4096), 7168, 2048)
    graph(torch.bfloat16, 16, 256, 512, 256, replays=4)
    graph(torch.float16, 8, 130, 300, 128, replays=3)

    def tensors(dtype=torch.float16, m=64, groups=4, n=128, k=64):
        a = torch.randn(m, k, device="cuda").to(dtype)
        b = torch.randn(groups, n, k, device="cuda").to(dtype)
        off = torch.tensor([0, 16, 32, 48, 64], dtype=torch.int32,
                           device="cuda")
        return a, b, off

    a, b, off = tensors()
    refused("f32", lambda: croq.grouped_mm(a.float(), b.float(), off))
    refused("mixed dtypes", lambda: croq.grouped_mm(a, b.bfloat16(), off))
    refused("b strided", lambda: croq.grouped_mm(a, b[:, ::2], off))
    refused("a transposed", lambda: croq.grouped_mm(
        a.t().contiguous().t(), b, off))
    refused("offsets on the host", lambda: croq.grouped_mm(a, b, off.cpu()))
    refused("float offsets", lambda: croq.grouped_mm(a, b, off.float()))
    refused("G offsets", lambda: croq.grouped_mm(a, b, off[:4]))
    refused("K mismatch", lambda: croq.grouped_mm(a[:, :32], b, off))
    refused("wrong out shape", lambda: croq.grouped_mm(
        a, b, off, out=torch.empty(64, 64, device="cuda",
                                   dtype=torch.float16)))
    refused("masked without counts", lambda: croq.grouped_mm(
        a.view(4, 16, 64), b, masked=True))
    refused("offsets and counts", lambda: croq.grouped_mm(
        a, b, off, counts=off[:4]))
