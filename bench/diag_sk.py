"""Kernel time (profiler, kernels summed) against call time (events) of the
stream-K form forced and of the model's choice, and the per-kernel split."""
import statistics, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import time_device, flush_l2
from bench_linalg import time_events
import croq
k = Path(sys.argv[1])
mods = {"model": croq.load(k / "liblinalg_matmul.so"), "forced": croq.load(k / "liblinalg_streamk.so")}
from torch.profiler import ProfilerActivity, profile
for (m, n, kk) in [(333, 4096, 4096), (1536, 1536, 1536), (1000, 3000, 7000), (576, 8192, 8192)]:
    a = torch.randn(m, kk, device="cuda").half(); b = torch.randn(kk, n, device="cuda").half()
    out = torch.empty(m, n, device="cuda", dtype=torch.float16)
    for label, mod in mods.items():
        f = lambda: mod.linalg_mm_f16(a, b, out)
        ev = time_events(f)
        kt = time_device(f, lambda e: "linalg_mm_f16" in e)
        f(); torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                flush_l2(); f()
            torch.cuda.synchronize()
        per = {}
        for e in prof.events():
            if "linalg_mm_f16" in e.name or "Memcpy" in e.name or "alloc" in e.name.lower():
                per.setdefault(e.name, []).append(e.time_range.elapsed_us())
        parts = "; ".join(f"{nm[-22:]} x{len(v)} {statistics.median(v):.1f}us" for nm, v in per.items())
        print(f"{m}x{n}x{kk} {label}: events {ev*1e3:.1f} us, kernels {kt*1e3:.1f} us | {parts}", flush=True)
