// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --implicit-check-not=linalg.
// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | croq-opt -split-input-file > /dev/null

// The form of the kernels, with the tile fixed to 128x128 and the K loop
// whole (the choice of tile is tested in convert-linalg-to-croq-tiles.mlir,
// split K loops in convert-linalg-to-croq-splitk.mlir).

// A product into a zeroed output: the fill is dropped; each block of the
// ceil(M/128) x ceil(N/128) grid copies 128x64 slices of A and 64x128
// slices of B (K x N: a `col` operand) per K step, zero-filled at the edges,
// and stores its 128x128 f32 accumulator through a swizzled tile by an
// async TMA copy left in flight. A plain 16-bit product whose B tile is
// N-major runs the tile on one consumer warpgroup, its blocks not
// persistent (transposed_b_accumulating below keeps two, persistent).
// CHECK-LABEL: func.func @zeroed
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A:.*]], %c0 : memref<?x?xf16>
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[B:.*]], %c1 : memref<?x?xf16>
// CHECK-DAG: %[[GM:.*]] = arith.ceildivui %[[M]], %c128 : index
// CHECK-DAG: %[[GN:.*]] = arith.ceildivui %[[N]], %c128 : index
// CHECK-DAG: %[[KS:.*]] = arith.ceildivui %[[K]], %c64 : index
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [%[[GM]], %[[GN]]] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: %[[AS:.*]] = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: %[[BS:.*]] = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK: %[[CS:.*]] = croq.alloc : !croq.tile<128x128xf32, shared, swizzle = 128>
// CHECK: %[[INIT:.*]] = croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[KK:.*]] = %c0 to %[[KS]] step %c1 iter_args(%[[P:.*]] = %[[INIT]])
// CHECK: %[[AV:.*]] = croq.subspan %[[A]] [128, 64] at [%[[BM]], %[[KK]]]
// CHECK: croq.copy tma zfill swizzle = 128 %[[AV]] -> %[[AS]]
// CHECK: %[[FA:.*]] = croq.mma.load %[[AS]] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
// CHECK: %[[BV:.*]] = croq.subspan %[[B]] [64, 128] at [%[[KK]], %[[BN]]]
// CHECK: croq.copy tma zfill swizzle = 128 %[[BV]] -> %[[BS]]
// CHECK: %[[FB:.*]] = croq.mma.load %[[BS]]
// CHECK: %[[R:.*]] = croq.mma row col %[[P]], %[[FA]], %[[FB]] : !croq.frag<128x64xf16>, !croq.frag<64x128xf16> -> !croq.acc<128x128xf32>
// CHECK: %[[D:.*]] = croq.mma.commit %[[R]]
// CHECK: scf.yield %[[D]]
// CHECK: %[[CV:.*]] = croq.subspan %{{.*}} [128, 128] at [%[[BM]], %[[BN]]] : memref<?x?xf32> -> !croq.view<128x128xf32>
// CHECK-NOT: croq.mma.map
// CHECK: croq.mma.store %[[ACC]] -> %[[CS]]
// CHECK: croq.copy tma async swizzle = 128 %[[CS]] -> %[[CV]]
func.func @zeroed(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// B stored N x K (indexing_maps): a `row` operand of 128x64 slices. Static
// shapes that divide into whole tiles need no zfill. Without a fill the
// product is added to the output's elements in registers before the store.
// CHECK-LABEL: func.func @transposed_b_accumulating
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [2, 3] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: croq.copy tma swizzle = 128
// CHECK: croq.subspan %{{.*}} [128, 64] at [%[[BN]], %{{.*}}] : memref<384x512xbf16>
// CHECK: croq.copy tma swizzle = 128
// CHECK: croq.mma row row
// CHECK: %[[CV:.*]] = croq.subspan %{{.*}} [128, 128] at [%[[BM]], %[[BN]]] : memref<256x384xbf16>
// CHECK: %[[SUM:.*]] = croq.mma.map %{{.*}} (%[[ROW:.*]], %[[COL:.*]], %[[X:.*]]) : !croq.acc<128x128xf32> {
// CHECK: %[[OLD:.*]] = croq.read %[[CV]][%[[ROW]], %[[COL]]] : !croq.view<128x128xbf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[OLD]] : bf16 to f32
// CHECK: %[[NEW:.*]] = arith.addf %[[X]], %[[WIDE]] : f32
// CHECK: croq.yield %[[NEW]] : f32
// CHECK: croq.mma.store %[[SUM]]
func.func @transposed_b_accumulating(%a: memref<256x512xbf16>, %b: memref<384x512xbf16>, %c: memref<256x384xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x512xbf16>, memref<384x512xbf16>) outs(%c : memref<256x384xbf16>)
  return
}

