"""What the forward attention kernels' generators share: the kernel being
written (Kernel: its types, its walk and its lines) and the constants of
the grid (examples/gen/flash_attention.py writes the kernels with
attention_fwd_walk.py and attention_fwd_consumer.py)."""

# log2(e): exp(x) = exp2(x * log2(e)).
LOG2E = "1.44269504"

# Blocks of the persistent grid: the SMs of an H100 or H200.
BLOCKS = 132

# The most bytes of keys and values for which the causal kernels may walk
# single items in snake order (see the header).
SNAKE_BYTES = 64 << 20


class Kernel:
    """One entry point being written: its name, element type T, head
    dimension D and causality, the croq types it uses, the walk over the
    work items of the block program being written (`schedule`: "items" in
    order, "pairs" or "snake" for causal attention), and its lines."""

    def __init__(self, name, T, D, causal, lse=False, score_hook=False,
                 is_varlen=False):
        self.name = name
        # Whether the entry point takes packed sequences of different
        # lengths (attention_varlen.py).
        self.varlen = is_varlen
        # Whether the entry point also writes each query row's log-sum-exp
        # (examples/gen/flash_attention_bwd.py's training forward).
        self.lse = lse
        # Whether the scores pass through a hook (see score_hook) before
        # the mask: the templates of croq-fuse-linalg-attention.
        self.score_hook = score_hook
        self.D = D
        self.causal = causal
        self.Q3 = f"!croq.tile<1x64x{D}x{T}, shared, swizzle = 128>"
        self.Q2 = f"!croq.tile<64x{D}x{T}, shared, swizzle = 128>"
        # Q: two slots a consumer (this item's rows and the next one's).
        self.QS = f"!croq.tiles<4 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.OS = f"!croq.tiles<2 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.K3 = f"!croq.tile<1x128x{D}x{T}, shared, swizzle = 128>"
        self.K2 = f"!croq.tile<128x{D}x{T}, shared, swizzle = 128>"
        self.KS = f"!croq.tiles<2 x 1x128x{D}x{T}, shared, swizzle = 128>"
        self.MR = f"memref<?x?x?x{T}>"
        self.QV = f"!croq.view<1x64x{D}x{T}>"
        self.KV = f"!croq.view<1x128x{D}x{T}>"
        self.QF = f"!croq.frag<64x{D}x{T}>"
        self.KF = f"!croq.frag<128x{D}x{T}>"
        self.PF = f"!croq.frag<64x128x{T}, registers>"
        self.SA = "!croq.acc<64x128xf32>"
        self.OA = f"!croq.acc<64x{D}xf32>"
        self.VEC = "!croq.vec<64xf32, rows>"
        self.E2 = "!croq.events<2>"
        self.E4 = "!croq.events<4>"
        # Which role's loops are being written: the consumers' carry the
        # parity of their Q slots.
        self.role = None
        self.schedule = None
        self.indent = ""
        self.lines = []

    def w(self, line):
        self.lines.append(self.indent + line)


def extent_check(k, n, tensor, dim, want, operand, mr):
    """The host check (the n-th of the entry point) that dimension `dim`
    of `tensor` (of type `mr`) is `want`; a failure names `operand`
    (CroqRuntime.h, CROQ_RT_EXTENTS_ATTENTION)."""
    w = k.w
    w(f"  %x{n} = memref.dim {tensor}, %c{dim} : {mr}")
    w(f"  %x{n}_i64 = arith.index_cast %x{n} : index to i64")
    w(f"  %want{n}_i64 = arith.index_cast {want} : index to i64")
    w(f"  %operand{n} = arith.constant {operand} : i32")
    w(f"  %ok{n} = func.call @croqRtRequireEqualExtents(%x{n}_i64, "
      f"%want{n}_i64, %check_attention, %operand{n}) : "
      f"(i64, i64, i32, i32) -> i32")
