// RUN: not croq-opt %s --convert-linalg-to-croq="tile-m=96 tile-n=128" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not croq-opt %s --convert-linalg-to-croq="tile-m=128" 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not croq-opt %s --croq-set-target=chip=sm_70 --convert-linalg-to-croq 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not croq-opt %s --croq-set-target=chip=sm_80 --convert-linalg-to-croq="tile-m=128 tile-n=224" -split-input-file 2>&1 | FileCheck %s --check-prefix=ROOM
// RUN: not croq-opt %s --convert-linalg-to-croq="split-k=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not croq-opt %s --convert-linalg-to-croq="split-k=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=256 split-k=4" 2>&1 | FileCheck %s --check-prefix=UNSPLITTABLE
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-m=4 cluster-n=4" 2>&1 | FileCheck %s --check-prefix=CLUSTER2D
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-m=16" 2>&1 | FileCheck %s --check-prefix=CLUSTERBIG
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-m=-1" 2>&1 | FileCheck %s --check-prefix=CLUSTERZERO
// RUN: not croq-opt %s --convert-linalg-to-croq="stream-k=3" 2>&1 | FileCheck %s --check-prefix=STREAMK3
// RUN: not croq-opt %s --convert-linalg-to-croq="stream-k=2 tile-m=64 tile-n=128" 2>&1 | FileCheck %s --check-prefix=STREAMKTILE
// RUN: not croq-opt %s --convert-linalg-to-croq="stream-k=2 cluster-m=2" 2>&1 | FileCheck %s --check-prefix=STREAMKCLUSTER
// RUN: not croq-opt %s --convert-linalg-to-croq="stream-k=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=STREAMKBATCH

// SHAPE: error: 'linalg.matmul' op convert-linalg-to-croq computes tiles of 128x256, 128x192, 128x224, 128x176, 128x160, 128x144, 128x128, 64x128, 192x192, 128x64, 64x16, 64x32 or 64x64 result elements, got 96x128
// ALONE: error: convert-linalg-to-croq takes tile-m and tile-n together
// NEGATIVE: error: convert-linalg-to-croq takes split-k >= 0, got -2
// CLUSTER2D: error: convert-linalg-to-croq takes clusters of cluster-m x cluster-n blocks (cluster-m 0: chosen), at most 8, got 4x4
// CLUSTERBIG: error: convert-linalg-to-croq takes clusters of cluster-m x cluster-n blocks (cluster-m 0: chosen), at most 8, got 16x1
// CLUSTERZERO: error: convert-linalg-to-croq takes clusters of cluster-m x cluster-n blocks (cluster-m 0: chosen), at most 8, got -1x1
// UNSPLITTABLE: error: 'linalg.matmul' op convert-linalg-to-croq splits the K loop of 128x128, 64x128 and 128x64 tiles only, got split-k=4 with a tile of 128x256
// CHIP: error: croq has no target description for chip 'sm_70'
// STREAMK3: error: convert-linalg-to-croq takes stream-k of 0 (chosen), 1 (never) or 2 (always), got 3
// STREAMKTILE: error: 'linalg.matmul' op convert-linalg-to-croq has the stream-K form for 128-row tiles of whole 32-column groups only, without forced splits or clusters; got a tile of 64x128, split-k=0, cluster-m=0, cluster-n=1
// STREAMKCLUSTER: error: 'linalg.matmul' op convert-linalg-to-croq has the stream-K form for 128-row tiles of whole 32-column groups only, without forced splits or clusters; got a tile of 128x256, split-k=0, cluster-m=2, cluster-n=1
func.func @product(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// A forced 128x224 tile of f32 results (112 KiB; its parts of 112 columns
// are no whole 128-byte spans, so it is stored whole) leaves room for one
// stage of operands in the 163 KiB of an sm_80 block (on sm_90a's 227
// KiB, two): an error, not a kernel that cannot be built.
// ROOM: error: 'linalg.matmul' op convert-linalg-to-croq: a 128x224 tile of 4-byte results leaves shared memory for 1 of the 2 operand stages a pipeline needs on sm_80
func.func @f32_result(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// The matrices of a batch fill the grid: no K split.
// BATCH: error: 'linalg.batch_matmul' op convert-linalg-to-croq does not split the K loop of a batched product, got split-k=2
// STREAMKBATCH: error: 'linalg.batch_matmul' op convert-linalg-to-croq has no stream-K form of a batched product, got stream-k=2
func.func @batch_split(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf32>)
  return
}
