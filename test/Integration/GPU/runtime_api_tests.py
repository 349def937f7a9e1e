"""GPU tests of the runtime API from Python (run_gpu_tests.py runs them):
device queries, module loading and errors, streams and CUDA graphs, and
entry points as torch operators (torch_op, torch.compile)."""

from __future__ import annotations

import math
import time
from typing import Callable, List, Tuple

import torch

import croq

from gpu_test_support import (
    Suite, compare, compare_close, poison_, poisoned, random_operand,
    random_tensor)


def api_tests(s: Suite) -> None:
    """The argument checks, with real tensors: each call must raise
    croq.ArgumentError and launch nothing."""
    def expect_error(name: str, call: Callable[[], None], words: str) -> None:
        def body():
            try:
                call()
            except croq.ArgumentError as e:
                if words in str(e):
                    return True, None, ""
                return False, None, f"message lacks {words!r}: {e}"
            return False, None, "no croq.ArgumentError raised"
        s.run(f"api: {name}", "api", body)

    def m():
        return s.module("copy")
    x = random_tensor((64, 64), torch.float32)
    y = poisoned((64, 64), torch.float32)
    expect_error("cpu tensor", lambda: m().copy_f32(x.cpu(), y), "CUDA")
    expect_error("wrong dtype", lambda: m().copy_f32(x.half(), y), "float32")
    expect_error("not contiguous", lambda: m().copy_f32(x.t(), y),
                 "not contiguous")
    expect_error("wrong rank", lambda: m().copy_f32(x.view(-1), y), "rank")
    expect_error("argument count", lambda: m().copy_f32(x), "missing")
    expect_error("static shape", lambda: s.module("pad").pad_f32(x, y),
                 "needs 8")


