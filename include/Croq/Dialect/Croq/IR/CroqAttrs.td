//===- CroqAttrs.td - croq enums and attributes ------------*- tablegen -*-===//
//
// Enumerations used by croq types and ops: memory spaces, swizzle layouts,
// copy engines, tensor map modes, parallel levels, mma operand layouts, accumulator axes and
// reductions.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQATTRS_TD
#define CROQ_DIALECT_CROQ_IR_CROQATTRS_TD

include "Croq/Dialect/Croq/IR/CroqDialect.td"
include "mlir/IR/EnumAttr.td"

def Croq_MemorySpace : I32EnumAttr<"MemorySpace", "croq memory space", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Local", 2, "local">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_Swizzle : I32EnumAttr<"Swizzle", "shared-memory swizzle layout", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Auto", 1, "auto">,
    I32EnumAttrCase<"B32", 32, "32">,
    I32EnumAttrCase<"B64", 64, "64">,
    I32EnumAttrCase<"B128", 128, "128">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_CopyEngine : I32EnumAttr<"CopyEngine", "copy engine", [
    I32EnumAttrCase<"DMA", 0, "dma">,
    I32EnumAttrCase<"TMA", 1, "tma">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_TensorMapMode : I32EnumAttr<"TensorMapMode", "tensor map mode", [
    I32EnumAttrCase<"Tiled", 0, "tiled">,
    I32EnumAttrCase<"Im2col", 1, "im2col">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_ParallelLevel : I32EnumAttr<"ParallelLevel", "parallel level", [
    I32EnumAttrCase<"Block", 0, "block">,
    I32EnumAttrCase<"Warpgroup", 1, "warpgroup">,
    I32EnumAttrCase<"Thread", 2, "thread">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_MmaLayout : I32EnumAttr<"MmaLayout", "mma operand layout", [
    I32EnumAttrCase<"Row", 0, "row">,
    I32EnumAttrCase<"Col", 1, "col">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_AccAxis : I32EnumAttr<"AccAxis", "accumulator axis", [
    I32EnumAttrCase<"Rows", 0, "rows">,
    I32EnumAttrCase<"Cols", 1, "cols">
  ]> {
  let cppNamespace = "::mlir::croq";
}

def Croq_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Sum", 2, "sum">
  ]> {
  let cppNamespace = "::mlir::croq";
}

#endif // CROQ_DIALECT_CROQ_IR_CROQATTRS_TD
