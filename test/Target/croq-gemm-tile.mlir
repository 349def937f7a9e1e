// RUN: croq-translate --croq-to-ptx %s | FileCheck %s --check-prefix=CHOSEN
// RUN: croq-translate --croq-to-ptx --croq-gemm-tile=64,128 %s | FileCheck %s --check-prefix=FORCED
// RUN: not croq-translate --croq-to-ptx --croq-gemm-tile=64 %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not croq-translate --croq-to-ptx --croq-gemm-tile=96,128 %s 2>&1 | FileCheck %s --check-prefix=SHAPE

// With dynamic shapes the host chooses among a kernel per tile; a forced
// tile leaves one kernel.
// CHOSEN-COUNT-3: .entry product_kernel
// FORCED: .entry product_kernel
// FORCED-NOT: .entry
// FORCED: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// FORCED-NOT: .entry
// ONE: error: --croq-gemm-tile takes rows,cols, got 1 numbers
// SHAPE: error: 'linalg.matmul' op convert-linalg-to-croq computes tiles of 128x256, 128x128 or 64x128 result elements, got 96x128
func.func @product(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