def stream_tests(s: Suite) -> None:
    """Calls queue their kernels on torch's current stream (or stream=) and
    return without waiting; CUDA graphs capture and replay them; threads
    launch at once."""
    def add():
        return s.module("tiled_add").add_f32

    def ordered_on_side_stream():
        # The inputs are written on a side stream after a long GPU sleep;
        # a croq call on that stream must see them, return before the sleep
        # ends, and what follows on the stream must see its output.
        side = torch.cuda.Stream()
        shape = (1000, 1000)
        x, y = random_tensor(shape, torch.float32), \
            random_tensor(shape, torch.float32)
        a, b = poisoned(shape, torch.float32), poisoned(shape, torch.float32)
        c = poisoned(shape, torch.float32)
        torch.cuda.synchronize()
        with torch.cuda.stream(side):
            torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time
            a.copy_(x)
            b.copy_(y)
            start = time.perf_counter()
            add()(a, b, c)
            returned = time.perf_counter() - start
            d = c * 2
        side.synchronize()
        if returned > 0.05:
            return False, None, (f"the call waited for the stream "
                                 f"({returned * 1e3:.1f} ms)")
        ok, err, detail = compare(d, ((x.double() + y.double()) * 2).float())
        return ok, err, detail + f" (returned after {returned * 1e6:.0f} us)"
    s.run("stream: ordered on torch's side stream, returns at once",
          "stream", ordered_on_side_stream)

    def explicit_stream():
        other = torch.cuda.Stream()
        shape = (512, 768)
        a, b = random_tensor(shape, torch.float32), \
            random_tensor(shape, torch.float32)
        c = poisoned(shape, torch.float32)
        other.wait_stream(torch.cuda.current_stream())
        add()(a, b, c, stream=other)
        torch.cuda.current_stream().wait_stream(other)
        return compare(c, (a.double() + b.double()).float())
    s.run("stream: stream= argument", "stream", explicit_stream)

    def graph_replay(kernel_module: str, kernel: str, make_input,
                     label: str):
        def body():
            m = s.module(kernel_module)
            fn = getattr(m, kernel)
            x = make_input()
            out = poisoned(tuple(x.shape), x.dtype)
            warm = torch.cuda.Stream()
            warm.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(warm):
                fn(x, out)  # warm-up outside the capture
            torch.cuda.current_stream().wait_stream(warm)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                fn(x, out)
            results = []
            for _ in range(3):
                x.copy_(random_tensor(tuple(x.shape), x.dtype))
                poison_(out)
                graph.replay()
                results.append(compare(out, x))
            bad = [r for r in results if not r[0]]
            return bad[0] if bad else results[-1]
        s.run(f"stream: CUDA graph capture and replay ({label})", kernel,
              body)
    graph_replay("copy", "copy_f32",
                 lambda: random_tensor((333, 444), torch.float32), "dma copy")
    graph_replay("tma", "tma_copy_f16_swizzle128",
                 lambda: random_tensor((256, 512), torch.float16),
                 "tma copy")
    graph_replay("tma", "tma_copy_f16_swizzle128",
                 lambda: random_tensor((64, 1001), torch.float16),
                 "tma copy of a staged input")

    def gemm_graph(kernel: str, shape: Tuple[int, int, int]):
        # A persistent GEMM (over 48 KB of shared memory) captured, then
        # replayed on new data; K = 1001 makes the operands' rows
        # misaligned, so they are staged by stream-ordered copies inside the
        # graph.
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            fn = getattr(s.module("matmul"), kernel)
            a = random_operand((m, k), torch.float16)
            b = random_operand((n, k), torch.float16)
            out = poisoned((m, n), torch.float16)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                fn(a, b, out)
            results = []
            for _ in range(2):
                a.copy_(random_operand((m, k), torch.float16))
                b.copy_(random_operand((n, k), torch.float16))
                poison_(out)
                graph.replay()
                results.append(compare_close(
                    out, a.double() @ b.double().t(), 2e-3))
            bad = [r for r in results if not r[0]]
            return bad[0] if bad else results[-1]
        s.run(f"stream: CUDA graph capture and replay of {kernel} "
              f"{m}x{n}x{k} (operands staged in the graph)", kernel, body)
    gemm_graph("matmul_persistent_tma_store_f16", (1000, 1000, 1001))

    def refused_in_capture():
        # A call the runtime refuses (no software copy, an output TMA cannot
        # take) while torch captures a graph: croq raises its own error,
        # nothing illegal reached the stream, and after the failed capture
        # torch and croq both run on as before.
        m = s.module("tma_nofallback")
        x = random_tensor((64, 1001), torch.float16)
        out = poisoned((64, 1001), torch.float16)
        graph = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(graph):
                m.tma_copy_f16_swizzle128(x, out)
            return False, None, "the refused call was captured"
        except croq.RuntimeError as e:
            if "stride-alignment" not in str(e):
                return False, None, f"unexpected message: {e}"
        y = random_tensor((128, 256), torch.float16)
        z = poisoned((128, 256), torch.float16)
        m.tma_copy_f16_swizzle128(y, z)
        total = float((y.float() + 1).sum())  # torch after the capture
        ok, err, detail = compare(z, y)
        return ok and math.isfinite(total), err, detail
    s.run("stream: a refused call in a CUDA graph capture raises croq's "
          "error, and the process goes on", "tma_copy_f16_swizzle128",
          refused_in_capture)

    def two_threads():
        import threading
        shape = (640, 480)
        failures: List[str] = []
        def worker(k: int) -> None:
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                for i in range(50):
                    a = random_tensor(shape, torch.float32)
                    b = random_tensor(shape, torch.float32)
                    c = poisoned(shape, torch.float32)
                    add()(a, b, c)
                    ok, _, detail = compare(c, (a.double() + b.double())
                                            .float())
                    if not ok:
                        failures.append(f"thread {k} call {i}: {detail}")
                        return
        add()  # loaded before the threads start
        threads = [threading.Thread(target=worker, args=(k,))
                   for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return (not failures), None, "; ".join(failures[:2])
    s.run("stream: two threads launching at once", "stream", two_threads)


def torch_op_tests(s: Suite) -> None:
    """Entry points as torch custom operators, eager and inside
    torch.compile graphs."""
    def body():
        m = s.module("tiled_add")
        add = m.add_f32.torch_op()
        shape = (1000, 1000)
        a, b = random_tensor(shape, torch.float32), \
            random_tensor(shape, torch.float32)
        c = poisoned(shape, torch.float32)
        add(a, b, c)  # eager, through the dispatcher
        exact = (a.double() + b.double()).float()
        ok, err, detail = compare(c, exact)
        if not ok:
            return ok, err, "eager: " + detail

        def f(x, y):
            out = torch.empty_like(x)
            add(x, y, out)
            return out * 2 + 1
        compiled = torch.compile(f, fullgraph=True)
        got = compiled(a, b)
        return compare(got, exact * 2 + 1)
    s.run("torch: add_f32 as a custom operator, eager and in torch.compile "
          "(fullgraph)", "torch_op", body)

    def scalars():
        m = s.module("tiled_add")
        op = m.scaled_add_f32.torch_op()
        shape = (300, 200)
        a, b = random_tensor(shape, torch.float32), \
            random_tensor(shape, torch.float32)

        def f(x, y, alpha):
            out = torch.empty_like(x)
            op(x, y, out, alpha, -0.5, 3, 1 << 33, -(1 << 33), False, -2, 1)
            return out + 1
        compiled = torch.compile(f, fullgraph=True)
        got = compiled(a, b, 1.5)
        ref = 1.5 * a.double() - 0.5 * b.double() + 2 + 1
        return compare_close(got, ref, 1e-6)
    s.run("torch: scaled_add_f32 (scalar arguments) as a custom operator in "
          "torch.compile (fullgraph)", "torch_op", scalars)

    def plain_call(x, y):
        out = torch.empty_like(x)
        s.module("tiled_add").add_f32(x, y, out)
        return out * 2 + 1

    def plain():
        # The plain call, not torch_op(): traced through the entry point's
        # custom operator, with eager's results.
        shape = (1000, 1000)
        a, b = random_tensor(shape, torch.float32), \
            random_tensor(shape, torch.float32)
        eager = plain_call(a, b)
        compiled = torch.compile(plain_call, fullgraph=True)
        got = compiled(a, b)
        ok, err, detail = compare(got, eager)
        if not ok:
            return ok, err, "compiled vs eager: " + detail
        return compare(got, (a.double() + b.double()).float() * 2 + 1)
    s.run("torch: a plain entry-point call inside torch.compile (fullgraph) "
          "gives eager's results", "torch_op", plain)

    def graphs():
        # torch.compile's CUDA graphs: replays on new inputs.
        compiled = torch.compile(plain_call, mode="reduce-overhead",
                                 fullgraph=True)
        shape = (517, 300)
        worst = (True, 0.0, "")
        for _ in range(5):
            a, b = random_tensor(shape, torch.float32), \
                random_tensor(shape, torch.float32)
            got = compiled(a, b).clone()
            ok, err, detail = compare(
                got, (a.double() + b.double()).float() * 2 + 1)
            if not ok:
                return ok, err, "replay: " + detail
            worst = (ok, max(worst[1] or 0.0, err or 0.0), detail)
        return worst
    s.run("torch: a plain call in torch.compile(mode='reduce-overhead') "
          "CUDA graphs, 5 calls on new inputs", "torch_op", graphs)

    def results():
        # An entry point whose result a call leaves out (a function on
        # tensors): the traced call allocates it in the graph.
        entry = s.module("linalg_ops").scale_add_tensor
        shape = (256, 512)
        a, b = random_tensor(shape, torch.float16), \
            random_tensor(shape, torch.float16)
        eager = entry(a, b)

        def f(x, y):
            return entry(x, y).float() + 1
        got = torch.compile(f, fullgraph=True)(a, b)
        ok, err, detail = compare(got, eager.float() + 1)
        if not ok:
            return ok, err, "compiled vs eager: " + detail
        return compare_close(got, 2 * a.double() + b.double() + 1, 2e-3)
    s.run("torch: an entry point that returns its result, called inside "
          "torch.compile (fullgraph)", "torch_op", results)
