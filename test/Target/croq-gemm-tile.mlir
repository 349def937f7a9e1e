// UNSUPPORTED: sanitizers
// (under sanitizers: croq's passes on this input, chosen and forced, in
// Integration/GPU/sanitized-inputs.test)
// RUN: croq-translate --croq-to-ptx %s | FileCheck %s --check-prefix=CHOSEN
// RUN: croq-translate --croq-to-ptx --croq-gemm-tile=64,128 --croq-gemm-split-k=1 --croq-gemm-cluster=1,1 %s | FileCheck %s --check-prefix=FORCED
// RUN: croq-translate --croq-to-ptx --croq-gemm-tile=64,128 %s | FileCheck %s --check-prefix=SPLITTABLE
// RUN: not croq-translate --croq-to-ptx --croq-gemm-tile=128,256 --croq-gemm-split-k=4 %s 2>&1 | FileCheck %s --check-prefix=UNSPLITTABLE
// RUN: not croq-translate --croq-to-ptx --croq-gemm-tile=64 %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not croq-translate --croq-to-ptx --croq-gemm-tile=96,128 %s 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: croq-translate --croq-to-ptx --croq-gemm-cluster=1,1 %s | FileCheck %s --check-prefix=ALONE
// RUN: croq-translate --croq-to-ptx --croq-gemm-tile=128,192 --croq-gemm-cluster=2,1 %s | FileCheck %s --check-prefix=CLUSTERED
// RUN: not croq-translate --croq-to-ptx --croq-gemm-cluster=2 %s 2>&1 | FileCheck %s --check-prefix=CLUSTERONE
// RUN: croq-translate --croq-to-ptx --croq-gemm-tile=128,192 --croq-gemm-stream-k=2 %s | FileCheck %s --check-prefix=STREAMK

// With dynamic shapes the host chooses among the kernels of every tile:
// 128x256, 128x192, 128x128 and 64x128, each alone or in clusters of two
// blocks that share B (multicast); 128x224, 128x176, 128x160 and 128x144
// (B's tile N-major, padded to whole 128-byte spans); 192x192 alone (three
// consumer warpgroups); 128x64 alone (one consumer warpgroup); 128x128,
// 64x128 and 128x64 split too (a partial-product kernel and a reduction);
// 128x256, 128x192, 128x224, 128x160 and 128x128 in stream-K form too (the
// whole waves, the blocks' ranges of K steps and the reduction); 64x128 and
// 128x64 with their K loop split in clusters of 2 blocks; the sixteen
// tiles of C^T (64x16 to 64x208, 128x80 to 128x208 and 192x160, A and B's
// roles swapped), 64x16 and 64x64 also with their K loop split in
// clusters, 128x160, 128x176 and 64x80 to 64x112 also in clusters of two;
// the narrow tiles 64x16, 64x32 and 64x64, whole, split in clusters and in
// clusters of two, 64x64 whole also with six stages (two blocks to a
// multiprocessor), alone and in clusters; and,
// where N is 1, the six kernels of the product of one row C^T = B^T A^T
// (64x128 whole, split and split in clusters, 64x16 of C^T whole and split
// in clusters). A forced tile leaves its kernels, a forced tile that is
// not split, alone (or forced into clusters) one kernel; no clusters leave
// the 40 kernels without them (and without the stream-K form, which the
// model chooses with its clusters).
// CHOSEN-COUNT-77: .entry product_kernel
// CHOSEN-NOT: .entry
// ALONE-COUNT-40: .entry product_kernel
// ALONE-NOT: .entry
// ALONE-NOT: multicast
// CLUSTERED-COUNT-1: .entry product_kernel
// CLUSTERED-NOT: .entry
// CLUSTERED: multicast::cluster
// CLUSTERONE: error: --croq-gemm-cluster takes m,n, got 1 numbers
// STREAMK-COUNT-3: .entry product_kernel
// STREAMK-NOT: .entry
// SPLITTABLE-COUNT-5: .entry product_kernel
// SPLITTABLE-NOT: .entry
// FORCED: .entry product_kernel
// FORCED-NOT: .entry
// FORCED: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// FORCED-NOT: .entry
// UNSPLITTABLE: error: 'linalg.matmul' op convert-linalg-to-croq splits the K loop of 128x128, 64x128 and 128x64 tiles only, got split-k=4 with a tile of 128x256
// ONE: error: --croq-gemm-tile takes rows,cols, got 1 numbers
// SHAPE: error: 'linalg.matmul' op convert-linalg-to-croq computes tiles of 128x256, 128x192, 128x224, 128x176, 128x160, 128x144, 128x128, 64x128, 192x192, 128x64, 64x16, 64x32 or 64x64 result elements, got 96x128
func.func @product(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
