"""croq.load and calls, on the stub runtime: loading errors, the argument
checks, the memref descriptors the kernels receive, and CUDA errors."""

from __future__ import annotations

import ctypes
import json
import shutil
import sys
import types

import pytest

import croq
from croq._abi import descriptor_type, make_descriptor
from croq.signature import MemRefArg

import fakes
from conftest import REPO


class Launch(ctypes.Structure):
    _fields_ = [("count", ctypes.c_int64), ("grid", ctypes.c_int64 * 3),
                ("block", ctypes.c_int64 * 3),
                ("sharedMemBytes", ctypes.c_int32),
                ("stream", ctypes.c_uint64),
                ("paramsCount", ctypes.c_int64),
                ("params", ctypes.c_uint64 * 64)]


def last_launch(module: croq.Module) -> Launch:
    launch = Launch()
    fn = module._library.croqStubLastLaunch  # found through DT_NEEDED
    fn(ctypes.byref(launch))
    return launch


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

def test_load_directory_and_library(tiled_add):
    by_dir = croq.load(tiled_add.directory)
    by_lib = croq.load(tiled_add.library)
    for m in (by_dir, by_lib, tiled_add.load()):
        assert set(m.functions) == {"tiled_add_2d", "tiled_add_f32"}
        assert isinstance(m.tiled_add_f32, croq.EntryPoint)
        assert m.device == 0
    assert "tiled_add_f32" in dir(by_dir)
    assert repr(by_dir.tiled_add_2d) == (
        "<croq entry point tiled_add_2d(%lhs: memref<64x128xi32>, "
        "%rhs: memref<64x128xi32>, %output: memref<64x128xi32>)>")


def test_unknown_entry_point(tiled_add):
    m = croq.load(tiled_add.directory)
    with pytest.raises(AttributeError, match="no entry point 'nope'.*"
                       "tiled_add_2d, tiled_add_f32"):
        m.nope


def test_function_without_kernel(tools_dir, stub_runtime_dir, tmp_path):
    text = (REPO / "examples" / "tiled_add.mlir").read_text() + \
        "\nfunc.func @host_only(%a: memref<4xf32>) { return }\n"
    art = croq.compile(text, tmp_path, name="mixed", tools_dir=tools_dir,
                       runtime_dir=stub_runtime_dir, binary="isa")
    m = croq.load(art.directory)
    assert "host_only" in m.signatures and "host_only" not in m.functions
    with pytest.raises(AttributeError, match="no C entry point"):
        m.host_only


def test_load_errors(tiled_add, tmp_path):
    with pytest.raises(croq.LoadError, match="does not exist"):
        croq.load(tmp_path / "libnope.so")
    with pytest.raises(croq.LoadError, match="holds no kernel library"):
        croq.load(tmp_path)
    bad = tmp_path / "notalib.txt"
    bad.write_text("x")
    with pytest.raises(croq.LoadError, match="not a kernel library"):
        croq.load(bad)

    lonely = tmp_path / "lonely"
    lonely.mkdir()
    shutil.copy(tiled_add.library, lonely)
    with pytest.raises(croq.LoadError, match="no signature file"):
        croq.load(lonely)

    two = tmp_path / "two"
    two.mkdir()
    for name in ("liba.so", "libb.so"):
        shutil.copy(tiled_add.library, two / name)
    with pytest.raises(croq.LoadError, match="several kernel libraries"):
        croq.load(two)

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "libk.so").write_text("not an ELF file")
    (broken / "k.json").write_text('{"functions": []}')
    shutil.copy(tiled_add.runtime, broken)
    with pytest.raises(croq.LoadError, match="cannot load"):
        croq.load(broken)


def test_load_refuses_an_older_calling_convention(tiled_add, tmp_path):
    # An artifact of a croq whose entry points took no stream (no "abi" in
    # its signature) is refused, not called with the wrong arguments.
    old = tmp_path / "old"
    shutil.copytree(tiled_add.directory, old)
    signature = next(old.glob("*.json"))
    data = json.loads(signature.read_text())
    assert data.pop("abi") == 3
    signature.write_text(json.dumps(data))
    with pytest.raises(croq.LoadError, match="calling convention 1, this croq "
                       "calls convention 3"):
        croq.load(old)


