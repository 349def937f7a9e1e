// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/add_i32_64x128_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/add_i32_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/add_f32_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/add_f16_kernel.ptx -o %t.4.cubin
// RUN: %ptxas -arch=sm_90a %t.d/add_bf16_kernel.ptx -o %t.5.cubin
// RUN: %ptxas -arch=sm_90a %t.d/scaled_add_f32_kernel.ptx -o %t.6.cubin

//===- tiled_add.mlir - GPU test: element-wise add through shared memory --===//
//
// c = a + b for i32, f32, f16 and bf16: each block copies one 32x32 tile of
// each input into shared memory (dma), adds the staged tiles element by
// element, and writes the sums through a view of the output. Shapes are
// dynamic: tiles on the last row and column run past the edge and are
// masked. @add_i32_64x128 is the static Croqtile tiled_add_2d (16x16 chunks
// of a 64x128 tensor). @scaled_add_f32 takes scalars of every type an
// entry point may take. run_gpu_tests.py runs these on the GPU.
//
//===----------------------------------------------------------------------===//

// CHECK-DAG: .entry add_i32_64x128_kernel(
// CHECK-DAG: .entry add_i32_kernel(
// CHECK-DAG: .entry add_f32_kernel(
// CHECK-DAG: .entry add_f16_kernel(
// CHECK-DAG: .entry add_bf16_kernel(
// CHECK-DAG: .entry scaled_add_f32_kernel(
// CHECK-DAG: add.rn.bf16
// CHECK-DAG: add.rn.f16

func.func @add_i32_64x128(%lhs: memref<64x128xi32>, %rhs: memref<64x128xi32>,
                          %output: memref<64x128xi32>) {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    %lhs_tile = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %lhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %lhs_tile -> %lhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    %rhs_tile = croq.chunkat %rhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %rhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %rhs_tile -> %rhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    %out_tile = croq.chunkat %output[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    croq.foreach (%i, %j) in [16, 16] {
      %a = croq.read %lhs_load[%i, %j] : !croq.tile<16x16xi32, shared>
      %b = croq.read %rhs_load[%i, %j] : !croq.tile<16x16xi32, shared>
      %sum = arith.addi %a, %b : i32
      croq.write %sum, %out_tile[%i, %j] : !croq.view<16x16xi32>
    }
  }
  return
}

func.func @add_i32(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xi32>
  %n = memref.dim %c, %c1 : memref<?x?xi32>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xi32> -> !croq.view<32x32xi32>
    %ta = croq.alloc : !croq.tile<32x32xi32, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xi32> -> !croq.tile<32x32xi32, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xi32> -> !croq.view<32x32xi32>
    %tb = croq.alloc : !croq.tile<32x32xi32, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xi32> -> !croq.tile<32x32xi32, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xi32> -> !croq.view<32x32xi32>
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xi32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xi32, shared>
      %s = arith.addi %x, %y : i32
      croq.write %s, %vc[%i, %j] : !croq.view<32x32xi32>
    }
  }
  return
}

func.func @add_f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %ta = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %tb = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xf32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xf32, shared>
      %s = arith.addf %x, %y : f32
      croq.write %s, %vc[%i, %j] : !croq.view<32x32xf32>
    }
  }
  return
}

func.func @add_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xf16>
  %n = memref.dim %c, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<32x32xf16>
    %ta = croq.alloc : !croq.tile<32x32xf16, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xf16> -> !croq.tile<32x32xf16, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<32x32xf16>
    %tb = croq.alloc : !croq.tile<32x32xf16, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xf16> -> !croq.tile<32x32xf16, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<32x32xf16>
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xf16, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xf16, shared>
      %s = arith.addf %x, %y : f16
      croq.write %s, %vc[%i, %j] : !croq.view<32x32xf16>
    }
  }
  return
}

func.func @add_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xbf16>
  %n = memref.dim %c, %c1 : memref<?x?xbf16>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xbf16> -> !croq.view<32x32xbf16>
    %ta = croq.alloc : !croq.tile<32x32xbf16, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xbf16> -> !croq.tile<32x32xbf16, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xbf16> -> !croq.view<32x32xbf16>
    %tb = croq.alloc : !croq.tile<32x32xbf16, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xbf16> -> !croq.tile<32x32xbf16, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xbf16> -> !croq.view<32x32xbf16>
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xbf16, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xbf16, shared>
      %s = arith.addf %x, %y : bf16
      croq.write %s, %vc[%i, %j] : !croq.view<32x32xbf16>
    }
  }
  return
}

// c = alpha a + beta b + (bias + wide + offset + tiny + short), negated
// when %negate: a scalar argument of every type an entry point takes,
// passed by reference to the host code (croq-host-entries) and by value to
// the kernel.
func.func @scaled_add_f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                          %c: memref<?x?xf32>, %alpha: f32, %beta: f64,
                          %bias: i32, %wide: i64, %offset: index, %negate: i1,
                          %tiny: i8, %short: i16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %ta = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %tb = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %beta32 = arith.truncf %beta : f64 to f32
    %bias64 = arith.extsi %bias : i32 to i64
    %tiny64 = arith.extsi %tiny : i8 to i64
    %short64 = arith.extsi %short : i16 to i64
    %offset64 = arith.index_cast %offset : index to i64
    %sum0 = arith.addi %bias64, %wide : i64
    %sum1 = arith.addi %sum0, %offset64 : i64
    %sum2 = arith.addi %sum1, %tiny64 : i64
    %sum3 = arith.addi %sum2, %short64 : i64
    %shift = arith.sitofp %sum3 : i64 to f32
    %plus = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %sign = arith.select %negate, %minus, %plus : f32
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xf32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xf32, shared>
      %ax = arith.mulf %alpha, %x : f32
      %by = arith.mulf %beta32, %y : f32
      %s = arith.addf %ax, %by : f32
      %t = arith.addf %s, %shift : f32
      %r = arith.mulf %t, %sign : f32
      croq.write %r, %vc[%i, %j] : !croq.view<32x32xf32>
    }
  }
  return
}
