#!/usr/bin/env python3
"""Runs only the convolution GPU tests (conv_tests.py, and the frontend
corpus's conv3x3_nhwc programs of frontend_tests.py) on an artifact
directory holding their modules, without the other groups' modules:
run_conv_tests.py --artifacts DIR [--seed N]."""
import argparse
import sys
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_gpu_tests as gpu  # noqa: E402
from conv_tests import conv_tests  # noqa: E402
from frontend_tests import frontend_tests  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, default=HERE.parent)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    torch.manual_seed(seed)
    print(f"device: {torch.cuda.get_device_name()}, seed {seed}", flush=True)
    suite = gpu.Suite(args.artifacts, "linalg_conv|frontend conv3x3_nhwc")
    conv_tests(suite, gpu.random_tensor, gpu.poisoned, gpu.compare_close,
               gpu.GEMM_TOLERANCE)
    frontend_tests(suite, gpu.random_tensor, gpu.poisoned, gpu.compare_close)
    failed = [r for r in suite.results if r.status == "FAIL"]
    print(f"conv tests: {len(suite.results) - len(failed)} of "
          f"{len(suite.results)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