def test_load_error_is_a_croq_error():
    assert issubclass(croq.LoadError, croq.CroqError)
    assert issubclass(croq.LoadError, OSError)
    assert str(croq.LoadError("a message")) == "a message"


def test_module_load_failure_raises_runtime_error(tools_dir, stub_runtime_dir,
                                                  tmp_path, monkeypatch):
    art = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                       name="failing_load", tools_dir=tools_dir,
                       runtime_dir=stub_runtime_dir, binary="isa")
    monkeypatch.setenv("CROQ_STUB_FAIL", "load")
    with pytest.raises(croq.RuntimeError, match="loading libfailing_load.so: "
                       "mgpuModuleLoad: .*CUDA_ERROR_NO_BINARY_FOR_GPU"):
        croq.load(art.directory)


# ---------------------------------------------------------------------------
# Calls and descriptors
# ---------------------------------------------------------------------------

def test_call_launches_with_the_shapes_passed(tiled_add):
    m = croq.load(tiled_add.directory)
    ptrs = [0x7F0000000000, 0x7F0010000000, 0x7F0020000000]
    args = [croq.Buffer(p, (100, 200), dtype="f32") for p in ptrs]
    before = last_launch(m).count
    m.tiled_add_f32(*args)
    launch = last_launch(m)
    assert launch.count == before + 1
    # 32x32 tiles: cdiv(200, 32) = 7 blocks on x, cdiv(100, 32) = 4 on y.
    assert tuple(launch.grid) == (7, 4, 1)
    assert tuple(launch.block) == (128, 1, 1)
    assert launch.sharedMemBytes == 2 * 32 * 32 * 4
    params = set(launch.params[:launch.paramsCount])
    for p in ptrs:
        assert p in params, f"{p:#x} not among the kernel parameters"


def test_call_by_name_and_fake_tensors(tiled_add):
    m = croq.load(tiled_add.directory)
    a = fakes.Tensor((64, 128), fakes.int32, ptr=0x7F0000000000)
    b = fakes.Tensor((64, 128), fakes.int32, ptr=0x7F0001000000)
    c = fakes.Tensor((64, 128), fakes.int32, ptr=0x7F0002000000)
    m.tiled_add_2d(a, rhs=b, output=c)
    launch = last_launch(m)
    assert tuple(launch.grid) == (8, 4, 1)
    assert {0x7F0000000000, 0x7F0001000000, 0x7F0002000000} <= \
        set(launch.params[:launch.paramsCount])


def test_call_launches_on_the_stream_given(tiled_add):
    m = croq.load(tiled_add.directory)
    args = [croq.Buffer(0x7F0000000000 + i * 0x100000, (64, 128), dtype="i32")
            for i in range(3)]
    m.tiled_add_2d(*args)
    assert last_launch(m).stream == 0  # no torch tensor: the default stream

    class Stream:  # what torch.cuda.Stream offers
        cuda_stream = 0x5EED

    m.tiled_add_2d(*args, stream=Stream())
    assert last_launch(m).stream == 0x5EED
    m.tiled_add_2d(*args, stream=0x1234)
    assert last_launch(m).stream == 0x1234
    m.tiled_add_2d(*args, stream=None)
    assert last_launch(m).stream == 0
    with pytest.raises(TypeError, match="stream must be a torch.cuda.Stream"):
        m.tiled_add_2d(*args, stream="fast")


def test_cuda_error_after_the_call(tiled_add, monkeypatch):
    m = croq.load(tiled_add.directory)
    args = [croq.Buffer(0x7F0000000000 + i * 0x100000, (64, 128), dtype="i32")
            for i in range(3)]
    monkeypatch.setenv("CROQ_STUB_FAIL", "launch")
    with pytest.raises(croq.RuntimeError,
                       match="tiled_add_2d: mgpuLaunchKernel: .*INVALID_VALUE"):
        m.tiled_add_2d(*args)
    assert issubclass(croq.RuntimeError, RuntimeError)
    monkeypatch.delenv("CROQ_STUB_FAIL")
    m.tiled_add_2d(*args)  # the error was cleared


