"""Requested variants on the stub runtime (croq.autotune_variants' path).

The host code of a dynamic-shape GEMM asks the runtime for a variant its
caller requested before the cost model chooses, takes it where the model
could take it at the call's extents and reports the variant it took. The
classifier (gemm_classify) runs the same choice without kernels, so these
tests need no GPU: the tuner's timing runs on the GPU machine
(test/Integration/GPU/run_gpu_tests.py, "variant tuning")."""

from __future__ import annotations

import pytest

import croq
from croq.variant_tuning import _Requests

from test_jit import GEMM, operands


@pytest.fixture(scope="module")
def classifier(tools_dir, stub_runtime_dir, binary_format, tmp_path_factory):
    art = croq.compile(GEMM, tmp_path_factory.mktemp("classify"), name="gemm",
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary=binary_format, gemm_classify=True)
    return art.load()


def taken(classifier, requests, ask, m=2048, n=1024, k=4096):
    """The variants a call requesting `ask` takes, and the counts."""
    requests.request(ask)
    try:
        classifier.gemm(*operands(m, n, k))
    finally:
        requests.request(())
    return requests.reported(), requests.counts()


def test_model_choice_without_requests(classifier):
    requests = _Requests()
    reported, counts = taken(classifier, requests, ())
    # Product 0 is the one-row form (N = 1), not reached here; product 1
    # is the product as stored, with all of its variants counted.
    assert len(reported) == 2 and reported[0] == -1
    assert counts[0] == 0 and counts[1] > 10
    assert 0 <= reported[1] < counts[1]


def test_requests_taken_where_the_model_could(classifier):
    requests = _Requests()
    (model_row, model), counts = taken(classifier, requests, ())
    took, refused = [], []
    for variant in range(counts[1]):
        reported, _ = taken(classifier, requests, [-1, variant])
        assert reported[0] == -1
        # Either the request or, where the model could not take it at this
        # shape, the model's own choice.
        assert reported[1] in (variant, model)
        (took if reported[1] == variant else refused).append(variant)
    assert model in took
    # Most variants run at 2048 x 1024 x 4096; the narrow tiles of few
    # columns (N <= 64) and the forms a wave this full excludes do not.
    assert len(took) > 5 and refused
    # Requests are cleared: the model's choice again.
    assert taken(classifier, requests, ())[0][1] == model


def test_request_out_of_range_is_the_model_choice(classifier):
    requests = _Requests()
    model = taken(classifier, requests, ())[0][1]
    assert taken(classifier, requests, [-1, 10_000])[0][1] == model
    # A request for a product the function does not have changes nothing.
    assert taken(classifier, requests, [-1, -1, 0])[0][1] == model


def test_malformed_requests_are_refused(classifier):
    fn = _Requests()._request
    assert fn(None, 3) == 0
    assert fn(None, -1) == 0
    with pytest.raises(croq.CroqError, match="refused"):
        requests = _Requests()
        requests._request = lambda array, count: 0
        requests.request([1])


def test_autotune_variants_takes_a_module(classifier):
    tuned = croq.autotune_variants(classifier)
    assert tuned.gemm.name == "gemm"
    assert tuned.choices() == {}
    with pytest.raises(TypeError, match="loaded croq.Module"):
        croq.autotune_variants("out/gemm")
    with pytest.raises(ValueError, match="iters"):
        croq.VariantTunedModule(classifier, iters=0)


def test_requests_are_per_thread(classifier):
    import threading
    requests = _Requests()
    model = taken(classifier, requests, ())[0][1]
    other = next(v for v in range(taken(classifier, requests, ())[1][1])
                 if taken(classifier, requests, [-1, v])[0][1] == v
                 and v != model)
    requests.request([-1, other])
    seen = []

    def call():
        classifier.gemm(*operands(2048, 1024, 4096))
        seen.append(_Requests().reported()[1])
    try:
        thread = threading.Thread(target=call)
        thread.start()
        thread.join()
        call()
    finally:
        requests.request(())
    # The other thread asked for nothing; this one for `other`.
    assert seen == [model, other]


class _FakeTorch:
    """The torch calls the tuner makes, without a GPU."""

    class cuda:  # noqa: N801: torch's name
        @staticmethod
        def synchronize():
            pass

        @staticmethod
        def get_device_name():
            return "fake"

    class Tensor:
        pass

    uint8 = "uint8"

    @staticmethod
    def empty(*args, **kwargs):
        return None

    @staticmethod
    def device(name):
        return name


class _FakeRequests:
    """The runtime's requests for a function of two products: product 0
    has variants 0-2 (2 is refused: the model's is taken instead), product
    1 has 0-3; the model chooses (1, 2)."""

    model = (1, 2)

    def __init__(self):
        self.asked = ()
        self.calls = []

    def request(self, variants):
        self.asked = tuple(variants)

    def taken(self):
        taken = list(self.model)
        for product, variant in enumerate(self.asked):
            if variant >= 0 and not (product == 0 and variant == 2):
                taken[product] = variant
        return tuple(taken)

    def reported(self):
        # What the last call took, as the runtime records it.
        return list(self.calls[-1])

    def counts(self):
        return [3, 4]


class _FakeEntry:
    name = "mlp"

    class signature:  # noqa: N801: EntryPoint's attribute
        arguments = ()

    def __init__(self, requests):
        self.requests = requests

    def __call__(self, *args):
        self.requests.calls.append(self.requests.taken())


def _tuner(monkeypatch, ms):
    """A tuned entry point on the fakes whose variants take ms(taken)."""
    import sys
    import croq.variant_tuning as vt
    monkeypatch.setitem(sys.modules, "torch", _FakeTorch)
    requests = _FakeRequests()
    owner = croq.VariantTunedModule(module=None, iters=1)
    monkeypatch.setattr(owner, "requests", lambda: requests)
    entry = vt.VariantTunedEntryPoint(owner, _FakeEntry(requests))
    monkeypatch.setattr(
        entry, "_time",
        lambda variants, args, flush, restore: ms(tuple(variants)))
    return entry, requests


def test_tuner_takes_each_product_in_turn(monkeypatch):
    # Product 0 is fastest at 0, product 1 at 3; 2 of product 0 (the
    # slowest if it ran) is refused and never timed.
    cost0 = {0: 1.0, 1: 2.0, 2: 0.1}
    cost1 = {0: 3.0, 1: 2.5, 2: 2.0, 3: 1.0}
    timed = []

    def ms(variants):
        timed.append(variants)
        return cost0[variants[0]] + cost1[variants[1]]
    entry, requests = _tuner(monkeypatch, ms)
    assert entry.tune() == (0, 3)
    assert all(v[0] != 2 for v in timed)
    times = entry.owner.choices()[entry.key()]
    assert times["variants"] == [0, 3] and times["model"] == [1, 2]
    # Calls of the same key take the choice; requests are cleared after.
    requests.calls.clear()
    entry()
    assert requests.calls == [(0, 3)] and requests.asked == ()


def test_tuner_keeps_the_model_on_a_tie(monkeypatch):
    # Another variant 0.5% faster than the model's: within the noise the
    # final rounds allow (MIN_GAIN), so the model's choice stays.
    def ms(variants):
        return 0.995 if variants == (0, 2) else 1.0
    entry, _ = _tuner(monkeypatch, ms)
    assert entry.tune() == (1, 2)