// -----

// A fill of something other than zero is a kernel of its own, and the
// product accumulates onto it; the copy after is a third kernel.
// CHECK-LABEL: func.func @nonzero_fill
// CHECK-NOT: linalg.
// CHECK: croq.parallel
// CHECK: croq.mma.map
// CHECK: croq.parallel
// CHECK-NOT: linalg.
// CHECK: return
func.func @nonzero_fill(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %d: memref<?x?xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  linalg.copy ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf32>)
  return
}

// -----

// The product in a zeroed temporary, consumed by an elementwise generic:
// the generic's body runs on the accumulator in the epilogue (the product
// as x, the column bias read into registers once per column before the K
// loop, whose time hides the reads, and broadcast along the rows), the
// kernel stores into the generic's output, and the temporary, fill and
// generic are gone. Where the bias's window of 128 columns lies inside the
// bias and the bias starts at an 8-byte boundary, it is read a pair of
// columns at a time without edge tests (in_bounds vector<2xf32> reads, the
// element taken by the column's parity); else one column at a time, tested.
// CHECK-LABEL: func.func @fused_bias_relu
// CHECK-NOT: memref.alloc
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: %[[OS:.*]] = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
// CHECK: %[[BV:.*]] = croq.subspan %[[BIASM:.*]] [128] at [%[[BN]]] : memref<?xf32> -> !croq.view<128xf32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[BN]], %c1
// CHECK: %[[END:.*]] = arith.muli %[[NEXT]], %c128
// CHECK: %[[EXTENT:.*]] = memref.dim %[[BIASM]], %c0
// CHECK: %[[INSIDE:.*]] = arith.cmpi ule, %[[END]], %[[EXTENT]]
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BIASM]]
// CHECK: %[[REST:.*]] = arith.remui %[[PTR]], %c8
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REST]], %c0
// CHECK: %[[FAST:.*]] = arith.andi %[[INSIDE]], %[[ALIGNED]]
// CHECK: %[[BVEC:.*]] = scf.if %[[FAST]] -> (!croq.vec<128xf32, cols>) {
// CHECK:   %[[ZERO:.*]] = croq.vec.fill %{{.*}} : !croq.vec<128xf32, cols>
// CHECK:   croq.vec.map %[[ZERO]] (%[[J:.*]], %{{.*}}) : !croq.vec<128xf32, cols> {
// CHECK:     %[[EVEN:.*]] = arith.andi %[[J]], %c-2
// CHECK:     %[[ODD:.*]] = arith.andi %[[J]], %c1
// CHECK:     %[[PAIR:.*]] = croq.read %[[BV]][%[[EVEN]]] in_bounds : !croq.view<128xf32> -> vector<2xf32>
// CHECK:     %[[B:.*]] = vector.extract %[[PAIR]][%[[ODD]]] : f32 from vector<2xf32>
// CHECK:     croq.yield %[[B]] : f32
// CHECK: } else {
// CHECK:   croq.vec.map %{{.*}} (%[[J2:.*]], %{{.*}}) : !croq.vec<128xf32, cols> {
// CHECK:     %[[B2:.*]] = croq.read %[[BV]][%[[J2]]] : !croq.view<128xf32>{{$}}
// CHECK:     croq.yield %[[B2]] : f32
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: croq.mma.commit
// CHECK: %[[OV:.*]] = croq.subspan %[[OUT:.*]] [128, 128] at [%[[BM]], %[[BN]]] : memref<?x?xf16> -> !croq.view<128x128xf16>
// CHECK: %[[E:.*]] = croq.mma.map %[[ACC]], %[[BVEC]] (%{{.*}}, %{{.*}}, %[[X:.*]], %[[BIAS:.*]]) : !croq.acc<128x128xf32>, !croq.vec<128xf32, cols> {
// CHECK-NOT: croq.read
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[BIAS]] : f32
// CHECK: %[[R:.*]] = arith.maximumf %[[S]]
// The body's last rounding to f16 is the store's: the f32 value is yielded.
// CHECK-NEXT: croq.yield %[[R]] : f32
// CHECK: croq.mma.store %[[E]] -> %[[OS]]
// CHECK: croq.copy tma async swizzle = 128 %[[OS]] -> %[[OV]]
// CHECK-NOT: memref.dealloc
func.func @fused_bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// -----

