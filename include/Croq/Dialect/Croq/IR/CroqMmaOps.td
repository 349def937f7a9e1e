//===- CroqMmaOps.td - warpgroup mma -----------------------*- tablegen -*-===//
//
// The warpgroup matrix multiply-accumulate (wgmma) and what lives in its
// registers: fragments and accumulators, their element-wise maps and
// reductions, row/column vectors, conversions, stores and bulk adds. Included
// by CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQMMAOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQMMAOPS_TD

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

def Croq_MmaFillOp : Croq_Op<"mma.fill", [Pure, TypesMatchWith<
    "value matches the accumulator element type", "result", "value",
    "::llvm::cast<AccType>($_self).getElementType()">]> {
  let summary = "creates an accumulator with every element set to a value";
  let description = [{
    The `croq.mma.fill` op returns an accumulator whose elements all hold
    `value` (Croqtile's `mma.fill.f16 0.0f`).

    Example:

    ```mlir
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
}

def Croq_MmaLoadOp : Croq_Op<"mma.load"> {
  let summary = "loads an mma operand from a shared tile";
  let description = [{
    The `croq.mma.load` op makes a shared tile, or a view of one, an mma
    operand (Croqtile's `mma.load.swiz<N> t.chunkat(_, k)`). The layout comes
    from the tile's type; an explicit `swizzle = N` must agree with it.

    Example:

    ```mlir
    %a = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    ```
  }];
  let arguments = (ins Arg<AnyTypeOf<[Croq_TileType, Croq_ViewType],
                                     "tile or view">, "read", [MemRead]>:$source,
                       OptionalAttr<Croq_Swizzle>:$swizzle);
  let results = (outs Croq_FragType:$result);
  let assemblyFormat = [{
    `` custom<OptionalSwizzle>($swizzle) $source attr-dict `:` qualified(type($source))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaOp : Croq_Op<"mma", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "multiplies two operands and adds to an accumulator";
  let description = [{
    The `croq.mma` op computes `acc + a * b` on the tensor cores (Croqtile's
    `mma.row.row c, a, b`). The two layout keywords give how A and B are
    stored: `row` means K is the contiguous dimension (A is M x K, B is
    N x K), `col` means M or N is (A is K x M, B is K x N). The accumulator
    is M x N. On sm_90a this is `wgmma` over one warpgroup: M is a multiple
    of 64, N a multiple of 8 up to 256, and K a multiple of the
    instruction's K for the element type (16 for f16/bf16, 8 for tf32, 32
    for f8 and i8). f8, i8 and tf32 operands must both be `row`. A may
    also come from registers (`croq.mma.convert`): then it is `row`, f16 or
    bf16; B is always read from shared memory.

    Example:

    ```mlir
    %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_MmaLayout:$layoutA, Croq_MmaLayout:$layoutB,
                       Croq_AccType:$acc, Croq_FragType:$a,
                       Croq_FragType:$b);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = [{
    $layoutA $layoutB $acc `,` $a `,` $b attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaCommitOp : Croq_Op<"mma.commit", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "completes the outstanding mma operations of an accumulator";
  let description = [{
    The `croq.mma.commit` op ends a group of `croq.mma` operations on an
    accumulator (Croqtile's `mma.commit`) and waits until at most `pending`
    committed groups are still running (0 by default). With `pending = 0`
    its result is the accumulator once every group has completed, and the
    shared tiles they read may be reused after it. With `pending = N`, the
    tiles of the last N groups may still be read: a pipelined loop frees the
    stage of the previous iteration instead, and keeps the tensor cores busy
    while it waits for the next stage. The result of such a commit may only
    feed further `croq.mma` ops, commits and `croq.mma.wait`; read or store
    it after a commit with `pending = 0` or a `croq.mma.wait`.

    Example:

    ```mlir
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    %p = croq.mma.commit %r pending = 1 : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$pending);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc (`pending` `=` $pending^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaWaitOp : Croq_Op<"mma.wait", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "waits for an mma group committed with pending groups";
  let description = [{
    The `croq.mma.wait` op waits until the group of `croq.mma` operations
    that a `croq.mma.commit` with `pending > 0` left running has completed,
    while at most `pending` groups committed after it still run, and returns
    the complete accumulator: the result may be mapped, reduced, converted
    or stored. It keeps the tensor cores busy with a later group while the
    warpgroup computes on an earlier one, as FlashAttention-3 overlaps the
    softmax of one key tile with the P x V product of the previous one:

    - commit S = Q K^T with `pending = 1`,
    - issue O += P V and commit it with `pending = 1`,
    - `croq.mma.wait` on S with `pending = 1` (O's group may still run),
    - compute on S, then `croq.mma.wait` on O with `pending = 0`.

    Groups complete in the order they were committed, so the accumulator's
    group has completed when no more than `pending` groups were committed
    after it: the verifier counts the `croq.mma.commit` ops between the
    accumulator's commit and the wait, which must be in the same block, and
    rejects a wait that would let the accumulator's own group still run.

    Example:

    ```mlir
    %s = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
    %o = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
    %sd = croq.mma.wait %s pending = 1 : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$pending);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc (`pending` `=` $pending^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaMapOp : Croq_Op<"mma.map", [SingleBlock,
    RecursiveMemoryEffects, AllTypesMatch<["acc", "result"]>]> {
  let summary = "computes on every element of an accumulator in registers";
  let description = [{
    The `croq.mma.map` op applies its body to every element of an
    accumulator where it lives, in the registers of the warpgroup that
    holds it, and returns the accumulator of the yielded values: the
    epilogue of a GEMM (scale, bias, activation, residual) before
    `croq.mma.store`, or the masking and exponentials of attention. The
    body's arguments are the element's row and column in the accumulator,
    its value, and the matching element of each further input: another
    accumulator of the same shape, or a `!croq.vec` broadcast along the
    accumulator (a `rows` vector gives the value of the element's row, a
    `cols` vector that of its column). It yields the new value with
    `croq.yield`.

    The body computes (arith, math, selects, `scf.if`) and may read memory
    with `croq.read` (a bias vector, a residual tile); it may not write
    memory, synchronize or start copies. Each thread runs it for each of its
    elements, unrolled. Like a store, it needs the accumulator complete: the
    result of a `croq.mma.commit` with `pending = 0`.

    Example (bias over columns, then relu; subtracting the row maximum):

    ```mlir
    %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
      %b = croq.read %bias[%col] : memref<128xf32>
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      croq.yield %r : f32
    }
    %d = croq.mma.map %acc, %max (%row, %col, %x, %m) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
      %s = arith.subf %x, %m : f32
      croq.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Variadic<AnyTypeOf<[Croq_AccType, Croq_VecType]>>:$inputs);
  let results = (outs Croq_AccType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "Value":$acc, CArg<"ValueRange", "{}">:$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The element's row, column and value in the body.
    BlockArgument getRow() { return getBody().front().getArgument(0); }
    BlockArgument getColumn() { return getBody().front().getArgument(1); }
    BlockArgument getElement() { return getBody().front().getArgument(2); }
    /// The element of input `i` in the body.
    BlockArgument getInputElement(unsigned i) {
      return getBody().front().getArgument(3 + i);
    }
  }];
}

def Croq_VecFillOp : Croq_Op<"vec.fill", [Pure, TypesMatchWith<
    "value matches the vector element type", "result", "value",
    "::llvm::cast<VecType>($_self).getElementType()">]> {
  let summary = "creates an accumulator vector with every element set";
  let description = [{
    The `croq.vec.fill` op returns a `!croq.vec` whose elements all hold
    `value`: the starting maximum (-inf) and sum (0) of an online softmax.

    Example:

    ```mlir
    %m = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Croq_VecType:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
}

def Croq_VecMapOp : Croq_Op<"vec.map", [SingleBlock,
    RecursiveMemoryEffects, AllTypesMatch<["vec", "result"]>]> {
  let summary = "computes on every element of accumulator vectors";
  let description = [{
    The `croq.vec.map` op applies its body to every element of one or more
    `!croq.vec` values of the same type, in registers, and returns the
    vector of the yielded values: the running maximum, the rescaling factor
    and the running sum of an online softmax. The body's arguments are the
    element's index (its row or column) and the element of each input; it
    yields the new value with `croq.yield`. The body may compute and read
    memory with `croq.read`, as in `croq.mma.map`.

    Example:

    ```mlir
    %n = croq.vec.map %m, %t (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
      %x = arith.maximumf %a, %b : f32
      croq.yield %x : f32
    }
    ```
  }];
  let arguments = (ins Croq_VecType:$vec, Variadic<Croq_VecType>:$inputs);
  let results = (outs Croq_VecType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "Value":$vec, CArg<"ValueRange", "{}">:$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The element's index and value in the body.
    BlockArgument getIndex() { return getBody().front().getArgument(0); }
    BlockArgument getElement() { return getBody().front().getArgument(1); }
  }];
}

def Croq_VecStoreOp : Croq_Op<"vec.store"> {
  let summary = "stores an accumulator vector to a tile, view or tensor";
  let description = [{
    The `croq.vec.store` op writes the N elements of a `!croq.vec` (one
    value per row or per column of an accumulator) to `dest`, whose
    dimensions are all 1 but the innermost, N: the log-sum-exp of each
    query row that an attention forward saves for its backward. Every
    element is written once, by one of the threads that hold it (the first
    lane of the row's quad, or the thread of row 0 for a column). Writes
    past the edge of a view's tensor are dropped, as `croq.write`'s.

    Example:

    ```mlir
    croq.vec.store %lse -> %out : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
    ```
  }];
  let arguments = (ins Croq_VecType:$vec,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest);
  let assemblyFormat = "$vec `->` $dest attr-dict `:` qualified(type($vec)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_YieldOp : Croq_Op<"yield", [Pure, Terminator,
    ParentOneOf<["MmaMapOp", "VecMapOp"]>]> {
  let summary = "yields the new value of an accumulator or vector element";
  let description = [{
    The `croq.yield` op ends the body of a `croq.mma.map` or `croq.vec.map`
    with the new value of the element.

    Example:

    ```mlir
    croq.yield %r : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Croq_MmaReduceOp : Croq_Op<"mma.reduce"> {
  let summary = "reduces the rows or columns of an accumulator";
  let description = [{
    The `croq.mma.reduce` op reduces each row (result `!croq.vec<M x T,
    rows>`) or each column (`!croq.vec<N x T, cols>`) of an M x N
    accumulator with `max`, `min` or `sum`, across the registers and lanes
    of the warpgroup that holds it. Every thread gets the reductions of the
    rows or columns it holds elements of.

    A row is spread over the four lanes of a quad, so rows reduce with
    shuffles alone. A column is spread over all four warps, so a column
    reduction needs a `scratch` tile of 4 x N elements in shared memory
    where each warp leaves its partial result; the op synchronizes the
    warpgroup before and after it uses the scratch tile. Like a store, the
    op needs the accumulator complete.

    Example:

    ```mlir
    %m = croq.mma.reduce max %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
    %c = croq.mma.reduce sum %s scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
    ```
  }];
  let arguments = (ins Croq_ReduceKind:$kind, Croq_AccType:$acc,
                       Arg<Optional<AnyTypeOf<[Croq_TileType, Croq_ViewType]>>,
                           "scratch", [MemRead, MemWrite]>:$scratch);
  let results = (outs Croq_VecType:$result);
  let assemblyFormat = [{
    $kind $acc (`scratch` $scratch^)? attr-dict `:` qualified(type($acc))
    (`,` qualified(type($scratch))^)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaClusterSumOp : Croq_Op<"mma.cluster_sum",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "sums the accumulators of the blocks of a cluster in its leader";
  let description = [{
    The `croq.mma.cluster_sum` op adds up, through distributed shared
    memory, the accumulators that the S blocks of a thread block cluster
    hold at the same place of the same program: the block of rank 0 (the
    leader) gets the sum, every other block its own accumulator unchanged.
    A GEMM whose K loop is split among the blocks of a cluster reduces its
    partial tiles this way, with no workspace in global memory and no
    second kernel (convert-linalg-to-croq's `cluster-k`).

    Each block of rank r > 0 writes its registers into slot r - 1 of the
    leader's `scratch` tile (`st.shared::cluster` through `mapa`), then each
    of its threads arrives, with release semantics at cluster scope, on an
    mbarrier in the leader's shared memory that the op's lowering allocates
    and initializes at the kernel's start (before a cluster barrier). The
    leader's threads wait for the (S - 1) x threads arrivals (acquire at
    cluster scope), then add the S - 1 slots to their registers in rank
    order: the sum does not depend on which block finishes first. Thread t
    of a block writes where thread t of the leader reads, in the op's own
    order (16 bytes per thread and register group, consecutive threads at
    consecutive 16 bytes: no bank conflicts); the scratch tile's contents
    are not the accumulator's row-major layout, and are undefined after.

    `scratch` is a shared, unswizzled tile (or a view of consecutive whole
    rows of one) of the accumulator's element type, (S - 1) x M rows of
    the M x N accumulator's N columns. The op runs once per block and
    launch: it must not be inside a loop of its kernel, and every thread
    that holds the accumulator runs it (the consumer warpgroups, in a
    warp-specialized block). The leader must not exit before its peers'
    writes land; it waits for them.

    Example:

    ```mlir
    croq.parallel (%i, %j) in [4, 32] : block cluster [2, 1] {
      %s = croq.alloc : !croq.tile<64x128xf32, shared>
      %z = arith.constant 0.0 : f32
      %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
      %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    }
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<AnyTypeOf<[Croq_TileType, Croq_ViewType]>,
                           "scratch", [MemRead, MemWrite]>:$scratch);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = [{
    $acc `scratch` $scratch attr-dict `:` qualified(type($acc)) `,`
    qualified(type($scratch))
  }];
  let hasVerifier = 1;
}

def Croq_MmaConvertOp : Croq_Op<"mma.convert", [Pure]> {
  let summary = "makes an accumulator the A operand of the next mma";
  let description = [{
    The `croq.mma.convert` op converts an M x K accumulator into an A
    operand in registers, `!croq.frag<M x K x T, registers>` with T f16 or
    bf16, for a `croq.mma` that reads A from registers (wgmma with A from
    registers): the P = softmax(S) operand of P x V in attention. Each
    thread keeps its own elements; the accumulator's fragment layout is the
    A operand's, two elements to a register. Like a store, the op needs the
    accumulator complete.

    Example:

    ```mlir
    %p = croq.mma.convert %s : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc);
  let results = (outs Croq_FragType:$result);
  let assemblyFormat = "$acc attr-dict `:` qualified(type($acc)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaSliceOp : Croq_Op<"mma.slice", [Pure]> {
  let summary = "columns of an accumulator";
  let description = [{
    The `croq.mma.slice` op gives columns `[column, column + W)` of an
    M x N accumulator as an M x W accumulator, W the result's width: the
    part of a block's result that an epilogue stores through a shared tile
    narrower than the whole (convert-linalg-to-croq stores a 128x256 result
    in two parts of 128 columns, which leaves room for one more stage of
    operands). Each thread keeps its own registers: `column` and W are
    multiples of 8, the columns of one register group of wgmma's
    accumulator layout. Like a store, the op needs the accumulator
    complete.

    Example:

    ```mlir
    %right = croq.mma.slice %c[128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc, I64Attr:$column);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc `[` $column `]` attr-dict `:` qualified(type($acc)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaStoreOp : Croq_Op<"mma.store"> {
  let summary = "stores an accumulator into a tile or tensor";
  let description = [{
    The `croq.mma.store` op writes an accumulator to a shared or local tile,
    a global tensor or a view (Croqtile's `mma.store c, out_s`), converting
    elements to the destination's element type. Stores to a view that runs
    past its tensor's edge are masked.

    With `relu`, negative elements are stored as zero: the conversion of an
    f32 accumulator to f16 or bf16 clamps them (`cvt.rn.relu`), so that a
    ReLU costs nothing over the store. `croq-fold-store-relu` makes a
    `croq.mma.map` that ends in `arith.maximumf %x, 0.0` such a store.

    With `transpose`, element (i, j) of the accumulator is stored at
    (j, i) of `dest`, whose shape is the accumulator's reversed: a kernel
    that computes C^T = B^T A^T (the operands' roles swapped, so that a
    product with few rows puts them in wgmma's N dimension) stores C's tile
    in C's own layout. Into a 16-bit shared tile each warp stores with
    `stmatrix.trans`, as many instructions as the plain store's
    `stmatrix`; elsewhere each element alone (its neighbour in the row
    lies in the next row of `dest`).

    Example:

    ```mlir
    croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    croq.mma.store relu %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    croq.mma.store transpose %c -> %outT : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       UnitAttr:$relu, UnitAttr:$transpose);
  let assemblyFormat = "(`relu` $relu^)? (`transpose` $transpose^)? $acc `->` $dest attr-dict `:` qualified(type($acc)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_MmaAccumulateOp : Croq_Op<"mma.accumulate"> {
  let summary = "adds an f32 accumulator into an f32 tensor in global memory";
  let description = [{
    The `croq.mma.accumulate` op adds each element of an f32 accumulator to
    the element at the same place of `dest`, an f32 tensor in global memory
    or a view of one, with one relaxed atomic add (`red.global.add.f32`) per
    element: the blocks of a kernel that each hold a part of one sum (the
    attention backward's dQ, a sum over key blocks) add their parts into
    one f32 workspace. Adds past the edge of a view's tensor are dropped,
    as `croq.mma.store`'s stores are. Like a store, the op needs the
    accumulator complete.

    Atomic adds of floats in an unspecified order give sums that may differ
    in their last bits from run to run. A deterministic kernel orders the
    adds of the blocks with `croq.turn.wait` and `croq.turn.pass`.

    Example:

    ```mlir
    croq.mma.accumulate %dq -> %workspace : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<AnyTypeOf<[AnyMemRef, Croq_ViewType]>, "added to",
                           [MemRead, MemWrite]>:$dest);
  let assemblyFormat = "$acc `->` $dest attr-dict `:` qualified(type($acc)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_BulkAddOp : Croq_Op<"bulk_add"> {
  let summary = "adds a shared tile's storage to global memory, asynchronously";
  let description = [{
    The `croq.bulk_add` op adds the f32 elements of `source`, a shared tile,
    in the order they lie in shared memory (a swizzled tile's swizzled
    order), to the same number of consecutive f32 elements of `dest` in
    global memory, with one bulk reduction (`cp.reduce.async.bulk .add.f32`)
    that the executing group's first thread issues after the group's writes
    to the tile are made visible to the async proxy (a proxy fence and the
    group's barrier). The add is left in flight in that thread's bulk
    group: `croq.wait_stores` waits for it (`read`: until it has read the
    tile, which may then be written again; plain: until the adds are
    done). The blocks of a kernel that each hold a part of one sum add
    their parts into an f32 workspace this way, the L2 cache adding whole
    lines; `croq.turn.wait` and `croq.turn.pass` order the parts.

    `dest` is 1-d: a tensor or a view of one, as many elements as the tile,
    a multiple of 16 bytes.

    Example:

    ```mlir
    croq.bulk_add %t -> %w : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
    ```
  }];
  let arguments = (ins Arg<Croq_TileType, "read", [MemRead]>:$source,
                       Arg<AnyTypeOf<[AnyMemRef, Croq_ViewType]>, "added to",
                           [MemRead, MemWrite]>:$dest);
  let assemblyFormat = "$source `->` $dest attr-dict `:` qualified(type($source)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

#endif // CROQ_DIALECT_CROQ_IR_CROQMMAOPS_TD
