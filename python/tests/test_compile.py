"""croq.compile: the artifact files, the examples that lower and those
that do not yet, and the errors of a broken tool chain."""

from __future__ import annotations

import json

import pytest

import croq
from croq.compiler import RUNTIME_LIBRARY

from conftest import REPO, needs_ptxas


def test_artifact_files(tiled_add):
    art = tiled_add
    d = art.directory
    for path in (art.library, art.signature, art.ptx, art.runtime,
                 art.source):
        assert path.parent == d and path.is_file(), path
    assert art.library.name == "libtiled_add.so"
    assert art.runtime.name == RUNTIME_LIBRARY
    # The intermediates are gone.
    assert not (d / "tiled_add.ll").exists()
    assert not (d / "tiled_add.o").exists()
    ptx = art.ptx.read_text()
    assert ".target sm_90a" in ptx
    assert ".entry tiled_add_2d_kernel(" in ptx
    assert ".entry tiled_add_f32_kernel(" in ptx
    data = json.loads(art.signature.read_text())
    names = {f["name"]: [a["name"] for a in f["arguments"]]
             for f in data["functions"]}
    assert names == {"tiled_add_2d": ["lhs", "rhs", "output"],
                     "tiled_add_f32": ["lhs", "rhs", "output"]}
    assert set(art.functions()) == {"tiled_add_2d", "tiled_add_f32"}


def test_library_links_the_runtime_by_rpath(tiled_add):
    data = tiled_add.library.read_bytes()
    assert b"libCroqRuntime.so" in data  # DT_NEEDED
    assert b"$ORIGIN" in data  # DT_RUNPATH


@needs_ptxas
def test_resource_report_and_cubins(tiled_add):
    assert tiled_add.resources is not None
    report = tiled_add.resources.read_text()
    assert "tiled_add_f32_kernel" in report
    assert "registers" in report
    cubins = sorted(p.name for p in (tiled_add.directory / "cubin").iterdir())
    assert cubins == ["tiled_add_2d_kernel.cubin", "tiled_add_f32_kernel.cubin"]
    assert (tiled_add.directory / "cubin" / cubins[0]).read_bytes()[:4] == \
        b"\x7fELF"


def test_compile_source_text_as_ptx(tools_dir, stub_runtime_dir, tmp_path):
    text = (REPO / "examples" / "tiled_add.mlir").read_text()
    art = croq.compile(text, tmp_path, name="inline", tools_dir=tools_dir,
                       runtime_dir=stub_runtime_dir, binary="isa")
    assert art.library.name == "libinline.so"
    assert (tmp_path / "inline.mlir").read_text() == text


def test_examples_that_lower(tools_dir, stub_runtime_dir, binary_format,
                             tmp_path):
    art = croq.compile(REPO / "examples" / "copy.mlir", tmp_path,
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary=binary_format)
    assert set(art.functions()) == {"copy_dma", "copy_dma_async"}
    assert "cp.async" in art.ptx.read_text()


@pytest.mark.parametrize("example,kernels,mnemonic", [
    ("matmul_plain", {"matmul"}, "wgmma.mma_async"),
    ("matmul_tma_pipelined", {"matmul"}, "mbarrier.try_wait"),
])
def test_gemm_examples_lower(tools_dir, stub_runtime_dir, binary_format,
                             tmp_path, example, kernels, mnemonic):
    """The GEMM examples go through the event and mma lowerings: the PTX
    holds wgmma (and, for the pipelined one, mbarrier waits)."""
    art = croq.compile(REPO / "examples" / f"{example}.mlir", tmp_path,
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary=binary_format)
    assert kernels <= set(art.functions())
    ptx = art.ptx.read_text()
    assert "wgmma.mma_async" in ptx
    assert mnemonic in ptx


def test_unlowerable_op_names_itself(tools_dir, stub_runtime_dir, tmp_path):
    """An op the lowering cannot take fails the compile with the tool's
    error naming the op."""
    text = """
func.func @never_triggered(%a: memref<64xf32>) {
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<2>
    %c0 = arith.constant 0 : index
    croq.event.wait %e[%c0] : !croq.events<2>
  }
  return
}
"""
    with pytest.raises(croq.CompileError) as info:
        croq.compile(text, tmp_path, name="bad", tools_dir=tools_dir,
                     runtime_dir=stub_runtime_dir, binary="isa")
    err = info.value
    assert err.tool == "croq-translate"
    assert err.returncode != 0
    assert "'croq.event.alloc' op" in err.stderr
    assert "'croq.event.alloc' op" in str(err)


