"""Stream-K forced with partials stored straight from registers (new)
against the TMA-staged partials (old forced) and the model's choice at
02e485f, linalg_mm_f16, event-timed, interleaved; checked first."""
import statistics, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_linalg import time_events, relative_error, WAVE_SHAPES
import croq
k = Path(sys.argv[1])
mods = {"model": croq.load(k / "liblinalg_matmul.so"), "old_forced": croq.load(k / "liblinalg_streamk.so"),
        "new_forced": croq.load(k / "direct" / "libdirect.so")}
print("| shape | cuBLAS ms | model | old forced | new forced |")
for (m, n, kk) in WAVE_SHAPES:
    a = torch.randn(m, kk, device="cuda").half(); b = torch.randn(kk, n, device="cuda").half()
    ref = a.float() @ b.float()
    calls = {"cublas": lambda: torch.matmul(a, b)}
    for name, mod in mods.items():
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        mod.linalg_mm_f16(a, b, out); torch.cuda.synchronize()
        err = relative_error(out, ref)
        if not err < 2e-2:
            print(f"{m}x{n}x{kk} {name} WRONG {err}"); continue
        calls[name] = (lambda f=mod.linalg_mm_f16, o=out: f(a, b, o))
    times = {c: [] for c in calls}
    order = list(calls)
    for r in range(5):
        for c in order[r % len(order):] + order[:r % len(order)]:
            times[c].append(time_events(calls[c]))
    base = statistics.median(times["cublas"])
    cells = [f"{base:.4f}"] + [f"{base / statistics.median(times[c]):.3f}" if c in times else "-" for c in ("model", "old_forced", "new_forced")]
    print(f"| {m}x{n}x{kk} | " + " | ".join(cells) + " |", flush=True)
