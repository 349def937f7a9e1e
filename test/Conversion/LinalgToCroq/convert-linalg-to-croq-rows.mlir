// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | FileCheck %s --implicit-check-not=linalg.

// An RMS norm as a frontend's fused linalg writes it (a sum of squares per
// row from a zero fill, then the normalized row) is one kernel that keeps
// each row in registers: 1000 f16 columns are 125 chunks of 8, so a warp
// computes a row (4 chunks a thread), eight rows a block, with no shared
// tile and no barrier. The row's start is peeled to its first 16-byte
// aligned column (the misalignment from the buffer's address); each slot
// reads a vector where the buffer's row is misaligned as the first
// input's, elements otherwise, and zeros past the row's chunks; the edge
// column (head or tail) is one element. The sum of squares stays in
// registers (the temporary is never written) and x is not read again.
// CHECK-LABEL: func.func @rms_norm
// CHECK: croq.parallel (%{{.*}}) in [8] : block {
// CHECK-NEXT: croq.parallel (%{{.*}}) in [256] : thread {
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK-COUNT-4: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16> -> vector<8xf16>
// CHECK: scf.if %{{.*}} -> (f16) {
// CHECK-NEXT: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16>{{$}}
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: croq.read %arg0
// CHECK-NOT: croq.barrier
// CHECK-NOT: memref<64xf32>
// CHECK: croq.write %{{.*}}, %arg2[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16> -> vector<8xf16>
// CHECK-NOT: croq.parallel
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @rms_norm(%x: memref<64x1000xf16>, %w: memref<1000xf16>, %out: memref<64x1000xf16>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.0e-3 : f32
  %ss = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%ss : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf16>) outs(%ss : memref<64xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : memref<64x1000xf16>, memref<64xf32>, memref<1000xf16>) outs(%out : memref<64x1000xf16>) {
  ^bb0(%in: f16, %s: f32, %g: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %ms = arith.mulf %s, %inv : f32
    %rs = math.rsqrt %ms : f32
    %y = arith.mulf %v, %rs : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %ss : memref<64xf32>
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

// An op over other rows between a reduction and the op that reads its
// result ends the chain: the reduction, the fill and the elementwise op are
// kernels of their own. (A copy of the same rows would have joined it.)
// CHECK-LABEL: func.func @broken
// CHECK: croq.parallel
// CHECK: gpu.shuffle
// CHECK: croq.parallel
// CHECK: croq.parallel
// CHECK-NOT: croq.barrier
// CHECK: return
func.func @broken(%x: memref<64x256xf32>, %y: memref<64x256xf32>, %other: memref<32x8xf32>, %sums: memref<64xf32>, %out: memref<64x256xf32>) {
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%sums : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%other : memref<32x8xf32>)
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sums : memref<64x256xf32>, memref<64xf32>) outs(%out : memref<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

// A softmax whose row length is known only at run time: a kernel per form,
// the host launching the first whose groups hold a row: a warp (up to 1024
// f16 columns, no shared tile), 128 and 256 threads (16 elements a
// thread, one barrier per reduction), 256 threads with 32 elements, and
// else the streaming kernel (a loop over each op's columns, barriers
// between the ops). The register kernels never write exp(x - max), the
// f32 temporary; the streaming one does.
// CHECK-LABEL: func.func @softmax_dynamic
// CHECK: scf.if
// CHECK: croq.parallel (%{{.*}}) in [%{{.*}}] : block {
// CHECK-NEXT: croq.parallel (%{{.*}}) in [256] : thread {
// CHECK-NOT: croq.barrier
// CHECK-NOT: croq.write {{.*}}memref<?x?xf32>
// CHECK: croq.write %{{.*}}, %arg1[%{{.*}}, %{{.*}}] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK-NOT: croq.barrier
// CHECK-NOT: croq.write {{.*}}memref<?x?xf32>
// CHECK: croq.alloc : !croq.tile<8xf32, shared>
// CHECK-NOT: croq.write {{.*}}memref<?x?xf32>
// CHECK: croq.barrier block
// CHECK-NOT: croq.write {{.*}}memref<?x?xf32>
// CHECK: scf.for
// CHECK: croq.write %{{.*}}, %{{.*}} in_bounds : memref<?x?xf32>
// CHECK: return
func.func @softmax_dynamic(%x: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %n = memref.dim %x, %c1 : memref<?x?xf16>
  %ninf = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc(%m) : memref<?xf32>
  %sum = memref.alloc(%m) : memref<?xf32>
  %e = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%ninf : f32) outs(%max : memref<?xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf16>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %w = arith.extf %in : f16 to f32
    %r = arith.maximumf %w, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<?x?xf16>, memref<?xf32>) outs(%e : memref<?x?xf32>) {
  ^bb0(%in: f16, %mx: f32, %o: f32):
    %w = arith.extf %in : f16 to f32
    %d = arith.subf %w, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<?xf32>)
  linalg.reduce ins(%e : memref<?x?xf32>) outs(%sum : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%ex: f32, %s: f32, %o: f16):
    %q = arith.divf %ex, %s : f32
    %h = arith.truncf %q : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %e : memref<?x?xf32>
  return
}
