// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --implicit-check-not=linalg.
// RUN: croq-opt %s --convert-linalg-to-croq="split-k=4" --canonicalize -split-input-file | FileCheck %s --check-prefix=SPLIT
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=256 split-k=1 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --check-prefix=PARTS
// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | croq-opt -split-input-file > /dev/null

// Products of f32 operands (tf32 wgmma, f32 accumulator) and of i8
// operands into i32 (s8 wgmma, i32 accumulator), with A indexed (m, k) and
// B indexed (n, k): both operands K-major, as wgmma reads them. A K step is
// one 128-byte swizzle span of each operand row: 32 f32 or 128 i8 elements.

// A zero-filled f32 product: 32-element K steps, an f32 accumulator stored
// through an f32 shared tile.
// CHECK-LABEL: func.func @tf32_zeroed
// CHECK-DAG: %[[K:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// CHECK-DAG: %[[KS:.*]] = arith.ceildivui %[[K]], %c32 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: croq.parallel
// CHECK: %[[AS:.*]] = croq.alloc : !croq.tile<128x32xf32, shared, swizzle = 128>
// CHECK: %[[BS:.*]] = croq.alloc : !croq.tile<128x32xf32, shared, swizzle = 128>
// CHECK: %[[CS:.*]] = croq.alloc : !croq.tile<128x128xf32, shared, swizzle = 128>
// CHECK: %[[INIT:.*]] = croq.mma.fill %[[ZERO]] : !croq.acc<128x128xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %[[KS]] step %c1 iter_args(%[[P:.*]] = %[[INIT]])
// CHECK: croq.copy tma zfill swizzle = 128 %{{.*}} -> %[[AS]]
// CHECK: %[[FA:.*]] = croq.mma.load %[[AS]] : !croq.tile<128x32xf32, shared, swizzle = 128> -> !croq.frag<128x32xf32>
// CHECK: croq.copy tma zfill swizzle = 128 %{{.*}} -> %[[BS]]
// CHECK: %[[FB:.*]] = croq.mma.load %[[BS]] : !croq.tile<128x32xf32, shared, swizzle = 128> -> !croq.frag<128x32xf32>
// CHECK: croq.mma row row %[[P]], %[[FA]], %[[FB]] : !croq.frag<128x32xf32>, !croq.frag<128x32xf32> -> !croq.acc<128x128xf32>
// CHECK-NOT: croq.mma.map
// CHECK: croq.mma.store %[[ACC]] -> %[[CS]]
// A 128x256 tile stores its f32 result in four column parts through a
// 128x64 shared tile (32 KiB), which leaves room for four stages of
// operands (the whole 128 KiB tile, for two).
// PARTS-LABEL: func.func @tf32_zeroed
// PARTS: %[[CS:.*]] = croq.alloc : !croq.tile<128x64xf32, shared, swizzle = 128>
// PARTS: %[[ACC:.*]] = scf.for
// PARTS: %[[P0:.*]] = croq.mma.slice %[[ACC]][0] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// PARTS: croq.mma.store %[[P0]] -> %[[CS]]
// PARTS: croq.copy tma async swizzle = 128 %[[CS]]
// PARTS: %[[P1:.*]] = croq.mma.slice %[[ACC]][64] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// PARTS: croq.mma.store %[[P1]] -> %[[CS]]
// PARTS: %[[P2:.*]] = croq.mma.slice %[[ACC]][128] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// PARTS: croq.mma.store %[[P2]] -> %[[CS]]
// PARTS: %[[P3:.*]] = croq.mma.slice %[[ACC]][192] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// PARTS: croq.mma.store %[[P3]] -> %[[CS]]
func.func @tf32_zeroed(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// An f32 product rounded to an f16 result by the store.
// CHECK-LABEL: func.func @tf32_f16_result
// CHECK: croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
// CHECK: croq.mma row row %{{.*}} : !croq.frag<128x32xf32>, !croq.frag<128x32xf32> -> !croq.acc<128x128xf32>
// CHECK: croq.mma.store %{{.*}} : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared, swizzle = 128>
func.func @tf32_f16_result(%a: memref<256x64xf32>, %b: memref<256x64xf32>, %c: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<256x256xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x64xf32>, memref<256x64xf32>) outs(%c : memref<256x256xf16>)
  return
}