@pytest.fixture
def fake_torch(monkeypatch):
    """A stand-in torch module whose Tensor is fakes.Tensor and whose
    current raw stream is 0x5EED0, so that calls take the cached path."""
    torch = types.ModuleType("torch")
    torch.Tensor = fakes.Tensor
    torch._C = types.SimpleNamespace(
        _cuda_getCurrentRawStream=lambda device: 0x5EED0 + device)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setattr(croq._torch_glue, "_TENSOR_TYPE", None)
    return torch


def _f32_tensors(shape, base=0x7F0000000000):
    return [fakes.Tensor(shape, fakes.float32, ptr=base + i * 0x1000000)
            for i in range(3)]


def _skip_without_native_path():
    """Skips where this machine cannot build the native path (no compiler
    or Python headers); a build that fails is a test failure."""
    path = croq.call_path()
    assert "did not build" not in path, path
    if not path.startswith("native"):
        pytest.skip(path)


def test_cached_calls_take_the_native_path(tiled_add, fake_torch):
    _skip_without_native_path()
    m = croq.load(tiled_add.directory)
    entry = m.tiled_add_f32
    args = _f32_tensors((64, 128))
    entry(*args)
    assert entry._launcher is not None
    launch = last_launch(m)
    assert launch.stream == 0x5EED0
    assert {t.data_ptr() for t in args} <= \
        set(launch.params[:launch.paramsCount])
    # The same key with other pointers: the launcher alone.
    launcher = entry._launcher
    moved = _f32_tensors((64, 128), base=0x7F0040000000)
    entry(*moved)
    assert entry._launcher is launcher
    launch = last_launch(m)
    assert {t.data_ptr() for t in moved} <= \
        set(launch.params[:launch.paramsCount])
    # Another shape: a new launcher with its own grid.
    entry(*_f32_tensors((100, 200)))
    assert entry._launcher is not launcher
    assert tuple(last_launch(m).grid) == (7, 4, 1)
    # A pointer the element type does not align: the checked path names it.
    odd = _f32_tensors((100, 200))
    odd[1] = fakes.Tensor((100, 200), fakes.float32, ptr=0x7F0000000002)
    with pytest.raises(croq.ArgumentError, match="argument 1"):
        entry(*odd)


def test_native_path_reports_the_status(tiled_add, fake_torch, monkeypatch):
    _skip_without_native_path()
    m = croq.load(tiled_add.directory)
    args = _f32_tensors((64, 128))
    m.tiled_add_f32(*args)
    monkeypatch.setenv("CROQ_STUB_FAIL", "launch")
    with pytest.raises(croq.RuntimeError,
                       match="tiled_add_f32: mgpuLaunchKernel: .*INVALID_VALUE"):
        m.tiled_add_f32(*args)
    monkeypatch.delenv("CROQ_STUB_FAIL")
    m.tiled_add_f32(*args)


def test_native_path_can_be_turned_off(tiled_add, fake_torch, monkeypatch):
    monkeypatch.setattr(croq._native, "_loaded", None)
    monkeypatch.setenv("CROQ_NATIVE_CALLS", "0")
    assert croq.call_path() == "ctypes (CROQ_NATIVE_CALLS=0)"
    m = croq.load(tiled_add.directory)
    args = _f32_tensors((64, 128))
    m.tiled_add_f32(*args)
    m.tiled_add_f32(*args)
    assert m.tiled_add_f32._launcher is None
    assert last_launch(m).stream == 0x5EED0
    assert {t.data_ptr() for t in args} <= \
        set(last_launch(m).params[:last_launch(m).paramsCount])


def test_descriptor_layout():
    desc = descriptor_type(2)()
    assert ctypes.sizeof(desc) == 8 * (3 + 2 * 2)
    assert ctypes.sizeof(descriptor_type(0)) == 24
    assert descriptor_type(2) is descriptor_type(2)


