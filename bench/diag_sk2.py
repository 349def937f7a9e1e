"""Each kernel of a call in launch order (profiler), for the stream-K form
forced and the model's choice."""
import statistics, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import flush_l2, is_flush
import croq
from torch.profiler import ProfilerActivity, profile
k = Path(sys.argv[1])
mods = {"model": croq.load(k / "liblinalg_matmul.so"), "forced": croq.load(k / "liblinalg_streamk.so")}
for (m, n, kk) in [(333, 4096, 4096), (1000, 3000, 7000), (576, 8192, 8192), (128, 4096, 4096)]:
    a = torch.randn(m, kk, device="cuda").half(); b = torch.randn(kk, n, device="cuda").half()
    out = torch.empty(m, n, device="cuda", dtype=torch.float16)
    for label, mod in mods.items():
        f = lambda: mod.linalg_mm_f16(a, b, out)
        f(); torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(7):
                flush_l2(); f()
            torch.cuda.synchronize()
        ev = sorted([e for e in prof.events() if str(getattr(e, "device_type", "")).endswith("CUDA")], key=lambda e: e.time_range.start)
        calls = []
        for e in ev:
            if is_flush(e.name):
                calls.append([])
            elif calls and "linalg_mm_f16" in e.name:
                calls[-1].append((e.time_range.start, e.time_range.elapsed_us()))
        seqs = [c for c in calls if c]
        nk = len(seqs[0])
        per = [statistics.median(c[i][1] for c in seqs if len(c) == nk) for i in range(nk)]
        gaps = [statistics.median(c[i+1][0] - (c[i][0] + c[i][1]) for c in seqs if len(c) == nk) for i in range(nk - 1)]
        print(f"{m}x{n}x{kk} {label}: kernels " + ", ".join(f"{p:.1f}" for p in per) + " us; gaps " + ", ".join(f"{g:.1f}" for g in gaps), flush=True)