// -----

// A zero-filled i8 product into i32: 128-element K steps, an i32
// accumulator starting from an i32 zero, stored through an i32 tile.
// CHECK-LABEL: func.func @s8_zeroed
// CHECK-DAG: %[[K:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xi8>
// CHECK-DAG: %[[KS:.*]] = arith.ceildivui %[[K]], %c128 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: croq.parallel
// CHECK: %[[AS:.*]] = croq.alloc : !croq.tile<128x128xi8, shared, swizzle = 128>
// CHECK: %[[BS:.*]] = croq.alloc : !croq.tile<128x128xi8, shared, swizzle = 128>
// CHECK: %[[CS:.*]] = croq.alloc : !croq.tile<128x128xi32, shared, swizzle = 128>
// CHECK: %[[INIT:.*]] = croq.mma.fill %[[ZERO]] : !croq.acc<128x128xi32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %[[KS]] step %c1 iter_args(%[[P:.*]] = %[[INIT]])
// CHECK: %[[FA:.*]] = croq.mma.load %[[AS]] : !croq.tile<128x128xi8, shared, swizzle = 128> -> !croq.frag<128x128xi8>
// CHECK: %[[FB:.*]] = croq.mma.load %[[BS]] : !croq.tile<128x128xi8, shared, swizzle = 128> -> !croq.frag<128x128xi8>
// CHECK: croq.mma row row %[[P]], %[[FA]], %[[FB]] : !croq.frag<128x128xi8>, !croq.frag<128x128xi8> -> !croq.acc<128x128xi32>
// CHECK-NOT: croq.mma.map
// CHECK: croq.mma.store %[[ACC]] -> %[[CS]] : !croq.acc<128x128xi32> -> !croq.tile<128x128xi32, shared, swizzle = 128>
// The same four parts of an i32 result.
// PARTS-LABEL: func.func @s8_zeroed
// PARTS: croq.alloc : !croq.tile<128x64xi32, shared, swizzle = 128>
// PARTS-COUNT-4: croq.mma.slice %{{.*}} : !croq.acc<128x256xi32> -> !croq.acc<128x64xi32>
func.func @s8_zeroed(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<?x?xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// -----

// Without a fill the i32 product is added to the output's elements in
// registers, exactly (addi).
// CHECK-LABEL: func.func @s8_accumulating
// CHECK: croq.mma row row
// CHECK: %[[CV:.*]] = croq.subspan %{{.*}} [128, 128] at [%{{.*}}, %{{.*}}] : memref<256x384xi32>
// CHECK: %[[SUM:.*]] = croq.mma.map %{{.*}} (%[[ROW:.*]], %[[COL:.*]], %[[X:.*]]) : !croq.acc<128x128xi32> {
// CHECK: %[[OLD:.*]] = croq.read %[[CV]][%[[ROW]], %[[COL]]] : !croq.view<128x128xi32>
// CHECK: %[[NEW:.*]] = arith.addi %[[X]], %[[OLD]] : i32
// CHECK: croq.yield %[[NEW]] : i32
// CHECK: croq.mma.store %[[SUM]]
func.func @s8_accumulating(%a: memref<256x512xi8>, %b: memref<384x512xi8>, %c: memref<256x384xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x512xi8>, memref<384x512xi8>) outs(%c : memref<256x384xi32>)
  return
}

// -----

