//===- CroqIm2colOps.td - TMA copies in im2col mode --------*- tablegen -*-===//
//
// The ops of a TMA load in im2col mode, which gathers the patches of a
// convolution (pixels x channels) of an N, spatial..., C tensor into a shared
// tile: the host's tensor map in im2col mode and the load. Included by
// CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQIM2COLOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQIM2COLOPS_TD

def Croq_Im2colMapOp : Croq_Op<"im2col_map",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "asks the runtime for a TMA tensor map in im2col mode";
  let description = [{
    The `croq.im2col_map` op runs on the host before a kernel: it asks the
    runtime for the im2col tensor map of `tensor`, a channels-last tensor of
    rank 3 to 5 (N, then one to three spatial dimensions such as H and W,
    then C), for the `croq.im2col` loads of the kernel. The lists below give
    one value per spatial dimension, outermost first.

    Each load moves a column of `pixels` pixels (at most 1024) and
    `channels` channels of each (at most 256; a multiple of 16 bytes, and at
    most the swizzle span when `swizzle` is not `none`) into a
    `pixels x channels` shared tile. The pixels of a column are the
    positions of a filter tap over the output of a convolution: starting at
    the load's pixel, they step by `strides` (the convolution's strides, 1
    to 8) through the bounding box whose corners are `lower` (relative to
    the tensor's first pixel) and `upper` (relative to its last), innermost
    spatial dimension first, then the next image. A negative `lower` pads:
    the pixels the box covers outside the tensor read zero. For a
    convolution with padding `pad`, dilation `d` and filter extent `k`
    along a dimension, `lower = -pad_before` and
    `upper = pad_after - d * (k - 1)`. Corners range over [-32768, 32767]
    for rank 3, [-128, 127] for rank 4 and [-16, 15] for rank 5, and the
    box must hold a pixel.

    The map is required: a launch whose tensor TMA cannot map (address or
    strides not 16-byte aligned, ...) is refused with the rule it broke, as
    `croq.im2col` loads have no software copy.

    Example:

    ```mlir
    %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$tensor,
                       ConfinedAttr<I64Attr, [IntMinValue<1>,
                                              IntMaxValue<1024>]>:$pixels,
                       ConfinedAttr<I64Attr, [IntMinValue<1>,
                                              IntMaxValue<256>]>:$channels,
                       DenseI32ArrayAttr:$lower, DenseI32ArrayAttr:$upper,
                       DenseI64ArrayAttr:$strides, Croq_Swizzle:$swizzle);
  let results = (outs Croq_Im2colTensorMap:$map);
  let assemblyFormat = [{
    $tensor `pixels` $pixels `channels` $channels `lower` $lower `upper` $upper
    `strides` $strides `` custom<OptionalSwizzle>($swizzle) attr-dict
    `:` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

def Croq_Im2colOp : Croq_Op<"im2col", [AttrSizedOperandSegments]> {
  let summary = "loads a column of convolution patches by TMA in im2col mode";
  let description = [{
    The `croq.im2col` op loads, by the tensor memory accelerator, one column
    of the im2col matrix of `tensor` into the shared tile `dest`: row `i`
    of the tile holds the channels `[c, c + channels)` of the `i`-th pixel
    of the column that starts at the pixel `[n, spatial...]` of the
    coordinates `[n, spatial..., c]`, each pixel displaced by `offsets`
    (one per spatial dimension, outermost first: the filter tap times the
    dilation, 0 to 65535). `map` is the tensor's im2col map
    (`croq.im2col_map`), which fixes the column's length, the channels, the
    stepping and the padding; the tile is `pixels x channels` of the
    tensor's element type, with the map's swizzle. Pixels in the padding,
    past the last image or channels past C read zero.

    The coordinates of the starting pixel are those of the first output
    position of the column times the strides, less the padding: they may be
    negative. The load is issued by one thread of the executing block;
    `async` returns a `!croq.future` to `croq.wait` on, or to trigger an
    event after, as for `tma` copies.

    Example:

    ```mlir
    %f = croq.im2col async %x[%n, %h, %w, %c] offsets [%r, %s] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "read", [MemRead]>:$tensor,
                       Arg<Croq_TileType, "written", [MemWrite]>:$dest,
                       Variadic<Index>:$coords, Variadic<Index>:$offsets,
                       Croq_Im2colTensorMap:$map);
  let results = (outs Optional<Croq_FutureType>:$future);
  let assemblyFormat = [{
    `` custom<AsyncResult>(type($future)) $tensor `[` $coords `]`
    `offsets` ` ` `[` $offsets `]` `->` $dest `map` $map attr-dict
    `:` qualified(type($tensor)) `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isAsync() { return getFuture() != nullptr; }
    /// The croq.event.trigger that consumes this load's future, if that is
    /// the future's one use.
    EventTriggerOp getTrigger();
    /// The croq.im2col_map that made this load's map, if visible.
    Im2colMapOp getMapOp();
  }];
}

#endif // CROQ_DIALECT_CROQ_IR_CROQIM2COLOPS_TD