// The consumer updates the product's buffer in place (as bufferization
// leaves `bias + A B` into a function's result) with a bias stored
// 1 x 1 x N and read (b, 0, n): the bias add runs in the epilogue, its
// vector collapsed to N elements, and the kernel stores into the buffer
// once; no kernel of its own.
// CHECK-LABEL: func.func @fused_in_place
// CHECK: croq.parallel
// CHECK: %[[BIAS:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2]] : memref<1x1x256xf16> into memref<256xf16>
// CHECK: croq.subspan %[[BIAS]] [{{[0-9]+}}] at
// CHECK: croq.mma.map
// CHECK: arith.addf
// CHECK: croq.mma.store
// CHECK-NOT: croq.parallel
func.func @fused_in_place(%a: memref<1x128x64xf16>, %b: memref<1x64x256xf16>, %bias: memref<1x1x256xf16>, %out: memref<1x128x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%out : memref<1x128x256xf16>)
  linalg.batch_matmul ins(%a, %b : memref<1x128x64xf16>, memref<1x64x256xf16>) outs(%out : memref<1x128x256xf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%out, %bias : memref<1x128x256xf16>, memref<1x1x256xf16>) outs(%out : memref<1x128x256xf16>) {
  ^bb0(%x: f16, %c: f16, %o: f16):
    %s = arith.addf %x, %c : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// An input indexed by the row (a scale per output row) is read into a
// `rows` vector before the K loop, as one indexed by the column is into a
// `cols` one; an input indexed like the output is read in the body.
// CHECK-LABEL: func.func @fused_row_scale_residual
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: %[[RV:.*]] = croq.subspan %{{.*}} [128] at [%[[BM]]] : memref<?xf32> -> !croq.view<128xf32>
// CHECK: %[[TV:.*]] = croq.subspan %{{.*}} [128, 128] at [%[[BM]], %[[BN]]] : memref<?x?xf32> -> !croq.view<128x128xf32>
// CHECK: %[[ZERO:.*]] = croq.vec.fill %{{.*}} : !croq.vec<128xf32, rows>
// CHECK: %[[SCALE:.*]] = croq.vec.map %[[ZERO]] (%[[I:.*]], %{{.*}}) : !croq.vec<128xf32, rows> {
// CHECK: croq.read %[[RV]][%[[I]]] : !croq.view<128xf32>
// CHECK: scf.for
// CHECK: croq.mma.map %{{.*}}, %[[SCALE]] (%[[ROW:.*]], %[[COL:.*]], %[[X:.*]], %[[S:.*]]) : !croq.acc<128x128xf32>, !croq.vec<128xf32, rows> {
// CHECK-DAG: %[[R:.*]] = croq.read %[[TV]][%[[ROW]], %[[COL]]] : !croq.view<128x128xf32>
// CHECK-DAG: %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK: arith.addf %[[Y]], %[[R]] : f32
func.func @fused_row_scale_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %scale: memref<?xf32>, %res: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %scale, %res : memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %s: f32, %r: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    %z = arith.addf %y, %r : f32
    linalg.yield %z : f32
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// -----

// An input of one element (TOSA's scalar operand passed in, 1 x 1 read
// (0, 0)) is read once before the K loop, a value in the body.
// CHECK-LABEL: func.func @fused_scalar_operand
// CHECK: croq.parallel
// CHECK: %[[SV:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1]] : memref<1x1xf32> into memref<1xf32>
// CHECK: %[[W:.*]] = croq.subspan %[[SV]] [1] at [%c0] : memref<1xf32> -> !croq.view<1xf32>
// CHECK: %[[S:.*]] = croq.read %[[W]][%c0] in_bounds : !croq.view<1xf32>
// CHECK: scf.for
// CHECK: croq.mma.map %{{.*}} (%{{.*}}, %{{.*}}, %[[X:.*]]) : !croq.acc<128x128xf32> {
// CHECK-NOT: croq.read
// CHECK: arith.mulf %[[X]], %[[S]] : f32
// CHECK-NOT: croq.parallel
func.func @fused_scalar_operand(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %s: memref<1x1xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (0, 0)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %s : memref<256x256xf32>, memref<1x1xf32>) outs(%c : memref<256x256xf32>) {
  ^bb0(%x: f32, %sc: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A body that reads its element's position (a causal mask on scores that
// are not fused into attention) reads the tile's first row and column plus
// the element's within the tile.
// CHECK-LABEL: func.func @fused_index_mask
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: %[[R0:.*]] = arith.muli %[[BM]], %c128
// CHECK: %[[C0:.*]] = arith.muli %[[BN]], %c128
// CHECK: croq.mma.map %{{.*}} (%[[I:.*]], %[[J:.*]], %[[X:.*]]) : !croq.acc<128x128xf32> {
// CHECK: %[[ROW:.*]] = arith.addi %[[R0]], %[[I]] : index
// CHECK: %[[COL:.*]] = arith.addi %[[C0]], %[[J]] : index
// CHECK: %[[LT:.*]] = arith.cmpi ult, %[[ROW]], %[[COL]] : index
// CHECK: arith.select %[[LT]], %{{.*}}, %[[X]] : f32
// CHECK-NOT: croq.parallel
func.func @fused_index_mask(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x256xf32>) outs(%c : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lt = arith.cmpi ult, %i, %j : index
    %r = arith.select %lt, %ninf, %x : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A temporary that is read again after the generic is not a temporary: the
// product is stored into it, and the generic and the copy are kernels of
// their own that read it (as a 1-d view: both are contiguous and indexed
// in order).
// CHECK-LABEL: func.func @not_fused
// CHECK: %[[TMP:.*]] = memref.alloc
// CHECK: croq.parallel
// CHECK-NOT: croq.mma.map
// CHECK: croq.mma.store
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[TMP]]
// CHECK: croq.parallel
// CHECK: croq.read %[[FLAT]]
// CHECK: %[[FLAT2:.*]] = memref.collapse_shape %[[TMP]]
// CHECK: croq.parallel
// CHECK: croq.read %[[FLAT2]]
// CHECK-NOT: linalg.
func.func @not_fused(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %out: memref<?x?xf32>, %keep: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.copy ins(%tmp : memref<?x?xf32>) outs(%keep : memref<?x?xf32>)
  return
}

// -----

// 8-bit floats: B stored N x K (wgmma reads them K-major only), K steps of
// 128 elements (one 128-byte span).
// CHECK-LABEL: func.func @e5m2
// CHECK: croq.alloc : !croq.tile<128x128xf8E5M2, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<128x128xf8E5M2, shared, swizzle = 128>
// CHECK: croq.subspan %{{.*}} [128, 128] at
// CHECK: croq.mma row row %{{.*}} : !croq.frag<128x128xf8E5M2>, !croq.frag<128x128xf8E5M2> -> !croq.acc<128x128xf32>
func.func @e5m2(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A stored K x M (indexed (k, m)): 64x128 slices of A at (k step, block
// row), read as a `col` operand; croq-split-accumulators gives each
// consumer 64 of its columns (wgmma reads an M-major A 64 rows at a time).
// CHECK-LABEL: func.func @transposed_a
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK: scf.for %[[KK:.*]] = %c0 to
// CHECK: croq.subspan %{{.*}} [64, 128] at [%[[KK]], %[[BM]]] : memref<?x?xf16> -> !croq.view<64x128xf16>
// CHECK: croq.mma col col %{{.*}} : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<128x128xf32>
func.func @transposed_a(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