def test_descriptor_static_offset_and_strides():
    arg = MemRefArg(0, "f32", (4, None), (None, 1), 6, False, "x")
    view = croq.ArgumentView(0, 0x1000, (4, 10), (16, 1), 4,
                             croq.element_type("f32"), 0, base=0x800)
    desc = make_descriptor(arg, view)
    assert desc.aligned == 0x1000 - 6 * 4
    assert desc.offset == 6
    assert desc.allocated == 0x800
    assert list(desc.sizes) == [4, 10] and list(desc.strides) == [16, 1]
    # A static stride is passed as the type says, for a size-1 dimension
    # whose host stride differs.
    arg = MemRefArg(0, "f32", (1, 8), (8, 1), 0, True)
    view = croq.ArgumentView(0, 0x1000, (1, 8), (99, 1), 4,
                             croq.element_type("f32"), 0)
    assert list(make_descriptor(arg, view).strides) == [8, 1]


# ---------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------

def test_argument_error_types(copy_module):
    with pytest.raises(croq.ArgumentError) as info:
        copy_module.copy_f32(fakes.Tensor((4, 4)), fakes.Tensor((4, 4),
                                                                fakes.float16))
    err = info.value
    assert isinstance(err, TypeError) and isinstance(err, ValueError)
    assert err.index == 1 and err.name == "out"
    assert str(err).startswith("argument 1 ('out'): has dtype torch.float16 "
                               "but memref<?x?xf32> needs torch.float32")


@pytest.mark.parametrize("args,words", [
    (lambda: [fakes.Tensor((4, 4))], "argument 1 ('out'): missing"),
    (lambda: [fakes.Tensor((4, 4))] * 3, "copy_f32 takes 2 arguments, got 3"),
    (lambda: [fakes.Tensor((4, 4), device="cpu"), fakes.Tensor((4, 4))],
     "argument 0 ('in'): is on the cpu device; croq kernels take CUDA"),
    (lambda: [fakes.Tensor((4,)), fakes.Tensor((4, 4))],
     "argument 0 ('in'): has rank 1 (shape (4,)) but memref<?x?xf32> has "
     "rank 2"),
    (lambda: [fakes.Tensor((4, 4), strides=(1, 4)), fakes.Tensor((4, 4))],
     "argument 0 ('in'): is not contiguous (strides (1, 4), dense would be "
     "(4, 1))"),
    (lambda: [fakes.Tensor((4, 4), strides=(8, 1)), fakes.Tensor((4, 4))],
     "is not contiguous"),
    (lambda: [fakes.Tensor((4, 4), ptr=0x7F0000000002), fakes.Tensor((4, 4))],
     "has data pointer 0x7f0000000002, not aligned to its 4-byte elements"),
    (lambda: [fakes.Tensor((0, 4)), fakes.Tensor((0, 4))],
     "has no elements (shape (0, 4))"),
    (lambda: [fakes.Tensor((4, 4)), fakes.Tensor((4, 4), index=1)],
     "argument 1 ('out'): is on cuda:1 but argument 0 is on cuda:0"),
    (lambda: [fakes.Tensor((4, 4), index=1), fakes.Tensor((4, 4), index=1)],
     "is on cuda:1 but the module was loaded on cuda:0"),
    (lambda: [object(), fakes.Tensor((4, 4))],
     "argument 0 ('in'): is a builtins.object; expected a torch CUDA tensor"),
])
def test_argument_rules(copy_module, args, words):
    with pytest.raises(croq.ArgumentError) as info:
        copy_module.copy_f32(*args())
    assert words in str(info.value)


def test_size1_dimension_stride_is_free(copy_module):
    # A 1xN tensor's row stride is never used; torch may report anything.
    copy_module.copy_f32(fakes.Tensor((1, 8), strides=(1, 1)),
                         fakes.Tensor((1, 8), strides=(123, 1)))


def test_static_shapes(gpu_kernels):
    pad = croq.load(gpu_kernels["pad"].library)
    with pytest.raises(croq.ArgumentError,
                       match=r"argument 1 \('output'\): has size 12 in "
                             r"dimension 0 \(shape \(12, 13\)\) but "
                             r"memref<11x13xf32> needs 11"):
        pad.pad_f32(fakes.Tensor((8, 8)), fakes.Tensor((12, 13)))
    pad.pad_f32(fakes.Tensor((8, 8)), fakes.Tensor((11, 13)))