def test_syntax_error(tools_dir, stub_runtime_dir, tmp_path):
    with pytest.raises(croq.CompileError, match="error:") as info:
        croq.compile("func.func @f(%a: memref<4xf32>) { croq.bogus }",
                     tmp_path, tools_dir=tools_dir,
                     runtime_dir=stub_runtime_dir, binary="isa")
    assert "croq.bogus" in info.value.stderr


def test_missing_tools(tmp_path, stub_runtime_dir):
    with pytest.raises(croq.CompileError, match="croq-translate not found"):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     tools_dir=tmp_path, runtime_dir=stub_runtime_dir)


def test_missing_runtime(tools_dir, tmp_path):
    with pytest.raises(croq.CompileError, match="libCroqRuntime.so not found"):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     tools_dir=tools_dir, runtime_dir=tmp_path)


def test_missing_source(tools_dir, tmp_path):
    with pytest.raises(croq.CompileError, match="cannot read"):
        croq.compile(tmp_path / "nope.mlir", tools_dir=tools_dir)


def test_ptxas_missing(tools_dir, stub_runtime_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(croq.compiler, "find_ptxas", lambda: None)
    with pytest.raises(croq.CompileError, match="ptxas not found"):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     tools_dir=tools_dir, runtime_dir=stub_runtime_dir)
    art = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary="isa")
    assert art.resources is None


def test_bad_options(tools_dir, tmp_path):
    with pytest.raises(croq.CompileError, match="binary must be"):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     binary="fatbin")
    with pytest.raises(croq.CompileError, match="not a plain file name"):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     name="a/b")


def test_tools_dir_from_environment(tools_dir, stub_runtime_dir, tmp_path,
                                    monkeypatch):
    monkeypatch.setenv("CROQ_TOOLS_DIR", str(tmp_path / "none"))
    with pytest.raises(croq.CompileError, match=str(tmp_path / "none")):
        croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                     runtime_dir=stub_runtime_dir)
    monkeypatch.setenv("CROQ_TOOLS_DIR", str(tools_dir))
    monkeypatch.setenv("CROQ_RUNTIME_DIR", str(stub_runtime_dir))
    art = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                       binary="isa")
    assert art.library.is_file()


def test_tma_fallback_never(tools_dir, stub_runtime_dir, tmp_path):
    """tma_fallback='never' leaves the software copy out: the kernel has no
    scalar fallback path and the host requires the map."""
    with_fallback = croq.compile(REPO / "examples" / "copy_tma.mlir",
                                 tmp_path / "auto", tools_dir=tools_dir,
                                 runtime_dir=stub_runtime_dir, binary="isa")
    without = croq.compile(REPO / "examples" / "copy_tma.mlir",
                           tmp_path / "never", tools_dir=tools_dir,
                           runtime_dir=stub_runtime_dir, binary="isa",
                           tma_fallback="never")
    ptx_auto = with_fallback.ptx.read_text()
    ptx_never = without.ptx.read_text()
    assert "cp.async.bulk.tensor" in ptx_never
    assert len(ptx_never) < len(ptx_auto)
    assert "ld.global" in ptx_auto and "ld.global" not in ptx_never


def test_tma_fallback_rejects_unknown(tools_dir, stub_runtime_dir, tmp_path):
    with pytest.raises(croq.CompileError, match="tma_fallback must be"):
        croq.compile(REPO / "examples" / "copy_tma.mlir", tmp_path,
                     tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                     tma_fallback="sometimes")