// An i32 consumer (a bias of i32 added, then a clamp at zero) is computed
// on the i32 accumulator in the epilogue.
// CHECK-LABEL: func.func @s8_bias_relu
// CHECK: croq.mma row row
// CHECK: croq.mma.map %{{.*}} (%{{.*}}, %{{.*}}, %[[X:.*]], %[[BV:.*]]) : !croq.acc<128x128xi32>, !croq.vec<128xi32, cols> {
// CHECK: %[[S:.*]] = arith.addi %[[X]], %[[BV]] : i32
// CHECK: %[[R:.*]] = arith.maxsi %[[S]], %{{.*}} : i32
// CHECK: croq.yield %[[R]] : i32
// CHECK: croq.mma.store
func.func @s8_bias_relu(%a: memref<256x512xi8>, %b: memref<384x512xi8>, %bias: memref<384xi32>, %out: memref<256x384xi32>) {
  %tmp = memref.alloc() : memref<256x384xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%tmp : memref<256x384xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x512xi8>, memref<384x512xi8>) outs(%tmp : memref<256x384xi32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<256x384xi32>, memref<384xi32>) outs(%out : memref<256x384xi32>) {
  ^bb0(%x: i32, %bv: i32, %o: i32):
    %s = arith.addi %x, %bv : i32
    %r = arith.maxsi %s, %zero : i32
    linalg.yield %r : i32
  }
  memref.dealloc %tmp : memref<256x384xi32>
  return
}

// -----

// A consumer that converts the i32 product (a dequantization to f32) is
// not fused: the i32 accumulator cannot change type in registers. The
// product is stored to its temporary and the consumer is an elementwise
// kernel of its own.
// CHECK-LABEL: func.func @s8_dequantize_not_fused
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<256x384xi32>
// CHECK: croq.mma row row
// CHECK-NOT: croq.mma.map
// CHECK: croq.mma.store %{{.*}} : !croq.acc<128x128xi32> -> !croq.tile<128x128xi32, shared, swizzle = 128>
// CHECK: croq.parallel
// CHECK: arith.sitofp
// CHECK: memref.dealloc %[[TMP]]
func.func @s8_dequantize_not_fused(%a: memref<256x512xi8>, %b: memref<384x512xi8>, %scale: memref<384xf32>, %out: memref<256x384xf32>) {
  %tmp = memref.alloc() : memref<256x384xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%tmp : memref<256x384xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x512xi8>, memref<384x512xi8>) outs(%tmp : memref<256x384xi32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %scale : memref<256x384xi32>, memref<384xf32>) outs(%out : memref<256x384xf32>) {
  ^bb0(%x: i32, %s: f32, %o: f32):
    %f = arith.sitofp %x : i32 to f32
    %r = arith.mulf %f, %s : f32
    linalg.yield %r : f32
  }
  memref.dealloc %tmp : memref<256x384xi32>
  return
}

// -----

// A split K loop of an i8 product: the partials go through an i32
// workspace, summed with addi (exact, in split order) and with the output
// where linalg.matmul accumulates.
// SPLIT-LABEL: func.func @s8_split
// SPLIT: %[[WS:[a-z0-9_]+]] = gpu.alloc () : memref<{{[0-9]+}}x256xi32>
// SPLIT: croq.parallel
// SPLIT: croq.alloc : !croq.tile<{{64|128}}x128xi32, shared, swizzle = 128>
// SPLIT: croq.mma row row %{{.*}} -> !croq.acc<{{64|128}}x128xi32>
// SPLIT: croq.copy tma async swizzle = 128 %{{.*}} -> %{{.*}} : !croq.tile<{{64|128}}x128xi32, shared, swizzle = 128> -> !croq.view<{{64|128}}x128xi32>
// SPLIT: croq.parallel
// SPLIT: croq.subspan %[[WS]] [16, 32]
// SPLIT: croq.read %{{.*}} in_bounds : !croq.view<16x32xi32> -> vector<4xi32>
// SPLIT: arith.addi %{{.*}} : vector<4xi32>
// SPLIT: %[[OLD:.*]] = croq.read %{{.*}} : !croq.view<16x32xi32>{{$}}
// SPLIT: arith.addi %{{.*}}, %[[OLD]] : i32
// SPLIT: gpu.dealloc %[[WS]]
func.func @s8_split(%a: memref<256x16384xi8>, %b: memref<256x16384xi8>, %c: memref<256x256xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x16384xi8>, memref<256x16384xi8>) outs(%c : memref<256x256xi32>)
  return
}