def test_strided_memref_takes_slices(copy_module):
    big = fakes.Tensor((10, 20))
    # A 4x5 slice at (2, 3): row stride 20, data pointer offset.
    view = fakes.Tensor((4, 5), strides=(20, 1),
                        ptr=big.data_ptr() + (2 * 20 + 3) * 4,
                        storage=big.data_ptr())
    copy_module.copy_f32_strided(view, view)
    views = copy_module.copy_f32_strided.check(view, view)
    assert views[0].strides == (20, 1) and views[0].base == big.data_ptr()
    assert not views[0].aligned16
    with pytest.raises(croq.ArgumentError, match="has stride 2 in dimension "
                       r"1 \(strides \(40, 2\)\) but memref<\?x\?xf32, "
                       r"strided<\[\?, 1\], offset: \?>> needs 1"):
        copy_module.copy_f32_strided(fakes.Tensor((4, 5), strides=(40, 2)),
                                     view)


def test_misaligned_but_element_aligned_is_accepted(copy_module):
    """croq checks 16-byte alignment at run time (the vector path falls back
    to scalars), so only element alignment is required."""
    t = fakes.Tensor((4, 4), ptr=0x7F0000000004)
    (v, _) = copy_module.copy_f32.check(t, t)
    assert not v.aligned16
    copy_module.copy_f32(t, t)


def test_keyword_errors(copy_module):
    t = fakes.Tensor((4, 4))
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        copy_module.copy_f32(t, x=t)
    with pytest.raises(TypeError, match="multiple values for argument 'in'"):
        copy_module.copy_f32(t, t, **{"in": t})


def test_buffers(copy_module):
    ok = croq.Buffer(0x7F0000000000, (3, 5), None, "float32")
    copy_module.copy_f32(ok, croq.Buffer(0x7F0000100000, [3, 5], [5, 1],
                                         "f32"))
    with pytest.raises(croq.ArgumentError,
                       match="is a Buffer of f16 but memref<\\?x\\?xf32> "
                             "needs f32"):
        copy_module.copy_f32(ok, croq.Buffer(0x7F0000100000, (3, 5),
                                             dtype="f16"))
    with pytest.raises(croq.ArgumentError, match="unsupported element type"):
        copy_module.copy_f32(ok, croq.Buffer(0x7F0000100000, (3, 5),
                                             dtype="f17"))
    with pytest.raises(croq.ArgumentError, match="non-null device address"):
        copy_module.copy_f32(ok, croq.Buffer(0, (3, 5)))
    with pytest.raises(croq.ArgumentError, match="2 sizes but 1 strides"):
        copy_module.copy_f32(ok, croq.Buffer(0x7F0000100000, (3, 5), (1,)))


def test_cuda_array_interface(copy_module):
    a = fakes.CudaArray((8, 4))
    copy_module.copy_f32(a, fakes.CudaArray((8, 4), strides=(16, 4)))
    with pytest.raises(croq.ArgumentError, match="type '<f2' but"):
        copy_module.copy_f32(a, fakes.CudaArray((8, 4), typestr="<f2"))
    with pytest.raises(croq.ArgumentError, match="not contiguous"):
        copy_module.copy_f32(a, fakes.CudaArray((8, 4), strides=(4, 32)))
    with pytest.raises(croq.ArgumentError, match="not multiples of its 4-byte"):
        copy_module.copy_f32(a, fakes.CudaArray((8, 4), strides=(16, 2)))


def test_torch_cpu_tensor(copy_module):
    torch = pytest.importorskip("torch")
    x = torch.ones(4, 4)
    with pytest.raises(croq.ArgumentError, match="is on the cpu device"):
        copy_module.copy_f32(x, x)
    with pytest.raises(croq.ArgumentError, match="torch.float16"):
        copy_module.copy_f32(x, x.half())


# ---------------------------------------------------------------------------
# Scalar arguments
# ---------------------------------------------------------------------------

#: scaled_add_f32's scalars: alpha f32, beta f64, bias i32, wide i64,
#: offset index, negate i1, tiny i8, short i16.
_SCALARS = (0.75, -2.5, -7, -(1 << 40), 1 << 33, True, 200, 65535)


def _scalar_params(launch: Launch):
    """The kernel parameters, 8 bytes each (4-byte ones with whatever
    follows them in the high half)."""
    return list(launch.params[:launch.paramsCount])


