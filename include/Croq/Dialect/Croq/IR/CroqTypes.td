//===- CroqTypes.td - croq type definitions ----------------*- tablegen -*-===//
//
// Types of the croq dialect: on-chip tiles and stage arrays of them, views,
// futures, event arrays, mma accumulators, mma operand fragments and vectors
// of per-row or per-column values of accumulators.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQTYPES_TD
#define CROQ_DIALECT_CROQ_IR_CROQTYPES_TD

include "Croq/Dialect/Croq/IR/CroqAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Croq_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Croq_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Croq_TileType : Croq_Type<"Tile", "tile",
    [DeclareTypeInterfaceMethods<ShapedTypeInterface, ["cloneWith"]>]> {
  let summary = "an on-chip buffer with a memory space and a physical layout";
  let description = [{
    A `!croq.tile` is a statically shaped buffer in shared memory (visible to
    every thread of a block) or in local memory (private to each thread).
    Shared tiles also carry their physical layout: the swizzle the copy
    engines and the tensor cores use to address them. `swizzle = auto` lets
    the swizzle-layout pass choose the largest swizzle the inner dimension
    fills; an omitted swizzle means `none`.

    Example:

    ```mlir
    !croq.tile<16x16xi32, shared>
    !croq.tile<128x64xf16, shared, swizzle = 128>
    !croq.tile<8x8xf32, local>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "MemorySpace":$memorySpace,
    "Swizzle":$swizzle
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of elements of the tile.
    int64_t getNumElements() const;
    /// Size of the tile in bytes.
    int64_t getSizeInBytes() const;
    /// Whether the tile lives in shared memory.
    bool isShared() const { return getMemorySpace() == MemorySpace::Shared; }
  }];
}

def Croq_TilesType : Croq_Type<"Tiles", "tiles"> {
  let summary = "a stage array of identical on-chip tiles";
  let description = [{
    A `!croq.tiles` is an array of identically typed tiles, the stages of a
    software pipeline. `croq.stage` selects one of them.

    Example:

    ```mlir
    !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    ```
  }];
  let parameters = (ins
    "int64_t":$numStages,
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "MemorySpace":$memorySpace,
    "Swizzle":$swizzle
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The type of one stage.
    TileType getTileType() const;
  }];
}

def Croq_ViewType : Croq_Type<"View", "view",
    [DeclareTypeInterfaceMethods<ShapedTypeInterface, ["cloneWith"]>]> {
  let summary = "a rectangular window of a tensor or of a tile";
  let description = [{
    A `!croq.view` selects a rectangular region of a global tensor
    (`memref`) or of an on-chip tile, as produced by `croq.chunkat`,
    `croq.subspan` and `croq.view`. Dimensions may be dynamic. A view may run
    past the edge of what it views: copies mask the out-of-range part or
    zero-fill it (`zfill`). Views of shared tiles keep the tile's swizzle.

    Example:

    ```mlir
    !croq.view<16x16xi32>
    !croq.view<?x64xf16>
    !croq.view<64x16xf16, shared, swizzle = 128>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "MemorySpace":$memorySpace,
    "Swizzle":$swizzle
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Croq_FutureType : Croq_Type<"Future", "future"> {
  let summary = "the completion of an asynchronous copy";
  let description = [{
    A `!croq.future` is produced by an asynchronous copy. `croq.wait` (or a
    `croq.event.trigger ... after`) consumes it, at most once.

    Example:

    ```mlir
    !croq.future
    ```
  }];
}

def Croq_TensorMapType : Croq_Type<"TensorMap", "tensor_map"> {
  let summary = "a TMA tensor map of a global tensor";
  let description = [{
    A `!croq.tensor_map` is the 128-byte descriptor (CUDA's `CUtensorMap`)
    through which the tensor memory accelerator moves boxes of a global
    tensor. `croq.tensor_map` asks the runtime for one on the host, before
    the kernel that uses it; the kernel's `tma` copies take it as an
    operand.

    `!croq.tensor_map<im2col>` is a map in im2col mode, made by
    `croq.im2col_map` and read by `croq.im2col` loads: it moves columns of
    pixels (the patches of a convolution) rather than boxes.

    Example:

    ```mlir
    !croq.tensor_map
    !croq.tensor_map<im2col>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"TensorMapMode",
                                               "TensorMapMode::Tiled">:$mode);
  let assemblyFormat = "(`<` $mode^ `>`)?";
}

/// A tensor map in tiled mode (`croq.tensor_map`, `tma` copies).
def Croq_TiledTensorMap : Type<
    And<[CPred<"::llvm::isa<::mlir::croq::TensorMapType>($_self)">,
         CPred<"::llvm::cast<::mlir::croq::TensorMapType>($_self).getMode() "
               "== ::mlir::croq::TensorMapMode::Tiled">]>,
    "a tiled TMA tensor map (!croq.tensor_map)",
    "::mlir::croq::TensorMapType">,
    BuildableType<"::mlir::croq::TensorMapType::get($_builder.getContext(), "
                  "::mlir::croq::TensorMapMode::Tiled)">;

/// A tensor map in im2col mode (`croq.im2col_map`, `croq.im2col` loads).
def Croq_Im2colTensorMap : Type<
    And<[CPred<"::llvm::isa<::mlir::croq::TensorMapType>($_self)">,
         CPred<"::llvm::cast<::mlir::croq::TensorMapType>($_self).getMode() "
               "== ::mlir::croq::TensorMapMode::Im2col">]>,
    "an im2col TMA tensor map (!croq.tensor_map<im2col>)",
    "::mlir::croq::TensorMapType">,
    BuildableType<"::mlir::croq::TensorMapType::get($_builder.getContext(), "
                  "::mlir::croq::TensorMapMode::Im2col)">;

def Croq_EventsType : Croq_Type<"Events", "events"> {
  let summary = "an array of shared-memory events";
  let description = [{
    A `!croq.events<N>` is an array of N events shared by the threads of a
    block; `croq.event.trigger` and `croq.event.wait` act on one slot. Events
    lower to mbarriers whose phase the compiler tracks (`!croq.phases`: one
    bit per slot in 64 bits per thread), so arrays of more than 64 slots are
    not lowered.

    Example:

    ```mlir
    !croq.events<4>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The most slots an array may have to be lowered: a thread keeps its
    /// phases of an array in one 64-bit mask.
    static constexpr int64_t kMaxLoweredSlots = 64;
  }];
}

def Croq_PhasesType : Croq_Type<"Phases", "phases"> {
  let summary = "a thread's phase bits of an event array";
  let description = [{
    A `!croq.phases<N>` holds, for each of the N slots of an event array,
    the parity of the slot's next phase that this thread waits for. It is
    what the compiler tracks so that programs never do phase arithmetic:
    `croq-carry-event-phases` starts it with `croq.event.phases`, passes it
    to each `croq.event.wait`, which returns it with the slot's bit
    flipped, and carries it through loops and branches as an SSA value. It
    lowers to an `i64`.

    Example:

    ```mlir
    !croq.phases<4>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def Croq_AccType : Croq_Type<"Acc", "acc"> {
  let summary = "an mma accumulator held in registers";
  let description = [{
    A `!croq.acc` is an M x N matrix accumulator distributed over the
    registers of the warpgroup that runs the mma.

    Example:

    ```mlir
    !croq.acc<64x256xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Croq_FragType : Croq_Type<"Frag", "frag"> {
  let summary = "an mma operand in shared memory or in registers";
  let description = [{
    A `!croq.frag` is an mma operand (A or B). As `croq.mma.load` reads it
    from a shared tile it is, on Hopper, a shared-memory matrix descriptor
    whose layout comes from the tile's swizzle. With `registers` it is an A
    operand held in the registers of the warpgroup, as `croq.mma.convert`
    makes it from an accumulator (wgmma with A from registers).

    Example:

    ```mlir
    !croq.frag<64x64xf16>
    !croq.frag<64x128xf16, registers>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "Type":$elementType,
                        DefaultValuedParameter<"bool", "false">:$inRegisters);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Croq_VecType : Croq_Type<"Vec", "vec"> {
  let summary = "one value per row or per column of an accumulator";
  let description = [{
    A `!croq.vec` holds one value for each row (`rows`) or each column
    (`cols`) of an accumulator, in the registers of the warpgroup that holds
    the accumulator: every thread keeps the values of the rows or columns
    its accumulator fragments cover. `croq.mma.reduce` makes one,
    `croq.vec.map` computes on it and `croq.mma.map` broadcasts it against
    an accumulator: the row maximum and row sum of an online softmax, a
    bias per column.

    Example:

    ```mlir
    !croq.vec<64xf32, rows>
    ```
  }];
  let parameters = (ins "int64_t":$size, "Type":$elementType,
                        "AccAxis":$axis);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // CROQ_DIALECT_CROQ_IR_CROQTYPES_TD
