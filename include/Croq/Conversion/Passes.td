//===- Passes.td - croq conversion passes ------------------*- tablegen -*-===//
//
// Conversions from croq to the upstream GPU dialects, and the fix-ups the
// NVVM lowering of croq kernels needs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_CONVERSION_PASSES_TD
#define CROQ_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToCroq : Pass<"convert-linalg-to-croq", "ModuleOp"> {
  let summary = "Make croq kernels of the linalg ops of host code";
  let description = [{
    The entry point for compilers that hand croq `linalg`: whole bufferized
    functions, as upstream pipelines emit them. The pass first sorts every
    op of host code (outside croq kernels) by the kernel that computes it,
    and declines the rest before it changes anything, with an error that
    names the op and why: convolutions it does not take (below), matrix
    products written as
    `linalg.generic` (`croq-specialize-contractions` makes them named
    products first), products of other element types, indexing maps that
    are not loops or constant 0s, bodies with memory effects, host ops that
    would read or write a device buffer's elements (`memref.load`,
    `memref.store`), globals other than splat constants, stack buffers, and
    host code still on tensors.

    Elementwise ops. A `linalg.generic` whose loops are all parallel (and
    the named ops that generalize to one: `linalg.add`, `linalg.exp`,
    `linalg.fill`, `linalg.copy`, `linalg.transpose`, `linalg.broadcast`,
    `linalg.map`, ...; a `memref.copy` becomes a `linalg.copy`) becomes one
    kernel of 256-thread blocks in which every thread computes a chunk of
    consecutive elements along the first output's innermost dimension: 16
    bytes of the widest element read or written along it, read and written
    as vectors where the row length is a multiple of the chunk and the
    operands are aligned (`croq.is_aligned`). Otherwise every row is peeled
    to the first aligned chunk of its first vector output (the misalignment
    taken from the buffer's address): a thread per full chunk of the row,
    read and written as vectors (element by element for an operand whose
    row starts misaligned otherwise), and one per head or tail column. An
    input indexed without the chunk's loop
    (a broadcast, through a dropped dimension or a constant 0) is read once
    per chunk, a transposed one element by element; a splat constant
    (`memref.get_global`) is folded into the body; `linalg.index` reads the
    loop indices. Where every operand is a contiguous row-major buffer
    indexed by the loops in order (or a scalar) and the body does not read
    the loop indices, the op runs on 1-d views (`memref.collapse_shape`) of
    its operands: the chunks then run along the whole buffer, and only its
    last chunk is computed element by element whatever the rows' length.

    Reductions. A `linalg.generic` with reduction loops (and `linalg.reduce`)
    whose outputs are indexed by every parallel loop once becomes one kernel
    too. Where the first input's innermost dimension is reduced and each
    output's body combines its element with one associative op (`addf`,
    `mulf`, `maximumf`, `minimumf`, `maxnumf`, `minnumf`, `addi`, `muli`,
    signed and unsigned `max`/`min`, `andi`, `ori`) on at most 32 bits, a
    warp computes each output element: its lanes fold interleaved elements
    into partials from the op's identity, five butterfly shuffles
    (`gpu.shuffle xor`) combine them, and lane 0 combines the total with
    the output's element. Otherwise each thread computes one output
    element, running the body over the reduction loops in order. A
    `linalg.fill` of the output right before the reduction is its starting
    value, computed by the same kernel.

    Row chains. Consecutive ops over the same rows, the first a reduction
    along them (a softmax's maximum, sum and division, a norm's sums and
    normalized row) become one kernel: groups of 32 to 256 threads (about
    8 elements of a row a thread where the row length is static, 256
    otherwise) each compute one row, running the ops in order with a block
    barrier between them. A reduction folds each thread's columns, combines
    each warp by shuffles and the group's warps through a shared tile
    (`croq.alloc : !croq.tile<8xT, shared>`), and its first thread writes
    the row's value; an elementwise op computes the row in vector chunks;
    an op over per-row values runs on the group's first thread. Only ops
    without memory effects, allocations and views may lie between the
    chain's ops, and the buffers the chain writes must be read and written a
    row at a time (its rows' loops in order, then its columns').

    Contractions written as `linalg.generic` that are not a batch of
    matrix products (a matrix-vector or dot product: no column or row loop)
    are reductions: the reduction kernel computes them, the body's product
    recomputed per element.

    Where extents are dynamic, the host code checks, before launching, that
    every operand's extent equals that of the loop that indexes it
    (`croqRtRequireEqualExtents`, `CROQ_RT_EXTENTS_OPERAND`).

    Products. Every
    `linalg.matmul` and `linalg.batch_matmul` on memrefs outside a croq
    kernel, with f16, bf16, f8E4M3FN, f8E5M2 or f32 operands of one type
    and an f16, bf16 or f32 result, or i8 operands and an i32 result,
    becomes a croq kernel that computes it with f32 accumulation (i32 for
    i8): each block owns a tile of the result and runs a K loop of two
    `tma` copies (K steps of one 128-byte swizzle span: 64 16-bit, 128
    8-bit or 32 32-bit elements, zero-filled at the edges) and one
    `croq.mma`, in the plain form that `croq-pipeline-loops` turns into a
    multi-stage ring. f32 operands are multiplied as tf32 (wgmma's f32
    mode: 10-bit mantissas, an f32 sum), as cuBLAS does with TF32 allowed;
    i8 operands exactly, by s8 wgmma (the body must sign-extend them,
    `cast_signed`). B may be transposed through `indexing_maps` (stored
    N x K: a `row` operand instead of `col`), and must be for 8-bit and f32
    operands, which wgmma reads K-major only (A indexed (m, k), B (n, k)).
    A may be transposed (stored K x M: a `col` operand)
    for 16-bit floats: each consumer warpgroup reads 64 of its rows, which
    wgmma can take M-major.

    The block tile is 128x256, 128x192, 128x224, 128x176, 128x160,
    128x144, 128x128, 64x128, 192x192 or 128x64 result elements (those with
    room for three stages of operands next to the result tile in the chip's
    shared memory; tile-m and tile-n also force the narrow 64x16, 64x32 and
    64x64 below),
    chosen by a cost model in SM cycles: the longer of the compute and
    the traffic with memory, plus 30% of the shorter. The compute is the
    waves of blocks the grid takes on the chip's multiprocessors times a
    block's time (its K steps at the tile's measured tensor-core
    efficiency, plus a fixed latency); the traffic is A and B read once,
    the result written, and an operand larger than half the L2 (each of its
    two partitions keeps a copy) read again: in a
    grid of one wave, a tenth of it by each row of tiles after the first
    (B) or column (A), once per cluster where the blocks of a cluster share
    it by multicast; in a grid of several waves that is not persistent,
    once per wave. The widths between 128 and 256
    fill a wave where those leave multiprocessors idle (1536^3: 11 x 12
    tiles of 128x144 on 132); they compute more slowly per element, the
    more so where B is stored K x N, whose tile is then padded to whole
    128-byte spans (192 or 256 columns loaded). The 192x192 tile (three
    consumer warpgroups of 64 rows, `croq.consumers = 3`) fills a wave
    where M is about 192 times the rows of tiles of one (576 x 8192 x 8192:
    3 x 43 blocks); the model gives it only to products of 16-bit floats
    into a zeroed output, with no fused consumer, not batched (with fewer
    registers per consumer, the others spill). The 128x64 tile (one
    consumer warpgroup on 128 rows) is the model's only for products of
    65 to 128 rows, where it fills a wave that 64x128 fills with two rows
    of tiles, and, with its K loop split through a workspace, for products
    of at most 64 columns (half the padding columns of 64x128 per row). A plain tile 64 or more columns wider than a product of more
    than 64 columns (N rounded up to 64) is not taken: every block would
    compute and store that padding (12288 x 128 x 12288: 128x192 tiles in
    clusters 0.77 of cuBLAS, 128x128 0.97; H200). For static shapes
    the pass chooses; for dynamic ones it emits the kernels of every
    candidate and the host code computes the
    costs and launches the cheapest (`scf.index_switch`). `tile-m` and
    `tile-n` force a tile. A block of 128 rows carries `croq.consumers =
    2`, for `croq-split-accumulators`, and walks its tiles
    (`croq.persistent = true`, for `croq-persistent-blocks`), but for two
    tiles of one consumer warpgroup, not persistent: 128x64, and 128x128
    where the product is a plain one of 16-bit floats into a zeroed output
    whose B is stored K x N (measured faster so on an H200; with B stored
    N x K, slower).

    Tiles of C^T. For a plain product of 16-bit floats into a zeroed
    16-bit output, the model also weighs tiles of
    C^T = B^T A^T: 64 rows over N times 16, 64, 128, 160, 176 or 208 over M
    (one consumer warpgroup), 128 rows times 160, 176 or 208 (two) and 192
    times 160 (three), with A stored K x M (whose tile is then an N-major
    operand padded to whole 128-byte spans) those of 128 and 176 columns
    only; B's K step as wgmma's A operand and A's as its B operand, so
    that the product's few rows take wgmma's N dimension (widths in steps
    of 8) instead of padding 64- or 128-row tiles; not persistent, for
    products of at most two columns of them. Each block stores its
    accumulator transposed (`croq.mma.store transpose`, by
    `stmatrix.trans`) as C's tile, which TMA copies out; with two or three
    consumers, each stores its 64 rows of C^T as 64 columns of the tile
    (`croq-split-accumulators` splits the tile by columns). Their memory
    time counts only the multiprocessors their blocks occupy. The 64x16
    and 64x64 tiles are also weighed with their K loop split between the
    two blocks of a cluster (summed by `croq.mma.cluster_sum` as for the
    plain tiles), for products of one column of them whose N gives fewer
    tiles than multiprocessors. At 333 x 4096 x 4096 two columns of 64x176
    tiles (128 blocks) replace three rows of 128x128 (96); at 300 x 8192 x
    8192 two of 128x160 (128 blocks, 320 rows) three of 128x192 (384 rows);
    at 16 x 8192 x 8192 one of 64x16 (128 blocks) the 64x128 tiles split in
    clusters; at 1 x 4096 x 11008 64x16 tiles split in clusters (128
    blocks) whole ones (64). They are the last variants of a dynamic
    product, and are not weighed where a tile, split, form or clusters are
    forced (cluster-m=1 leaves the whole ones).

    One row. A product of one row whose A is stored K x M holds A as a
    column of K elements one apart, whose one-element rows TMA cannot
    describe (it would stage the column by a device copy before the
    kernel). Where A's stride along K is 1 as well, the pass reads the
    column as the 1 x K row it is (`memref.reinterpret_cast`) and computes
    the product of A stored M x K, weighing only the variants that suit one
    row where the model chooses: the plain tiles of the fewest rows without
    clusters along M (whole, split, split in clusters) and the tiles of C^T
    of the fewest columns. Where M or the stride is dynamic, the host code
    takes that form (in the then-branch of an `scf.if`) when the call's M
    is 1, and the other otherwise: the product counts as two for
    `variants` and the classifier. 1 x 8192 x 8192 with A stored K x M ran
    at 0.85 of cuBLAS staged, 1.10 read as its row (H200).

    One column. A matrix-vector product (N = 1) of 16-bit floats with no
    consumer fused in its epilogue has B's one column and C's (each rows of
    one element) as rows; where their elements are one apart, the pass
    reads both as 1 x K and 1 x M rows and computes C^T = B^T A^T, a
    product of one row (B's row its A, A its B stored N x K, or K x N
    where A is stored K x M), among the same variants as above. Where N or
    a stride is dynamic the host code takes it when the call's N is 1 (the
    then-branch of an `scf.if` on N = 1 and the strides, the product as
    stored in the else-branch, after the one-row branch where both may
    apply); only where the model chooses (forced options give the kernels
    of the product as written). Staged, 4096 x 1 x 4096 ran at 0.54 of
    cuBLAS (H200).

    Few columns. For a plain product of 16-bit floats into a zeroed
    output, the model also weighs narrow plain tiles of 64 rows (one
    consumer warpgroup) by 16, 32 or 64 columns, whole and with their K
    loop split between the two blocks of a cluster (where each block keeps
    at least 32 K steps, 64 where B is stored K x N and N is not a
    multiple of the width; 16 for the other tiles), each for products of
    at most its width (one column of tiles), and where B is stored K x N
    and N is not a multiple of the width (every row of B's box clipped)
    whole in clusters of two along M that multicast B: a product of few
    columns and large M and K reads A, its one large operand, in a block
    per 64 rows instead of padding 128- or 256-column tiles. They follow
    the tiles of C^T among the variants, with the same conditions. Two of
    their whole blocks share a multiprocessor: 64x16 and 64x32 with the
    eight stages croq-pipeline-loops gives them, 64x64 as a variant of its
    own with six (`croq.stages` on its K loop; eight fit one block only),
    which the model weighs only on grids of more blocks than
    multiprocessors, the two blocks' steps together 1.15x as fast as one
    block's. 8192 x 16 x 8192 ran at 0.98 of cuBLAS in 64x16 tiles against
    0.64 in the 64x128 tiles split in clusters before; 9000 x 48 x 3000 at
    0.77 in 64x64 tiles two to a multiprocessor against 0.67 one (H200,
    static kernels).

    Clusters. A kernel in thread block clusters of 2 x 1 blocks: the
    blocks of a cluster compute tiles of one column, so they need the same
    K steps of B, and each loads a share of them, which TMA multicasts into
    every block of the cluster (`croq.copy ... multicast`). The grid is
    rounded up to whole clusters (blocks past the edge load zeros and store
    nothing), and a persistent kernel walks the tiles a cluster at a time.
    By default the cost model weighs the 128x256, 128x192, 128x128 and
    64x128 tiles in such clusters against the same tiles alone: a block
    that loads all of B's K step takes 15% longer where B's rows are not
    multiples of 128 bytes (a box row then spans two L2 lines), a block in
    a cluster 5% longer in any case (measured on an H200), and a B larger
    than the L2 is read from memory once per cluster row of tiles instead
    of once per row. `cluster-m = N` (up to 8) forces clusters
    of N x 1 on every unsplit kernel, `cluster-m = 1` none; `cluster-n = N`
    forces 1 x N, which share A instead. Both together force clusters of
    M x N blocks (at most 8), in which both operands are multicast: A's K
    step to the blocks of a row of the cluster (`multicast along 1`), B's
    to those of a column (`multicast along 0`). The cost model does not
    choose them: 64x64 tiles in clusters of 2 x 4 move as few bytes
    through the L2 as cuBLAS's kernel of that form (48 MB at
    128x3000x3000), but ran 0.53-0.57 of cuBLAS there against 0.69-0.75 in
    clusters of 2 x 1, and clusters of 4 or 8 blocks ran 0.24-0.38 at
    128x4096x4096 (H200, bench/RESULTS.md). Such a kernel is not made
    persistent. Split kernels are not clustered.

    Split K. When the tiles are too few to fill the chip and K is long
    (256x256x16384, M = 128), the K loop of a 128x128, 64x128 or 128x64
    tile may be
    split among S blocks: the host code allocates an f32 workspace with
    `gpu.alloc` (queued on the call's stream by `croq-host-entries`), a
    kernel of S x tiles blocks stores each block's partial product there
    by TMA, a second kernel sums each element's S partials in split order
    (so the result does not depend on timing), adds the output where
    linalg.matmul accumulates, computes the fused consumer and writes the
    result, and `gpu.dealloc` releases the workspace. The cost model adds
    the second launch and the workspace traffic (written and read once, at
    the chip's memory bandwidth) and tries S from 2 to 32 with at least 4
    K steps per block, at most 256 MiB of workspace and at most one wave
    of blocks (split grids of several waves measured far slower than
    counted); S is a value the
    host code computes, so one split kernel per tile serves every shape.
    `split-k = 1` never splits; `split-k = N > 1` forces N splits (fewer
    when K has fewer steps) on the splittable tiles.

    Stream-K. When the tiles make a whole wave and part of another (576 x
    8192 x 8192 in 128x256 tiles: 160 tiles on 132 SMs), the 128-row tiles
    of whole 32-column groups may take the stream-K form: the whole waves
    of tiles, as whole columns of tiles, in the persistent kernel, then
    the K steps of the tiles left (numbered down their columns) spread in
    contiguous ranges over one wave of blocks, each block storing the f32
    partial of every tile its range meets into that tile's slot of a
    workspace (`gpu.alloc`), and the split-K reduction summing each
    element's slots in order (so the result does not depend on timing),
    with the output added and the consumer fused. The K loop of a range
    block changes its trip count from tile to tile: croq-pipeline-loops
    counts its ring in a value the tile loops carry. The cost model counts
    both kernels' waves, the tiles each range meets, the partials' traffic
    and the launches, and takes the form only after a whole wave (with
    every tile in the ranges it measured slower than the whole tiles).
    `stream-k = 1` never takes it, `stream-k = 2` always (on the tiles
    that have it; an error with a forced 64-row tile, forced splits or
    clusters, or for a batched product). 8-bit float products take no
    stream-K form, forced or not (not measured with promoted sums).

    K split in a cluster. Where whole tiles leave most of a wave idle
    (128 x 4096 x 4096 in 64x128 tiles: 64 blocks on 132 SMs), a tile may
    split its K loop among the S blocks of a thread block cluster along
    the grid's first dimension (S x
    tiles blocks, cluster [S, 1]): each block runs its part of the K steps
    ([s K / S, (s + 1) K / S)) into its own accumulator, and
    `croq.mma.cluster_sum` sums them in the cluster's first block through
    distributed shared memory (the others store their fragments into
    slots of its scratch tile, (S - 1) x the accumulator, and arrive on a
    cluster-scope mbarrier), which alone adds the output, computes the
    fused consumer and stores the tile: no workspace, no second kernel.
    The cost model considers the 64x128 and 128x64 tiles in clusters of
    2 (the 128x128 tile in clusters of 2 and every tile in clusters of 4
    measured slower
    than main's choice on an H200, bench/RESULTS.md), counting 2 x tiles
    blocks of K / 2 steps and the sum, within one wave, at least 4 K steps
    a block and 3 stages of operands next to the scratch tile; the split-K
    and stream-K forms stay candidates. `cluster-k = 1` never takes the
    form, `cluster-k = S > 1` always, on the 128x128, 64x128 and 128x64
    tiles, in clusters of S (an error with forced splits, stream-K or
    clusters, another tile, a batched product, or
    too little shared memory next to the scratch); 8-bit float products
    take no such split, forced or not (not measured with promoted sums).

    8-bit floats. wgmma's accumulator keeps fewer mantissa bits than f32
    for 8-bit products, so an 8-bit float product accumulates each K step
    (128 elements, four k32 wgmma) into a partial sum, from zeros (wgmma's
    scale-d = 0), and adds it into the f32 main accumulator in registers
    (`croq.mma.map`) every `f8-promote-steps` steps and after the last
    (default 1, as cuBLAS's `torch._scaled_mm`; 0: wgmma accumulates the
    whole K loop). Measured on an H200 (bench/RESULTS.md): max error over
    max |reference| 1.4e-4 to 1.7e-4 up to K = 16384 with an f32 result,
    the same as `torch._scaled_mm`, against 2.5e-4 to 3.0e-4 every 2
    steps, 5.0e-4 to 6.1e-4 every 4, and 4.0e-3 to 1.0e-2 without
    promotion; every 2 or 4 steps also ran slower than every step. Two
    accumulators in a consumer's registers leave tiles of at most 192
    columns (the cost model keeps those; a forced wider tile is declined).

    Block-scaled 8-bit floats (DeepSeek-V3's recipe). A `linalg.generic`
    over (m, n, k) = (parallel, parallel, reduction) with inputs A (an
    8-bit float, indexed (m, k)), B (the same type, indexed (n, k)) and
    f32 scales `sa` indexed (m, k floordiv 128) and `sb` indexed
    (n floordiv 128, k floordiv 128), in any order, and an f32 output
    indexed (m, n), whose body is
    `out + (extf(a) * sa) * (extf(b) * sb)` (the multiplications' operands
    either way round), is the product of the dequantized operands: each K
    step's partial product is scaled by `sa[row, step] * sb[blockN, step]`
    as it is added into the f32 accumulator (one fma per element), the
    scales read a step ahead. K need not be a multiple of 128 (the last
    group is partial); the scales must be M x ceil(K / 128) and
    ceil(N / 128) x ceil(K / 128) (checked statically, or on the host
    before the kernels). The tile is 128 columns (one block of B's scales):
    128x128 or 64x128, split or in clusters as the cost model chooses. A
    generic with an 8-bit float input, a reduction loop and a `floordiv`
    map that is not this form is declined, naming what differs (scale
    maps, body, types, extents). `croq.block_scaled` (Python) writes the
    form for given shapes and calls it on torch tensors.

    `linalg.matmul` accumulates into its output. When the op right before it
    fills the output with zero (`linalg.fill`), the fill is dropped and the
    kernel stores the product; otherwise the epilogue adds the output's
    elements to the accumulator in registers (`croq.mma.map`) before the
    store. The result tile goes through a 128B-swizzled shared tile and a
    `tma` copy to the output, which clips at its edges.

    Batches. A `linalg.batch_matmul` (each operand a batch of matrices, its
    first dimension the batch; the same layouts through `indexing_maps`,
    with the batch first in every map) is one grid of the tiles of every
    matrix, matrix after matrix: block row r computes tile row r % R of
    matrix r / R, R the tile rows of one matrix. Its tiles are 1 x rows x
    cols windows of the batched tensors, copied by 3-D TMA boxes into
    shared tiles of that shape, which the mma reads and the epilogue writes
    through their rows x cols `croq.span_as`. The cost model counts the
    blocks of every matrix; the K loop of a batched product is not split
    (its matrices fill the grid; `split-k` > 1 is an error), and a fused
    consumer's loops are (b, m, n), its tiles indexed (b, m, n) and its
    vectors (n) or (m), the same for every matrix.

    The form a frontend hands over after bufferization is fused: when the
    product goes into a zeroed temporary (`memref.alloc`) that only an
    elementwise `linalg.generic` right after reads, the generic's body runs
    on the accumulator in the epilogue (bias, scale, activation, residual,
    cast): the product is its element, inputs indexed (m, n), (n) or (m)
    are read at the element's row and column, scalars are used as they are.
    The kernel stores into the generic's output, and the temporary, the
    fill and the generic are gone. The same holds where the generic updates
    the product's own buffer in place (bufferization's form of
    `bias + A B` into a function's result), and for vectors stored with
    further dimensions of extent 1 (a bias of 1 x 1 x N read `(b, 0, n)`).
    A product written through a `memref.collapse_shape` view of its buffer
    (a batch of one matrix viewed as the matrix, as
    `croq-specialize-contractions` leaves TOSA's matmul) may be read by the
    generic as the buffer: through a loop of extent 1 for the dimension the
    view drops (dropped from the generic where its body does not read that
    loop's index) or through a constant 0 (as `croq-fuse-elementwise`
    folds such views); the generic then reads the product's view, and
    views without their dimensions of extent 1 of its other tiles and its
    output. Allocations and views between the product and the generic move
    before the product, and inputs read twice through one map (as
    elementwise fusion leaves them) are read once.

    Convolutions. `linalg.conv_2d_nhwc_fhwc` and `linalg.conv_2d_nhwc_hwcf`
    on memrefs of static shapes and identity layouts, with f16 or bf16
    inputs and filters and an f32 or input-typed output, are implicit GEMMs
    on the product's kernel (docs/convolution.md): M = N P Q output
    positions, N = F filters, K = R S C (taps outer, blocks of 64 channels
    inner). A is loaded by one `croq.im2col` per K step from the input's
    `croq.im2col_map` (made on the host, the column the tile's rows), the
    column starting at the pixel of the block's first output position; B
    is the filters seen as F x (R S C) (fhwc) or (R S C) x F (hwcf), loaded
    by a tiled `tma` copy; the output is written as (N P Q) x F. A padded
    copy of the input (a zero-filled buffer with the input copied into its
    interior, as one-shot-bufferize makes a `tensor.pad`) is folded into
    the map's corners: the unpadded input is read, the padded buffer never
    made. A 1x1 convolution of stride 1 without padding is a plain GEMM of
    the input seen as (N H W) x C. An elementwise generic over (n, p, q, f)
    after a zero-filled convolution (bias indexed (f), residual, relu,
    silu, casts) is computed in the epilogue as over (N P Q) x F. The tile
    is the cost model's, among the whole (unsplit, A not multicast)
    variants. A `linalg.conv_2d_nchw_fchw` on static, contiguous buffers
    becomes the NHWC form between `linalg.transpose`s (input and filters
    into channels-last temporaries, the output back), elementwise kernels
    of their own. Declined by name: channels or filters not a multiple of
    8, strides outside 1 to 8, im2col corners outside [-128, 127], other
    element types, dynamic shapes, strided buffers, depthwise convolutions
    and the other convolution ops.

    Dynamic extents are checked on the host before the kernels: A's K and
    B's, the output's rows and columns and the product's, the batches and
    the fused generic's inputs must agree, or the call fails naming them
    (`croqRtRequireEqualExtents`) and launches nothing; kernels on operands
    that disagree would read past an edge as zeros and be silently wrong.

    Compile on first call. A product of dynamic extents with more than one
    variant (tile, cluster, split or stream-K form) gets the kernels of
    every variant and host code that chooses among them per call; those
    are the products "whose variant the host code chooses", numbered from 0
    in the order of the module's functions and their ops. `variants`
    restricts each of them to one variant, the cost model's choice for one
    shape class: entry p is the variant of product p (its index in the
    order the cost model weighs them, which `-debug-only=
    convert-linalg-to-croq` prints), or -1 for none. The host code still computes
    the choice and, before the product's kernels, calls
    `croqRtRequireVariant(p, chosen, compiled)`, which fails the call
    (naming both and launching nothing after) where the shape chose
    another variant. The list has one entry per such product, or none (every
    variant of every product, the default). `classify` emits no kernel at
    all: each such product reports its choice
    (`croqRtReportVariant(p, products, chosen)`, which
    `croqRtGetReportedVariants` reads after the call; each function first
    reports the count alone, as product -1), every other op that
    would become a kernel is dropped with the temporaries only it used, and
    the functions stay entry points (`croq.entry`): the classifier
    `croq.jit` calls to find a call's shape class before it compiles that
    class's kernels alone.

    Requested variants. Before the cost model chooses for product p, the
    host code calls `croqRtRequestedVariant(p, variants)`: the variant the
    calling thread asked for (`croqRtRequestVariants`), or -1. A request is
    the choice wherever the model could take that variant at the call's
    extents (its cost is not "never"), with the splits the model gives it;
    elsewhere the model's choice stands. The dispatcher then reports the
    variant it took (`croqRtReportVariant`), so that an autotuner
    (`croq.autotune_variants`) times each variant the module holds on a
    call's own tensors, without compiling anything again. A product with
    one variant, or of static extents, asks for nothing.

    Specialized to variant 3 (`variants=3`):

    ```mlir
    %v = ... the cost model's choice, an index ...
    %chosen = arith.index_cast %v : index to i64
    %ok = call @croqRtRequireVariant(%c0_i64, %chosen, %c3_i64)
        : (i64, i64, i64) -> i32
    croq.parallel ... the kernels of variant 3 ...
    ```

    A product this pass cannot take (tensors instead of memrefs,
    other element types, other indexing maps, inside a croq kernel) is an
    error that says why: nothing later in croq lowers linalg.

    Before:

    ```mlir
    linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
    ```

    After (in part):

    ```mlir
    croq.parallel (%bm, %bn) in [%gm, %gn] : block attributes {croq.consumers = 2 : i64} {
      %as = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
      ...
      croq.copy tma zfill swizzle = 128 %av -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      ...
      %r = croq.mma row col %acc, %fa, %fb : !croq.frag<128x64xf16>, !croq.frag<64x128xf16> -> !croq.acc<128x128xf32>
    ```
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"0",
           "Rows of every block tile (0: chosen by the cost model)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"0",
           "Columns of every block tile (0: chosen by the cost model)">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "K splits of every GEMM (0: chosen by the cost model, 1: none)">,
    Option<"clusterM", "cluster-m", "int64_t", /*default=*/"0",
           "Blocks of a thread block cluster along M, which share B's K "
           "steps by multicast (0: chosen by the cost model, 1: no "
           "cluster)">,
    Option<"clusterN", "cluster-n", "int64_t", /*default=*/"1",
           "Blocks of a thread block cluster along N, which share A's K "
           "steps by multicast (1: no cluster)">,
    Option<"streamK", "stream-k", "int64_t", /*default=*/"0",
           "Stream-K form of GEMMs (0: chosen by the cost model, 1: never, "
           "2: always, on the tiles that have it)">,
    Option<"clusterK", "cluster-k", "int64_t", /*default=*/"0",
           "K loops split among the blocks of a thread block cluster, "
           "summed through distributed shared memory (0: chosen by the "
           "cost model, 1: never, S > 1: always, in clusters of S blocks, "
           "on the 128x128, 64x128 and 128x64 tiles)">,
    Option<"f8PromoteSteps", "f8-promote-steps", "int64_t",
           /*default=*/"1",
           "K steps (128 elements each) an 8-bit float product accumulates "
           "in wgmma's partial sum before adding it into its f32 main "
           "accumulator (0: wgmma accumulates the whole K loop)">,
    ListOption<"variants", "variants", "int64_t",
               "For each product whose variant the host code chooses (in "
               "program order): the one variant to emit, or -1 for none "
               "(empty: every variant)">,
    Option<"classify", "classify", "bool", /*default=*/"false",
           "Emit no kernel: each product whose variant the host code "
           "chooses reports its choice to the runtime, other kernels are "
           "dropped, the functions stay entry points">
  ];
  let dependentDialects = [
    "::mlir::croq::CroqDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def CroqFuseLinalgAttention
    : Pass<"croq-fuse-linalg-attention", "ModuleOp"> {
  let summary = "Make attention written in linalg one flash-attention kernel";
  let description = [{
    Finds out = softmax(ops(Q K^T)) V in bufferized host code, as upstream
    lowerings of TOSA or torch emit it, and replaces the whole chain by the
    flash-attention kernel of examples/flash_attention.mlir (warp-specialized,
    K and V tiles loaded by TMA into rings, wgmma, the online softmax in
    registers), with the ops on the scores between the first product and
    the softmax computed in the kernel, on the scores of each key tile in
    registers, before the mask of keys past the end.

    The chain, op by op in program order (other ops may lie between as long
    as they leave the chain's buffers alone):

    - the scores S = Q K^T into a zero-filled f32 temporary: a
      `linalg.batch_matmul`, `linalg.matmul` or contraction `linalg.generic`
      with any number of batch loops, K read transposed through its indexing
      map or first transposed into a temporary by `linalg.transpose` (from
      K, or from another layout of static extents: the kernel's K is then a
      new buffer the same transpose fills, permuted); Q may have been
      multiplied or divided by a constant into a temporary (or the output
      buffer, which bufferization reuses for it) first;
    - any number of elementwise generics on the scores (in place or into new
      temporaries), reading constants, `linalg.index` and other buffers
      (a bias, an additive mask) through loops and zeros: a scale, a mask,
      ALiBi, a soft cap. A select of the lowest float where the key index
      is above the query index, last (or first, before a positive scale),
      makes the kernel causal (key tiles past the diagonal are skipped);
      a lone multiplication or division by a constant is the kernel's
      softmax scale; the rest runs in the kernel;
    - the softmax: the maximum over the keys (from -inf or -FLT_MAX),
      x - max and exp (one generic or two), the sum (from 0), and the
      quotient as a division, a multiplication by 1/sum in the body, or by
      a reciprocal computed into a row buffer; reductions as `linalg.reduce`
      or generics, over reshapes that add unit dimensions;
    - a conversion of the probabilities to the operands' type, then their
      product with V (read by rows) into a zero-filled buffer (the
      quotient may be computed in that product's body), converted to the
      operands' type if it was computed in f32, and copied into the
      function's buffer if it was computed in a temporary.

    Q, K, V and the output are row-major buffers of f16 or bf16 with head
    dimension 64 or 128, [batch..., rows, D] (several batch dimensions need
    static extents); the temporaries are allocations used by the chain
    only; the output may be Q's buffer (each work item's query rows are
    loaded by the block that computes the item before it stores the
    item's output), not K's, V's or a bias's. Any other chain stays as it
    is (`remarks` says why), and `convert-linalg-to-croq` compiles it op by
    op. docs/linalg-attention.md lists the forms taken and not taken.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Remark on every product: fused, or why not">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::croq::CroqDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CroqSpecializeContractions
    : Pass<"croq-specialize-contractions", "ModuleOp"> {
  let summary = "Make the contractions of host code named matrix products "
                "in layouts the GEMM kernel reads";
  let description = [{
    Frontends hand croq matrix products in many forms: `linalg.generic`
    contractions with unit loops (after `linalg-fold-unit-extent-dims` or a
    reshape), several loops per matrix dimension (heads and sequence as
    separate loops), permuted operands (a transpose folded into the
    indexing maps), elementwise producers fused into the body (upstream's
    `linalg-fuse-elementwise-ops` fuses a bias add and an activation into
    the next matmul's input), and named contractions such as `linalg.matvec`
    or `linalg.batch_reduce_matmul`. This pass makes every one that is a
    batch of matrix products a `linalg.matmul` or `linalg.batch_matmul`,
    which `convert-linalg-to-croq` compiles into the GEMM kernel.

    A contraction is a batch of matrix products when its body is
    `out + ext(x * y)` (float or signed integer; x and y computed by pure
    ops from disjoint sets of inputs, the extension optional) and each loop
    of extent above 1 is a batch loop (indexing the output and both
    factors), a row loop (the output and x), a column loop (the output and
    y), or a reduction loop (both factors, not the output), with at least
    one row, column and reduction loop. Loops of extent 1 are dropped. Each
    group of loops becomes one matrix dimension, in the order the output
    (batch, rows, columns) and the first factor read as it is (reduction)
    index them.

    An operand that is an input read as it is becomes a
    `memref.collapse_shape` view of it where its dimensions are the groups'
    loops in order (rows before or after the reduction, K-major only for
    the types the tensor cores read K-major: f32 as tf32, 8-bit floats and
    integers) and its strides merge. Any other factor (computed in the
    body, permuted, broadcast or strided) is written by an elementwise
    `linalg.generic` into a new row-major buffer, K-major, which
    `convert-linalg-to-croq` compiles like every elementwise op. The output
    is a view where it collapses so; otherwise the product is computed in a
    new buffer, with the output copied in first (or the fill right before
    the contraction applied to it) and copied back after. A fill right
    before the contraction (a `linalg.fill` or a generic that yields a
    constant) moves onto the view, where `convert-linalg-to-croq` folds a
    zero into the GEMM. The factors of different types are both converted
    to the wider.

    Named `linalg.matmul` and `linalg.batch_matmul` of 16-bit operands, and
    of other operands stored K-major, are left as they are, but for a
    `linalg.batch_matmul` of one matrix (its output's batch extent 1, as
    `tosa-to-linalg` lowers TOSA's 3-D matmul): that is a `linalg.matmul`
    of its operands viewed without their batch dimension (an operand its
    maps broadcast over the batch is taken as it is), so that it may take
    the forms of a plain product in `convert-linalg-to-croq` (K splits,
    stream-K, tiles of C^T, narrow tiles, the one-row and one-column
    forms); the zero fill right before it moves onto the output's view.
    Other named contractions are generalized first. Contractions that are not a batch
    of matrix products (a matrix-vector product, a dot product) stay: the
    reduction kernel of `convert-linalg-to-croq` computes them.

    Before (a bias add and ReLU fused into the second matmul's input,
    after `linalg-fold-unit-extent-dims`):

    ```mlir
    linalg.generic {
        indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                         affine_map<(d0, d1, d2, d3) -> (d3)>,
                         affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%h, %bias, %w : memref<4x128x512xf16>, memref<512xf16>,
                            memref<512x256xf16>)
        outs(%out : memref<4x128x256xf32>) {
    ^bb0(%x: f16, %c: f16, %y: f16, %acc: f32):
      %s = arith.addf %x, %c : f16
      %r = arith.maximumf %s, %zero : f16
      %p = arith.mulf %r, %y : f16
      %e = arith.extf %p : f16 to f32
      %sum = arith.addf %acc, %e : f32
      linalg.yield %sum : f32
    }
    ```

    After:

    ```mlir
    %a = memref.alloc() : memref<4x128x512xf16>
    linalg.generic {...} ins(%h, %bias : ...) outs(%a : ...) {
      ... %r = arith.maximumf %s, %zero : f16
      linalg.yield %r : f16
    }
    %a2 = memref.collapse_shape %a [[0, 1], [2]]
        : memref<4x128x512xf16> into memref<512x512xf16>
    %out2 = memref.collapse_shape %out [[0, 1], [2]]
        : memref<4x128x256xf32> into memref<512x256xf32>
    linalg.matmul ins(%a2, %w : memref<512x512xf16>, memref<512x256xf16>)
                  outs(%out2 : memref<512x256xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CroqFuseElementwise : Pass<"croq-fuse-elementwise", "ModuleOp"> {
  let summary = "Fuse elementwise linalg producers on buffers into their "
                "consumers";
  let description = [{
    Bufferized host code passes the result of one elementwise op to the next
    through a temporary buffer; on the GPU each op would be a kernel that
    writes the temporary to memory and one that reads it back. This pass
    recomputes such a producer inside each of its consumers instead, as
    upstream's `linalg-fuse-elementwise-ops` does on tensors: a
    `linalg.generic` whose loops are all parallel, that writes the whole of
    a buffer (its output indexed by a permutation of its loops) without
    reading it or its loop indices, is cloned into the body of every
    generic that reads the values it wrote, once per read (the consumer's
    map of the buffer composed with the producer's maps), and erased. Those
    values must be read only by generics of the same block, reading the
    buffer itself as inputs, until the buffer is written whole again (by a
    fill, or by a consumer that updates it in place, as bufferization
    leaves chains of elementwise ops when no fusion ran before it) or, for
    a temporary (`memref.alloc` of the block), to the end of the block; a
    temporary nothing reads any more goes away with its deallocations.
    Nothing between the producer and its last consumer, that consumer
    included, may write one of the producer's inputs (or a view of the
    same buffer). Consumers may be reductions: a softmax's `exp(x - max)`
    is recomputed in the sum and in the division.

    Reshapes that only add or drop dimensions of extent 1
    (`memref.expand_shape` of a row vector into N x 1, as upstream's fusion
    leaves reductions) are read through the generics' indexing maps
    instead (the source's index where the view's dimension of extent above
    1 is, 0 for a dropped one); loops of extent 1 that then index nothing
    are dropped, and a fill of such a view right before a generic that now
    writes its source fills the source.

    Bufferization reuses a temporary for a new value once its old one is
    dead (a softmax's row maxima buffer filled with zeros to hold the row
    sums). Before fusing, every temporary (a `memref.alloc` whose values do
    not leave its block) gets a new buffer of the same type at each op
    that writes it whole after its old value was used: that op writes the
    new buffer, and every later use of the temporary, or of a view of it,
    uses the new buffer (or the same view of it).

    Before:

    ```mlir
    %t = memref.alloc(%n) : memref<?xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<?xf32>) outs(%t : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%t, %y : memref<?xf32>, memref<?xf32>) outs(%out : memref<?xf32>) {
    ^bb0(%e: f32, %b: f32, %o: f32):
      %s = arith.addf %e, %b : f32
      linalg.yield %s : f32
    }
    ```

    After:

    ```mlir
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%y, %x : memref<?xf32>, memref<?xf32>) outs(%out : memref<?xf32>) {
    ^bb0(%b: f32, %a: f32, %o: f32):
      %e = math.exp %a : f32
      %s = arith.addf %e, %b : f32
      linalg.yield %s : f32
    }
    ```

    A `linalg.softmax` on buffers (upstream decomposes it on tensors only)
    is first replaced by the generics of its definition: the maximum over
    its dimension, `exp(x - max)` into a new buffer, the sum of that, and
    the quotient into the output; the exponential is then fused into the
    sum and the quotient, and the row chain of `convert-linalg-to-croq`
    computes all of it in one kernel.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CroqAllocateOnDevice : Pass<"croq-allocate-on-device", "ModuleOp"> {
  let summary = "Allocate the buffers of host code in device memory";
  let description = [{
    Bufferized host code allocates its temporaries with `memref.alloc`,
    which the host would serve from its own heap, where no kernel can reach
    them. This pass makes every `memref.alloc` of host code (outside croq
    kernels) a `gpu.alloc`, and every `memref.dealloc` a `gpu.dealloc`;
    `croq-host-entries` then queues both on the call's stream, after the
    kernels launched before them. A buffer allocated without a release (as
    one-shot-bufferize leaves them) is released at the end of the block
    that allocates it, unless it leaves that block (returned or yielded),
    where its owner releases it.

    Before:

    ```mlir
    %t = memref.alloc(%n) : memref<?xf32>
    croq.parallel (%i) in [%g] : block { ... writes %t ... }
    croq.parallel (%i) in [%g] : block { ... reads %t ... }
    return
    ```

    After:

    ```mlir
    %t = gpu.alloc (%n) : memref<?xf32>
    croq.parallel (%i) in [%g] : block { ... writes %t ... }
    croq.parallel (%i) in [%g] : block { ... reads %t ... }
    gpu.dealloc %t : memref<?xf32>
    return
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertCroqToGPU : Pass<"convert-croq-to-gpu", "ModuleOp"> {
  let summary = "Lower the data ops of croq kernels to gpu, memref, scf, "
                "vector, nvgpu and nvvm";
  let description = [{
    The dialect conversion at the heart of `croq-to-nvvm`. It runs on the
    output of the stages before it and plans nothing itself: views must be
    normalized (`croq-normalize-views`), layouts chosen
    (`croq-assign-layouts`), tensor maps emitted (`croq-emit-tensor-maps`),
    every tma load put on an event (`croq-lower-tma-futures`), shared
    memory and events planned (`croq-plan-shared-memory`,
    `croq-plan-events`) and the event phases carried
    (`croq-carry-event-phases`); input they have not prepared is an error
    naming the pass to run. It lowers each op where it stands, inside the
    `croq.parallel` and `croq.inthreads` regions that tell which threads
    run it, and leaves those regions to `convert-croq-regions-to-gpu`:

    - `croq.alloc`: a shared buffer becomes a view of the block's dynamic
      shared memory at its planned `offset`, a local one `memref.alloca`;
      `croq.stage` and `croq.span_as` views of them; views resolve to
      coordinates and bounds of their tensor or tile;
    - `dma` copies, transposes and pads are distributed over the threads of
      the executing group (block, warpgroup or one thread): coalesced,
      16-byte vector accesses where a run-time alignment check allows, a
      scalar path otherwise; edge elements are masked, or zero-filled with
      `zfill`; async copies from global to shared memory become `cp.async`
      with hardware zero-fill, and `croq.wait` waits for the group;
    - `croq.tensor_map` becomes the host's runtime calls
      (`croqRtTensorMapGetStrided`, or `croqRtTensorMapGetStaged` for a
      `staged` map, with the staging buffer released after the kernel;
      `croqRtTensorMapRequire` for a `required` one); the map's 128 bytes
      reach the kernel by value (see `croq-pass-tensor-maps-by-value`);
    - `tma` copies become bulk tensor copies of their boxes (one per
      span-wide slab, dimensions above 256 cut to 256): a load is issued by
      one thread on the mbarrier of the event slot its trigger names, which
      expects its bytes; a store is fenced for the async proxy, issued by
      one thread and drained through a bulk group, or left in flight when
      async (`croq.wait_stores` waits for it). A copy with `if %ok` takes a
      dma copy instead when the runtime could not give a map;
    - event arrays become mbarriers initialized with their planned
      `arrivals`; triggers arrive (expecting the bytes of the tma loads
      they follow); a wait try-waits on the parity its slot's bit of the
      thread's phase bits names (`!croq.phases`, an `i64`) and returns the
      bits with that bit flipped;
    - `croq.mma.fill`, `croq.mma.load`, `croq.mma` and `croq.mma.commit`
      become wgmma on shared-memory descriptors derived from the tiles'
      swizzle layouts; `croq.mma.store` stores each thread's fragment
      (stmatrix into 16-bit shared tiles);
    - `croq.foreach` is distributed over the threads that run it,
      `croq.read`/`croq.write` become masked loads and stores.

    The features it uses and the wgmma descriptor encoding come from the
    target description of the module's `croq.target` (sm_90a, or sm_80, which has neither TMA,
    wgmma nor mbarrier try-wait): a tma copy, an mma op or an event wait on
    a chip without the feature is an error naming it. An op it cannot lower
    gets an error naming it; only `croq.parallel` and `croq.inthreads` are
    left.

    Before (after the stages before it):

    ```mlir
    croq.parallel (%i) in [64] : block attributes {shared_memory = 512 : i64} {
      %t = croq.alloc offset = 0 : !croq.tile<128xf32, shared>
      %v = croq.view %a [128] from [%o] : memref<8192xf32> -> !croq.view<128xf32>
      croq.copy dma %v -> %t : !croq.view<128xf32> -> !croq.tile<128xf32, shared>
    }
    ```

    After (abridged):

    ```mlir
    croq.parallel (%i) in [64] : block attributes {shared_memory = 512 : i64} {
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %t = memref.view %smem[%c0][] : ... to memref<128xf32, #gpu.address_space<workgroup>>
      scf.for %e = %tid to %c32 step %c128 {
        ... vector.load %a[...] {alignment = 16} : memref<8192xf32>, vector<4xf32>
        ... vector.store ...
      }
      gpu.barrier
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertCroqRegionsToGPU
    : Pass<"convert-croq-regions-to-gpu", "ModuleOp"> {
  let summary = "Lower croq.parallel to gpu.launch and thread-level regions "
                "and warp roles to guards";
  let description = [{
    Runs after `convert-croq-to-gpu`, whose patterns need the regions to
    know which threads run an op. Innermost first:

    - a block-level `croq.parallel` becomes `gpu.launch`: one block per
      point (the last dimension on x), as many threads as its warpgroup and
      thread regions need (128 otherwise), and the dynamic shared memory
      `croq-plan-shared-memory` recorded (`shared_memory`); the function
      gets a C interface;
    - a warpgroup-level region becomes the warpgroup index `tid / 128`,
      guarded where the block has more warpgroups; a thread-level region the
      thread's index in its block or warpgroup, guarded where the group has
      more threads;
    - `croq.inthreads` becomes `scf.if` on its condition, followed by a
      barrier of the enclosing group unless `async`; a role with
      `registers = N` (`croq-plan-registers`) first sets its register count
      with `setmaxnreg`: a decrease when N is below what every thread of
      the block starts with (the register file of the module's `croq.target`
      over the block's
      threads), an increase otherwise.

    Any other croq op left is an error naming `convert-croq-to-gpu`.

    Before:

    ```mlir
    croq.parallel (%i) in [64] : block attributes {shared_memory = 512 : i64} {
      croq.parallel (%t) in [128] : thread {
        ... %t ...
      }
    }
    ```

    After:

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %c512_i32 {
      %t = gpu.thread_id x
      ... %t ...
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CroqExternDynamicSharedMemory
    : Pass<"croq-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the kernels' dynamic shared memory an aligned extern";
  let description = [{
    `convert-gpu-to-nvvm` gives `gpu.dynamic_shared_memory` an internal
    zero-sized `addr_space = 3` global with 16-byte alignment, which the
    NVPTX back end demotes to a 1-byte static `.shared` variable: data placed
    past it only works by accident, and it is not aligned for swizzled TMA
    tiles. This pass gives such globals external linkage and the requested
    alignment, so the PTX declares
    `.extern .shared .align 1024 .b8 name[]`, the dynamic shared memory
    window itself.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"1024",
           "alignment of the dynamic shared memory in bytes">
  ];
}

def CroqPassTensorMapsByValue
    : Pass<"croq-pass-tensor-maps-by-value", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the kernels' tensor-map parameters grid-constant "
                "byval parameters";
  let description = [{
    `convert-croq-to-gpu` hands each tma copy's tensor map to its kernel as
    128 bytes (`vector<16xi64>`, loaded on the host from the runtime's
    cache), which the kernel turns into the `!nvgpu.tensormap.descriptor`
    its bulk copies take through `builtin.unrealized_conversion_cast`; after
    `convert-nvgpu-to-nvvm` and `convert-gpu-to-nvvm` that is a chain of
    casts from the parameter to `!llvm.ptr`. This pass makes every such
    parameter of a kernel (`llvm.func` with `nvvm.kernel`) an
    `!llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64,
    nvvm.grid_constant}` and the casts' pointers its address: the PTX
    parameter is `.param .align 64 .b8 name[128]` (CUDA's
    `const __grid_constant__ CUtensorMap`), and `cp.async.bulk.tensor` reads
    the map through its generic address without copying it. The launch
    still passes the 128 bytes by value. A 128-byte parameter used any other
    way is left alone.

    Before:

    ```mlir
    llvm.func @k(%map: vector<16xi64>) attributes {nvvm.kernel} {
      %d = builtin.unrealized_conversion_cast %map : vector<16xi64> to !nvgpu.tensormap.descriptor<...>
      %p = builtin.unrealized_conversion_cast %d : !nvgpu.tensormap.descriptor<...> to !llvm.ptr
      ... %p ...
    }
    ```

    After:

    ```mlir
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
      ... %map ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CroqPrefetchTensorMaps
    : Pass<"croq-prefetch-tensor-maps", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Prefetch a kernel's tensor maps at its entry";
  let description = [{
    A bulk tensor copy reads its tensor map from the kernel's parameters;
    the first copy of a block that finds the map uncached waits for it
    before its own request goes out, a latency every block of a short
    kernel pays once. This pass makes the first thread of each block
    (`tid.x == 0`) of every kernel (`llvm.func` with `nvvm.kernel`)
    prefetch each of the kernel's tensor maps at entry (`prefetch.tensormap`,
    `nvvm.prefetch tensormap`), as the parameters that
    `croq-pass-tensor-maps-by-value` made grid-constant byval pointers to
    128 bytes. A kernel without such parameters is left alone.

    Before:

    ```mlir
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
      ...
    }
    ```

    After:

    ```mlir
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %first = llvm.icmp "eq" %tid, %zero : i32
      nvvm.prefetch tensormap, %map, predicate = %first : !llvm.ptr, i1
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def CroqRegisterReallocatingKernels
    : Pass<"croq-register-reallocating-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Tell ptxas the register count at entry of warp-specialized "
                "kernels";
  let description = [{
    `convert-croq-regions-to-gpu` makes the producer and consumer roles of a
    warp-specialized kernel change their register counts with `setmaxnreg`.
    ptxas ignores those (warning C7508, "unable to determine register count
    at entry") unless it knows how many blocks share an SM. This pass gives
    every kernel (`llvm.func` with `nvvm.kernel`) that contains
    `nvvm.setmaxregister` the attribute `nvvm.minctasm = 1` (PTX
    `.minnctapersm 1`): with `.maxntid`, that fixes the registers each thread
    has at entry, 65536 / threads, from which the roles trade.
  }];
}

def CroqAttachNVVMTarget : Pass<"croq-attach-nvvm-target", "ModuleOp"> {
  let summary = "Attach an NVVM target for the module's chip to its GPU "
                "modules";
  let description = [{
    `croq-to-nvvm` compiles each `gpu.module` for the chip the module's
    `croq.target` names (sm_90a where it names none): this pass adds
    `#nvvm.target` with that chip, the given PTX features and optimization
    level to the `targets` of every `gpu.module` directly in the module,
    which `gpu-module-to-binary` then compiles for. It is upstream's
    `nvvm-attach-target` with the chip read from the IR rather than from an
    option, so that the chip is named once.

    Before (in a module with `croq.target = "sm_90a"`):

    ```mlir
    gpu.module @k_kernel { ... }
    ```

    After:

    ```mlir
    gpu.module @k_kernel [#nvvm.target<O = 3, chip = "sm_90a",
                                       features = "+ptx80">] { ... }
    ```
  }];
  let options = [
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features (PTX ISA version)">,
    Option<"optLevel", "opt-level", "int", /*default=*/"3",
           "optimization level of NVVM codegen">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def CroqCheckInput : Pass<"croq-check-input", "ModuleOp"> {
  let summary = "Decline input that the upstream passes of croq-to-nvvm "
                "would crash on";
  let description = [{
    The first pass of croq's bufferization (which `croq-to-nvvm` runs after
    `croq-set-target`, and `croq-translate` before it reads a tensor
    function's signature). Some IR verifies upstream and then crashes an
    upstream pass that croq runs on it, and some ops no pass of
    `croq-to-nvvm` lowers; this pass reports each such op with its
    location and fails instead. It checks:

    - `tensor.pad` whose `low` or `high` list holds `ShapedType::kDynamic`
      (-9223372036854775808) more or fewer times than the op has `low` or
      `high` operands: its parser and verifier take the value for a
      dynamic entry without an operand, and one-shot-bufferize reads past
      the op's operands.

    ```mlir
    // error: 'tensor.pad' op has 1 dynamic entries in its high padding
    // (-9223372036854775808 is ShapedType::kDynamic) and 0 high operands
    %p = tensor.pad %x low[0, 0] high[0, -9223372036854775808] { ... }
    ```

    - any TOSA op (croq takes linalg; `tosa-to-arith` leaves
      `tosa.apply_scale` in the bodies `tosa.rescale` becomes unless
      `include-apply-rescale` is set): the message names the upstream
      passes that lower it;
    - in the body of a linalg op, which becomes a kernel's computation,
      `arith.remf` (a floating-point remainder) and `math.ipowi` (an
      integer power), which croq's kernels do not compute. On the host
      they are the host's to compute;
    - a memref whose layout is not strided (an affine map of several
      results), at the function that takes it or the op that makes it.
  }];
}

def CroqCheckLowering : Pass<"croq-check-lowering", "ModuleOp"> {
  let summary = "Fail on any op that croq-to-nvvm did not lower to LLVM";
  let description = [{
    The last pass of `croq-to-nvvm`. Upstream conversions leave ops they
    cannot convert in place (`gpu-to-llvm`, `convert-func-to-llvm` and
    others only convert what they know), and the IR would print without a
    word, to fail only when it is translated. This pass reports each such op
    with its location and fails. Host code may hold LLVM dialect ops,
    `gpu.launch_func` and `gpu.binary` (or, without binaries, `gpu.module`
    with LLVM and NVVM dialect ops inside).

    ```mlir
    // error: 'tensor.empty' op was not lowered to the LLVM dialect by
    // croq-to-nvvm; no conversion in the pipeline handles it
    %t = tensor.empty() : tensor<4xf32>
    ```
  }];
}

#endif // CROQ_CONVERSION_PASSES_TD