def _assert_scalars_passed(launch: Launch, values) -> None:
    alpha, beta, bias, wide, offset = values[:5]
    params = _scalar_params(launch)
    low = {p & 0xFFFFFFFF for p in params}
    f32 = int.from_bytes(ctypes.c_float(alpha), "little")
    f64 = int.from_bytes(ctypes.c_double(beta), "little")
    assert f32 in low, f"alpha's bits {f32:#x} not among {params}"
    assert f64 in params, f"beta's bits {f64:#x} not among {params}"
    assert bias & 0xFFFFFFFF in low
    assert wide & (2**64 - 1) in params
    assert offset in params


def _scalar_call_args(shape=(64, 96), base=0x7F0000000000):
    return [fakes.Tensor(shape, fakes.float32, ptr=base + i * 0x1000000)
            for i in range(3)]


def test_scalar_signature(scalars_module):
    sig = scalars_module.signatures["scaled_add_f32"]
    kinds = [(a.name, a.element_type, a.scalar) for a in sig.arguments[3:]]
    assert kinds == [("alpha", "f32", True), ("beta", "f64", True),
                     ("bias", "i32", True), ("wide", "i64", True),
                     ("offset", "index", True), ("negate", "i1", True),
                     ("tiny", "i8", True), ("short", "i16", True)]
    assert sig.describe().endswith("%negate: i1, %tiny: i8, %short: i16)")
    assert all(a.written is False for a in sig.arguments[3:])


def test_scalars_reach_the_kernel(scalars_module):
    args = [croq.Buffer(0x7F0000000000 + i * 0x1000000, (64, 96), dtype="f32")
            for i in range(3)]
    scalars_module.scaled_add_f32(*args, *_SCALARS)
    _assert_scalars_passed(last_launch(scalars_module), _SCALARS)
    # By name, with other values.
    other = (2, 0.125, 9, 5, 3, False, -1, -2)
    names = ("alpha", "beta", "bias", "wide", "offset", "negate", "tiny",
             "short")
    scalars_module.scaled_add_f32(*args, **dict(zip(names, other)))
    _assert_scalars_passed(last_launch(scalars_module), other)


@pytest.mark.parametrize("native", [True, False])
def test_scalars_on_the_cached_paths(scalars_module, fake_torch, monkeypatch,
                                     native):
    if native:
        _skip_without_native_path()
    else:
        monkeypatch.setattr(croq._native, "_loaded", None)
        monkeypatch.setenv("CROQ_NATIVE_CALLS", "0")
    entry = scalars_module.scaled_add_f32
    tensors = _scalar_call_args()
    entry(*tensors, *_SCALARS)
    _assert_scalars_passed(last_launch(scalars_module), _SCALARS)
    # The values of each call, not the first one's.
    other = (-3.5, 1e-3, 11, 1 << 35, 4, False, -128, 12)
    entry(*tensors, *other)
    _assert_scalars_passed(last_launch(scalars_module), other)
    assert (entry._launcher is not None) == native
    # A value out of range leaves the fast path for the checked one, which
    # names it.
    bad = list(other)
    bad[2] = 1 << 32
    with pytest.raises(croq.ArgumentError, match="argument 5 \\('bias'\\): "
                       "is 4294967296, outside the range of i32"):
        entry(*tensors, *bad)


@pytest.mark.parametrize("index,value,words", [
    (3, "1.0", "argument 3 ('alpha'): is a builtins.str; the f32 scalar "
               "takes an int or a float"),
    (3, True, "the f32 scalar takes an int or a float"),
    (5, 1.5, "argument 5 ('bias'): is a builtins.float; the i32 scalar takes "
             "an int"),
    (5, -(1 << 31) - 1, "is -2147483649, outside the range of i32 "
                        "(-2147483648 to 4294967295)"),
    (7, 1 << 63, "outside the range of index (-9223372036854775808 to "
                 "9223372036854775807)"),
    (8, 2, "argument 8 ('negate'): is 2; the i1 scalar takes a bool"),
    (9, 256, "argument 9 ('tiny'): is 256, outside the range of i8"),
    (3, None, "is a builtins.NoneType; the f32 scalar"),
])
def test_scalar_argument_rules(scalars_module, index, value, words):
    args = [fakes.Tensor((4, 4)) for _ in range(3)] + list(_SCALARS)
    args[index] = value
    with pytest.raises(croq.ArgumentError) as info:
        scalars_module.scaled_add_f32(*args)
    assert words in str(info.value)