def test_compile_cache(tools_dir, stub_runtime_dir, tmp_path):
    # The second compile of the same IR with the same options and tools
    # copies the first one's files and runs no tool; another option, or
    # other IR, compiles again.
    import time
    cache = tmp_path / "cache"
    src = REPO / "examples" / "tiled_add.mlir"

    def build(out: str, **options):
        start = time.perf_counter()
        art = croq.compile(src, tmp_path / out, tools_dir=tools_dir,
                           runtime_dir=stub_runtime_dir, binary="isa",
                           cache=cache, **options)
        return art, time.perf_counter() - start

    first, _ = build("a")
    assert not first.cached
    second, warm = build("b")
    assert second.cached and second.directory == tmp_path / "b"
    for f in ("libtiled_add.so", "tiled_add.json", "tiled_add.ptx",
              "tiled_add.mlir", "libCroqRuntime.so"):
        assert (tmp_path / "a" / f).read_bytes() == \
            (tmp_path / "b" / f).read_bytes(), f
    assert warm < 0.5, f"a cache hit took {warm:.3f} s"
    assert set(second.functions()) == {"tiled_add_2d", "tiled_add_f32"}
    other, _ = build("c", tma_fallback="never")
    assert not other.cached
    text = src.read_text() + "\n// another module\n"
    changed = croq.compile(text, tmp_path / "d", name="tiled_add",
                           tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                           binary="isa", cache=cache)
    assert not changed.cached
    uncached = croq.compile(src, tmp_path / "e", tools_dir=tools_dir,
                            runtime_dir=stub_runtime_dir, binary="isa",
                            cache=False)
    assert not uncached.cached


def test_compile_cache_keeps_to_its_module(tools_dir, stub_runtime_dir,
                                           tmp_path):
    # Two modules compiled into one directory: a cache entry holds its own
    # module's files only, so that a hit never brings back an older copy of
    # another module's files (it did: the GPU artifacts' GEMM module came
    # back without a kernel added since).
    cache = tmp_path / "cache"
    out = tmp_path / "shared"
    add = REPO / "examples" / "tiled_add.mlir"
    copy = REPO / "examples" / "copy.mlir"

    def build(src, text=None):
        return croq.compile(text if text is not None else src, out,
                            name=src.stem, tools_dir=tools_dir,
                            runtime_dir=stub_runtime_dir, binary="isa",
                            cache=cache)

    build(add)
    build(copy)
    entries = [e for e in cache.iterdir() if not e.name.startswith(".")]
    for entry in entries:
        names = {str(f.relative_to(entry)) for f in entry.rglob("*")
                 if f.is_file()}
        module = (entry / "DONE").read_text().strip()
        assert names <= set(croq.compiler._artifact_files(entry, module)) | \
            {"DONE"}, (module, names)
    # The copy module changes; the add module, compiled again, is a hit and
    # must leave the new copy module alone.
    changed = copy.read_text() + "\n// changed\n"
    build(copy, changed)
    assert build(add).cached
    assert (out / "copy.mlir").read_text() == changed


def test_artifact_files_take_the_modules_cubins(tmp_path):
    # The cubins of a module's kernels (named in its PTX) go with it into
    # the cache; those of another module in the same directory do not.
    (tmp_path / "cubin").mkdir()
    (tmp_path / "a.ptx").write_text(
        "//--- a_kernel.ptx\n.entry a_kernel\n//--- a_kernel_0.ptx\n")
    for kernel in ("a_kernel", "a_kernel_0", "b_kernel"):
        (tmp_path / "cubin" / f"{kernel}.cubin").write_bytes(b"\x7fELF")
    files = croq.compiler._artifact_files(tmp_path, "a")
    assert "cubin/a_kernel.cubin" in files
    assert "cubin/a_kernel_0.cubin" in files
    assert "cubin/b_kernel.cubin" not in files
    copy = tmp_path / "copy"
    croq.compiler._copy_artifact_files(tmp_path, copy, "a")
    assert sorted(p.name for p in (copy / "cubin").iterdir()) == \
        ["a_kernel.cubin", "a_kernel_0.cubin"]


def gpu_test_function(module: str, name: str) -> str:
    """The text of function `name` of test/Integration/GPU/<module>.mlir."""
    path = REPO / "test" / "Integration" / "GPU" / f"{module}.mlir"
    text = path.read_text()
    function = text[text.index(f"func.func @{name}("):]
    return function[:function.index("\n}\n") + 3]


