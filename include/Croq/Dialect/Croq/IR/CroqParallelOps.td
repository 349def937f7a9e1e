//===- CroqParallelOps.td - parallel regions ---------------*- tablegen -*-===//
//
// The ops that open parallel regions: croq.parallel over blocks, warpgroups or
// threads, and croq.inthreads, the region a subset of them runs. Included by
// CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQPARALLELOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQPARALLELOPS_TD

//===----------------------------------------------------------------------===//
// Parallel regions
//===----------------------------------------------------------------------===//

def Croq_ParallelOp : Croq_Op<"parallel", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "a parallel region over blocks, warpgroups or threads";
  let description = [{
    The `croq.parallel` op runs its body once for every point of an
    iteration space, at one hardware level: `block` (thread blocks of the
    grid), `warpgroup` (groups of four warps inside a block) or `thread`
    (threads inside the enclosing block or warpgroup). The body's block
    arguments are the coordinates; extents are static integers or `index`
    values. This is Croqtile's `parallel {i, j} by [m, n] : block`; a
    `group-4` level is `warpgroup`.

    A `warpgroup` or `thread` region must be nested in a `block` region.

    `shared_memory`, set on a `block` region by `croq-plan-shared-memory`,
    is the number of bytes of dynamic shared memory its shared buffers take
    (their offsets are on their `croq.alloc` ops).

    `cluster [c0, ...]` on a `block` region launches its blocks in thread
    block clusters (sm_90) of that shape, one size per dimension of the
    grid: the blocks of a cluster run at the same time on one GPC and may
    synchronize with `croq.cluster.barrier`; `croq.cluster.rank` is a
    block's place in its cluster. Every extent must be a multiple of the
    cluster's size in its dimension (checked when the launch runs for
    extents that are values), and a cluster has at most 8 blocks.

    Example:

    ```mlir
    croq.parallel (%tr, %tc) in [4, 8] : block {
      croq.parallel (%t) in [128] : thread {
      }
    }
    croq.parallel (%b) in [16] : block cluster [2] {
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicExtents,
                       DenseI64ArrayAttr:$staticExtents,
                       Croq_ParallelLevel:$level,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:
                           $shared_memory,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The coordinates of the region, one per dimension.
    Block::BlockArgListType getInductionVars() {
      return getBody().front().getArguments();
    }
    /// The extents as static integers or values.
    SmallVector<OpFoldResult> getMixedExtents();
    /// The number of dimensions.
    unsigned getRank() { return getStaticExtents().size(); }
    /// The most blocks a cluster may have (the portable size of sm_90).
    static constexpr int64_t kMaxClusterBlocks = 8;
    /// Checks the cluster shape against the level and the grid.
    LogicalResult verifyCluster();
    /// The blocks of one cluster: the product of the cluster's sizes, 1
    /// without clusters.
    int64_t getClusterBlocks();
  }];
}

def Croq_InthreadsOp : Croq_Op<"inthreads", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "a region run by the threads for which a condition holds";
  let description = [{
    The `croq.inthreads` op runs its body only on the threads (or warpgroups)
    of the enclosing parallel region for which `condition` is true. With
    `async`, the threads that do not run it do not wait for it: this is how
    the producer and consumer roles of a warp-specialized kernel are written
    (Croqtile's `inthreads.async (p == 0) { ... }`). Without `async`, every
    thread of the enclosing region synchronizes after the body.

    `registers = N`, set on the roles of a warp-specialized block by
    `croq-plan-registers`, is the register count the role's threads set on
    entry (`setmaxnreg`): fewer than the block starts with for producers,
    more for consumers.

    Example:

    ```mlir
    croq.parallel (%p) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %is_producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %is_producer {
      }
    }
    ```
  }];
  let arguments = (ins I1:$condition, UnitAttr:$async,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<24>,
                                                           IntMaxValue<256>]>>:
                           $registers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`async` $async^)? $condition (`registers` `=` $registers^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

#endif // CROQ_DIALECT_CROQ_IR_CROQPARALLELOPS_TD