def test_scalar_given_a_tensor(scalars_module):
    args = [fakes.Tensor((4, 4)) for _ in range(3)] + list(_SCALARS)
    args[4] = fakes.Tensor((1,))
    with pytest.raises(croq.ArgumentError, match="argument 4 \\('beta'\\): "
                       "is a torch.Tensor; the f64 scalar takes an int or a "
                       "float"):
        scalars_module.scaled_add_f32(*args)


# ---------------------------------------------------------------------------
# Functions on tensors
# ---------------------------------------------------------------------------

TENSOR_ADD = """
func.func @addt(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.add ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>)
                  outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
"""


def test_tensor_function_result_is_an_out_parameter(tools_dir,
                                                    stub_runtime_dir,
                                                    tmp_path):
    """A function on tensors is bufferized before its signature is taken:
    its result becomes a last, written out-parameter marked as a result; a
    call that passes it runs as any other, and one that leaves it out
    without a torch tensor to put it beside says what to pass."""
    art = croq.compile(TENSOR_ADD, tmp_path, name="tensors",
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary="isa")
    m = croq.load(art.directory)
    args = m.addt.signature.arguments
    assert len(args) == 3
    assert [a.result for a in args] == [False, False, True]
    assert args[2].written and args[2].shape == (64, 128)
    ptrs = [0x7F0000000000, 0x7F0010000000, 0x7F0020000000]
    bufs = [croq.Buffer(p, (64, 128), dtype="f32") for p in ptrs]
    before = last_launch(m).count
    assert m.addt(*bufs) is None
    assert last_launch(m).count == before + 1
    with pytest.raises(croq.ArgumentError, match="addt returns it, which a "
                       "call can allocate only next to a torch tensor "
                       "argument: pass the output"):
        m.addt(*bufs[:2])


def test_traced_call_goes_through_the_torch_operator(tiled_add, monkeypatch):
    """Where torch.compile traces a call (torch.compiler.is_compiling()
    holds), the entry point calls croq's traced operator (croq::call) with
    its number and its arguments by kind instead of launching: Dynamo
    cannot trace the native launcher. When the graph runs, the operator
    puts the arguments back in order and launches. A recorder stands in
    for the operator (no torch here)."""
    import croq._torch_glue as glue
    m = croq.load(tiled_add.directory)
    calls = []
    entry = m.tiled_add_f32
    monkeypatch.setattr(glue, "_TRACED_OP",
                        lambda *args: calls.append(args))
    monkeypatch.setattr(glue, "_IS_COMPILING", lambda: True)
    bufs = [croq.Buffer(0x7F0000000000 + i * 0x10000000, (64, 64),
                        dtype="f32") for i in range(3)]
    before = last_launch(m).count
    assert entry(*bufs) is None
    assert last_launch(m).count == before
    assert len(calls) == 1
    number, written, read, ints, floats = calls[0]
    assert glue._TRACED_ENTRIES[number] is entry
    assert read == bufs[:2] and written == bufs[2:] and not ints \
        and not floats
    with pytest.raises(croq.ArgumentError, match="stream= cannot be passed "
                       "inside torch.compile"):
        entry(*bufs, stream=None)
    monkeypatch.setattr(glue, "_IS_COMPILING", lambda: False)
    entry._run_traced(written, read, ints, floats)
    assert last_launch(m).count == before + 1
    assert tuple(last_launch(m).grid) == (2, 2, 1)


def test_operator_names_are_unique_in_the_process():
    """A module loaded twice registers its operators under new names."""
    from croq._torch_glue import _OP_NAMES, _unused_op_name
    assert _unused_op_name("croq::never_seen") == "croq::never_seen"
    _OP_NAMES.add("croq::taken_x")
    try:
        assert _unused_op_name("croq::taken_x") == "croq::taken_x_2"
        _OP_NAMES.add("croq::taken_x_2")
        assert _unused_op_name("croq::taken_x") == "croq::taken_x_3"
    finally:
        _OP_NAMES.discard("croq::taken_x")
        _OP_NAMES.discard("croq::taken_x_2")
