//===- CroqPCH.h - the MLIR headers croq's libraries share ------*- C++ -*-===//
//
// Precompiled once (CROQ_ENABLE_PCH) and force-included into every source
// of croq's dialect, transform, conversion and target libraries: parsing
// these MLIR and LLVM headers took most of each file's compile time (a
// typical conversion file: 22 s of which 19 s before code generation, 5.5 s
// with this header precompiled, on a 2-core machine). Only headers from the
// MLIR/LLVM installation belong here: croq's own headers change with the
// code and would make every change rebuild the header.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_CMAKE_PCH_CROQPCH_H
#define CROQ_CMAKE_PCH_CROQPCH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

#endif // CROQ_CMAKE_PCH_CROQPCH_H