def test_gemm_tile_forces_the_tile(tools_dir, stub_runtime_dir, tmp_path):
    # A GEMM from linalg with dynamic shapes has the kernels of every tile
    # (77, 40 without clusters: test/Target/croq-gemm-tile.mlir counts and
    # names them; compiling them all twice more here would double this
    # file's time); with gemm_tile it has those of the tile asked for, with
    # gemm_split_k=1 the whole ones (alone and, but for the widths between,
    # in clusters), with gemm_cluster=(1, 1) none in clusters, and a tile
    # croq cannot compute is croq-translate's error.
    product = gpu_test_function("linalg_matmul", "linalg_mm_f16")

    def kernels(**options):
        art = croq.compile(product, tmp_path / str(len(options)),
                           name="mm", tools_dir=tools_dir,
                           runtime_dir=stub_runtime_dir, binary="isa",
                           cache=False, **options)
        return art.ptx.read_text().count(".entry ")
    assert kernels(gemm_tile=(192, 192), gemm_split_k=1) == 1
    assert kernels(gemm_tile=(128, 192), gemm_split_k=1) == 2
    assert kernels(gemm_tile=(64, 128)) == 5
    assert kernels(gemm_tile=(64, 128), gemm_split_k=1) == 2
    assert kernels(gemm_tile=(64, 128), gemm_split_k=1,
                   gemm_cluster=(1, 1)) == 1
    assert kernels(gemm_tile=(128, 64)) == 4
    with pytest.raises(croq.CompileError, match="splits the K loop of"):
        kernels(gemm_tile=(128, 256), gemm_split_k=4)
    with pytest.raises(croq.CompileError, match="gemm_split_k must be"):
        kernels(gemm_split_k=-1)
    with pytest.raises(croq.CompileError, match="got 96x128"):
        kernels(gemm_tile=(96, 128))
    with pytest.raises(croq.CompileError, match="gemm_tile must be"):
        kernels(gemm_tile=(128,))
    with pytest.raises(croq.CompileError, match="gemm_cluster must be"):
        kernels(gemm_cluster=(2,))
    with pytest.raises(croq.CompileError, match="takes clusters of"):
        kernels(gemm_cluster=(4, 4))
    # Clusters of 2 x 2 multicast both operands; every tile has its kernel.
    assert kernels(gemm_tile=(64, 128), gemm_split_k=1,
                   gemm_cluster=(2, 2)) == 1


def test_pipeline_stages(tools_dir, stub_runtime_dir, tmp_path):
    # pipeline_stages sets the depth of the GEMM's operand ring: one
    # mbarrier each for a stage's full and empty events, initialized one
    # by one; a ring that does not fit is croq-translate's error.
    product = """func.func @mm(%a: memref<128x3000xf16>, %b: memref<3000x3000xf16>,
    %c: memref<128x3000xf16>) {
  linalg.matmul ins(%a, %b : memref<128x3000xf16>, memref<3000x3000xf16>)
      outs(%c : memref<128x3000xf16>)
  return
}
"""

    def inits(**options):
        art = croq.compile(product, tmp_path / str(len(options)),
                           name="mm", tools_dir=tools_dir,
                           runtime_dir=stub_runtime_dir, binary="isa",
                           cache=False, gemm_tile=(64, 64), gemm_split_k=1,
                           gemm_cluster=(1, 1), **options)
        return art.ptx.read_text().count("mbarrier.init")
    default = inits()
    assert inits(pipeline_stages=8) == default
    assert default - inits(pipeline_stages=4) == 2 * (8 - 4)
    assert inits(pipeline_stages=13) - default == 2 * (13 - 8)
    with pytest.raises(croq.CompileError, match="bytes of shared memory"):
        inits(pipeline_stages=20)
    for bad in (-1, True, 2.0):
        with pytest.raises(croq.CompileError,
                           match="pipeline_stages must be"):
            inits(pipeline_stages=bad)


def test_batched_gemm_from_linalg(tools_dir, stub_runtime_dir, tmp_path):
    # A linalg.batch_matmul with dynamic shapes has the kernels of every
    # whole tile (its K loop is never split: 128x256, 128x192, 128x128 and
    # 64x128 alone and in clusters, 128x224, 128x176, 128x160, 128x144,
    # 128x64;
    # not 192x192, which the model leaves to plain products),
    # takes 3-D tensors,
    # and refuses a forced K split with the pass's reason.
    product = gpu_test_function("linalg_batch_matmul", "linalg_bmm_f16")

    def compile_batched(**options):
        return croq.compile(product, tmp_path / str(len(options)),
                            name="bmm", tools_dir=tools_dir,
                            runtime_dir=stub_runtime_dir, binary="isa",
                            cache=False, **options)
    art = compile_batched()
    assert art.ptx.read_text().count(".entry ") == 13
    args = art.functions()["linalg_bmm_f16"].arguments
    assert [a.shape for a in args] == [(None, None, None)] * 3
    assert [a.written for a in args] == [False, False, True]
    with pytest.raises(croq.CompileError,
                       match="does not split the K loop of a batched"):
        compile_batched(gemm_split_k=4)


def test_config_labels_name_clusters():
    from croq.autotune import config_label
    assert config_label({}) == "model"
    assert config_label({"gemm_tile": (64, 128), "gemm_split_k": 4}) == \
        "t64x128s4"
    assert config_label({"gemm_tile": (128, 192), "gemm_split_k": 1,
                         "gemm_cluster": (2, 1)}) == "t128x192s1c2x1"


def test_signature_says_which_arguments_are_written(tiled_add):
    for name in ("tiled_add_2d", "tiled_add_f32"):
        args = tiled_add.functions()[name].arguments
        assert [a.written for a in args] == [False, False, True], name


def test_compile_variants_writes_one_module_per_configuration(
        tools_dir, stub_runtime_dir, tmp_path):
    # Autotuning compiles a GEMM from linalg once per configuration: the
    # cost model's choice, then forced tiles and splits; each variant is a
    # module of its own, listed in variants.json, which load_autotuned
    # reads back. A configuration croq cannot compile names itself. (A
    # GEMM of static shapes: the model's choice, a split K loop, is then two
    # kernels, not the 77 of every tile that a dynamic one compiles.)
    product = gpu_test_function("linalg_matmul", "linalg_mm_splitk_f16")
    configs = [{}, {"gemm_tile": (64, 128), "gemm_split_k": 1,
                    "gemm_cluster": (1, 1)},
               {"gemm_tile": (64, 128), "gemm_split_k": 4}]
    out = croq.compile_variants(product, tmp_path / "v", configs, name="mm",
                                tools_dir=tools_dir,
                                runtime_dir=stub_runtime_dir, binary="isa",
                                cache=False)
    manifest = json.loads((out / "variants.json").read_text())
    assert manifest == {"module": "mm", "skipped": {},
                        "variants": ["model", "t64x128s1c1x1", "t64x128s4"]}
    entries = {label: (out / label / "mm.ptx").read_text().count(".entry ")
               for label in manifest["variants"]}
    assert entries == {"model": 2, "t64x128s1c1x1": 1, "t64x128s4": 2}
    # One that does not compile is left out, with its error; none is an
    # error.
    out = croq.compile_variants(
        product, tmp_path / "w",
        [{"gemm_tile": (64, 128), "gemm_split_k": 1},
         {"gemm_tile": (128, 256), "gemm_split_k": 4}],
        tools_dir=tools_dir, runtime_dir=stub_runtime_dir, binary="isa",
        cache=False)
    manifest = json.loads((out / "variants.json").read_text())
    assert manifest["variants"] == ["t64x128s1"]
    assert "splits the K loop of" in manifest["skipped"]["t128x256s4"]
    with pytest.raises(croq.CompileError, match="configuration t128x256s4"):
        croq.compile_variants(product, tmp_path / "z",
                              [{"gemm_tile": (128, 256), "gemm_split_k": 4}],
                              tools_dir=tools_dir,
                              runtime_dir=stub_runtime_dir, binary="isa",
                              cache=False)
    with pytest.raises(croq.CompileError, match="gemm_tile, gemm_split_k and gemm_cluster"):
        croq.compile_variants(product, tmp_path / "x", [{"stages": 3}],
                              tools_dir=tools_dir, cache=False)
    with pytest.raises(croq.LoadError, match="no autotune variants"):
        croq.load_autotuned(tmp_path / "nothing")
