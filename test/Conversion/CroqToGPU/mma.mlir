// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// A 128x64x64 f16 mma in one warpgroup. The accumulator is a struct per 64
// rows (32 f32 per thread each). Operands are shared addresses; each wgmma
// gets descriptors: (address & 0x3FFFF) >> 4, leading byte offset 1 (16 B),
// stride byte offset 1024 B (8 rows of the 128-byte span) and layout type 1
// (128B swizzle): the constant 0x4000004000010000. K steps of 16 f16 move 32
// bytes along the rows; the second 64 rows of A start 8192 bytes further.
// The accumulator starts as zeros that only this mma reads: no register is
// written (an undefined struct), a fence comes before the first wgmma, and
// the first K step of each 64 rows starts from zero (scale-d 0).

// CHECK-LABEL: func.func @mma
// CHECK:      llvm.mlir.undef : !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>
// CHECK-NOT:  llvm.insertvalue
// CHECK:      %[[A_PTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK:      %[[A:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:      memref.extract_aligned_pointer_as_index
// CHECK:      %[[B:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      arith.andi %[[B]], %c262143_i64
// CHECK:      arith.shrui
// CHECK:      %[[DESC_B:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64
// CHECK:      arith.andi %[[A]], %c262143_i64
// CHECK:      %[[DESC_A:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64
// CHECK:      %[[ROWS0:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK:      nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %[[ROWS0]], <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK:      arith.addi %[[A]], %c8192_i64
// CHECK:      llvm.extractvalue %{{.*}}[1]
// CHECK:      nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK:      arith.addi %[[B]], %c32_i64
// CHECK:      arith.addi %[[A]], %c32_i64
// CHECK:      nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK:      arith.addi %[[A]], %c8224_i64
// CHECK:      nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]

// Commit: the group is committed and waited for, each register is pinned
// after the wait, and the registers are fenced for the next wgmma.
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:      nvvm.wgmma.fence.aligned

// Store: each element converted to f16 and stored where it lies in the
// fragment, masked at the tensor's edge.
// CHECK:      arith.truncf %{{.*}} : f32 to f16
// CHECK:      scf.if
// CHECK:        memref.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}] : memref<?x?xf16>
func.func @mma(%out: memref<?x?xf16>) {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<128x64xf32>
    %ma = croq.mma.load %a : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<128x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<128x64xf32>
    %c = croq.mma.commit %r : !croq.acc<128x64xf32>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %out [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
    croq.mma.store %c -> %v : !croq.acc<128x64xf32> -> !croq.view<128x64xf16>
  }
  return
}

// Into a 16-bit shared tile, the warp stores its fragment with stmatrix: per
// 64-row block, one stmatrix.x4 per two 8-column groups (8 for a 64x128
// accumulator), each source register the two converted columns of a row of
// one 8x8 matrix (bitcast vector<2xf16> -> i32); lane l addresses row
// 16 w + (l / 8) % 2 * 8 + l % 8 at column 2 r + (l / 8) / 2 * 8 of the
// tile (128 elements a row, 2 bytes each), as a shared-space pointer.
// CHECK-LABEL: func.func @mma_store_shared
// CHECK-NOT:    memref.store
// CHECK-NOT:    vector.store
// CHECK:        %[[LANE:.*]] = arith.remui %{{.*}}, %c32{{.*}} : index
// CHECK:        %[[M:.*]] = arith.divui %[[LANE]], %c8{{.*}} : index
// CHECK:        %[[HALF:.*]] = arith.remui %[[M]], %c2{{.*}} : index
// CHECK:        arith.truncf %{{.*}} : f32 to f16
// CHECK:        %[[PAIR:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK:        %[[SRC:.*]] = llvm.bitcast %[[PAIR]] : vector<2xf16> to i32
// CHECK:        arith.muli %{{.*}}, %c128{{.*}} : index
// CHECK:        %[[ADDR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT:   nvvm.stmatrix %[[ADDR]], %[[SRC]], %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-COUNT-7: nvvm.stmatrix
// CHECK-NOT:    nvvm.stmatrix
// CHECK-NOT:    vector.store
// CHECK:        return
func.func @mma_store_shared() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<64x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  }
  return
}

// A transposed store into a 16-bit shared tile: stmatrix.trans (layout col),
// one per two 8-column groups of the accumulator, as the plain store; lane
// l addresses row 2 r + (l / 8) / 2 * 8 + l % 8 of the 128x64 tile (the
// accumulator's column) at column 16 w + (l / 8) % 2 * 8 (its first row),
// the row times the tile's 64 elements.
// CHECK-LABEL: func.func @mma_store_shared_transpose
// CHECK-NOT:    memref.store
// CHECK:        %[[LANE:.*]] = arith.remui %{{.*}}, %c32{{.*}} : index
// CHECK:        %[[M:.*]] = arith.divui %[[LANE]], %c8{{.*}} : index
// CHECK:        %[[IN:.*]] = arith.remui %[[LANE]], %c8{{.*}} : index
// CHECK:        %[[HALF:.*]] = arith.remui %[[M]], %c2{{.*}} : index
// CHECK:        %[[MROW:.*]] = arith.muli %[[HALF]], %c8{{.*}} : index
// CHECK:        %[[PAIR:.*]] = arith.divui %[[M]], %c2{{.*}} : index
// CHECK:        %[[GROUP:.*]] = arith.muli %[[PAIR]], %c8{{.*}} : index
// CHECK:        %[[COL:.*]] = arith.addi %[[GROUP]], %[[IN]] : index
// CHECK:        %[[W16:.*]] = arith.muli %{{.*}}, %c16{{.*}} : index
// CHECK:        arith.addi %[[W16]], %[[MROW]] : index
// CHECK:        arith.muli %{{.*}}, %c64{{.*}} : index
// CHECK:        %[[ADDR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT:   nvvm.stmatrix %[[ADDR]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-COUNT-7: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT:    nvvm.stmatrix
// CHECK-NOT:    vector.store
// CHECK:        return
func.func @mma_store_shared_transpose() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    croq.mma.store transpose %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// A transposed store into a global view: one masked scalar store per
// register (its two columns lie in two rows of the view), at (column, row)
// of the fragment's element, each checked against the view's extents in
// that order.
// CHECK-LABEL: func.func @mma_store_global_transpose
// CHECK:        %[[Q:.*]] = arith.divui %[[LANE:.*]], %c4{{.*}} : index
// CHECK-NEXT:   %[[ROW:.*]] = arith.addi %{{.*}}, %[[Q]] : index
// CHECK:        %[[R4:.*]] = arith.remui %[[LANE]], %c4{{.*}} : index
// CHECK:        %[[COL:.*]] = arith.muli %[[R4]], %c2{{.*}} : index
// CHECK:        %[[ROW0:.*]] = arith.addi %[[ROW]], %c0{{.*}} : index
// CHECK:        %[[COL0:.*]] = arith.addi %[[COL]], %c0{{.*}} : index
// CHECK:        arith.truncf %{{.*}} : f32 to f16
// CHECK:        %[[D0:.*]] = arith.addi %{{.*}}, %[[COL0]] : index
// CHECK-NEXT:   arith.cmpi ult, %[[D0]], %[[DIM0:.*]] : index
// CHECK:        %[[D1:.*]] = arith.addi %{{.*}}, %[[ROW0]] : index
// CHECK-NEXT:   arith.cmpi ult, %[[D1]], %[[DIM1:.*]] : index
// CHECK:        scf.if
// CHECK-COUNT-8: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf16>
// CHECK-NOT:    memref.store
// CHECK-NOT:    vector.store
// CHECK:        return
func.func @mma_store_global_transpose(%out: memref<?x?xf16>) {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x16xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<16x64xf16, shared, swizzle = 128> -> !croq.frag<16x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<16x64xf16> -> !croq.acc<64x16xf32>
    %c = croq.mma.commit %r : !croq.acc<64x16xf32>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %out [16, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<16x64xf16>
    croq.mma.store transpose %c -> %v : !croq.acc<64x16xf32> -> !croq.view<16x64xf16>
  }
  return
}

// With relu, each pair of columns is converted by one cvt.rn.relu.f16x2.f32
// (nvvm.convert.f32x2.to.f16x2 {relu}), which takes register r + 1 first
// (the upper half), and no truncf is left.
// CHECK-LABEL: func.func @mma_store_shared_relu
// CHECK-NOT:    arith.truncf
// CHECK:        %[[LANE:.*]] = arith.remui %{{.*}}, %c32{{.*}} : index
// CHECK:        arith.divui %[[LANE]], %c8{{.*}} : index
// CHECK:        %[[R0:.*]] = llvm.extractvalue %[[ACC:[0-9]+]][0, 0] : !llvm.struct
// CHECK-NEXT:   %[[R1:.*]] = llvm.extractvalue %[[ACC]][0, 1] : !llvm.struct
// CHECK-NEXT:   %[[PAIR:.*]] = nvvm.convert.f32x2.to.f16x2 %[[R1]], %[[R0]] {relu = true, rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// CHECK-NEXT:   llvm.bitcast %[[PAIR]] : vector<2xf16> to i32
// CHECK-COUNT-31: nvvm.convert.f32x2.to.f16x2 {{.*}} {relu = true, rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// CHECK-NOT:    nvvm.convert.f32x2.to.f16x2
// CHECK-NOT:    arith.truncf
// CHECK:        return
func.func @mma_store_shared_relu() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<64x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    croq.mma.store relu %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  }
  return
}

// Into a bf16 view of a tensor whose rows may not keep pairs aligned: each
// element is stored alone, masked, the element of its pair converted with
// relu (the two elements' conversions are the same op, left to CSE).
// CHECK-LABEL: func.func @mma_store_view_relu_bf16
// CHECK-NOT:    arith.truncf
// CHECK:        %[[PAIR:.*]] = nvvm.convert.f32x2.to.bf16x2 %{{.*}}, %{{.*}} {relu = true, rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-NEXT:   %[[FIRST:.*]] = vector.extract %[[PAIR]][0] : bf16 from vector<2xbf16>
// CHECK:        scf.if
// CHECK:          memref.store %[[FIRST]]
// CHECK:        %[[PAIR1:.*]] = nvvm.convert.f32x2.to.bf16x2 %{{.*}}, %{{.*}} {relu = true, rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-NEXT:   %[[SECOND:.*]] = vector.extract %[[PAIR1]][1] : bf16 from vector<2xbf16>
// CHECK:        scf.if
// CHECK:          memref.store %[[SECOND]]
// CHECK-NOT:    arith.truncf
// CHECK:        return
func.func @mma_store_view_relu_bf16(%out: memref<?x?xbf16>) {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
    %c = croq.mma.commit %r : !croq.acc<64x64xf32>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.mma.store relu %c -> %v : !croq.acc<64x64xf32> -> !croq.view<64x64xbf16>
  }
  return
}

// Into an f32 shared tile (stmatrix moves 16-bit elements only), whose pairs
// of adjacent columns are aligned: registers r and r + 1 (columns c and
// c + 1 of one row) go out as one vector of two elements, 32 pairs per
// thread for a 64x128 accumulator, unmasked.
// CHECK-LABEL: func.func @mma_store_shared_f32
// CHECK-NOT:    memref.store
// CHECK-NOT:    nvvm.stmatrix
// CHECK-COUNT-32: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x128xf32, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT:    memref.store
// CHECK:        return
func.func @mma_store_shared_f32() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<64x128xf32, shared>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf32, shared>
  }
  return
}

// Two groups in flight, completed in order: the commits with pending = 1
// commit and wait for all but the newest group, without pinning (their
// results are still being written); croq.mma.wait on the first group waits
// with one group left, then pins the first accumulator's registers and
// fences them; the wait on the second waits for everything.
// CHECK-LABEL: func.func @mma_wait_overlap
// CHECK:        nvvm.wgmma.mma_async
// CHECK:        nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:   nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:    llvm.inline_asm
// CHECK:        nvvm.wgmma.mma_async
// CHECK:        nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:   nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:    llvm.inline_asm
// CHECK:        nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK:        nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK:        nvvm.stmatrix
// CHECK:        return
func.func @mma_wait_overlap() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<64x64xf16, shared>
    %zero = arith.constant 0.0 : f32
    %s0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %s1 = croq.mma row row %s0, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
    %s = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
    %o1 = croq.mma row row %o0, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
    %o = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
    %sd = croq.mma.wait %s pending = 1 : !croq.acc<64x64xf32>
    croq.mma.store %sd -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
    %od = croq.mma.wait %o : !croq.acc<64x64xf32>
    croq.mma.store %od -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// A fill of another value (or one that something besides croq.mma reads)
// writes every register, pins it and fences; the mma then accumulates from
// its first K step.
// CHECK-LABEL: func.func @mma_fill_value
// CHECK:          llvm.mlir.undef
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:          nvvm.wgmma.fence.aligned
// CHECK-NOT:      D[<f32>, <zero>]
// CHECK:          nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK:          nvvm.wgmma.commit.group.sync.aligned
func.func @mma_fill_value() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %out = croq.alloc : !croq.tile<64x64xf16, shared>
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
    %c = croq.mma.commit %r : !croq.acc<64x64xf32>
    croq.mma.store %c -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// A 128x64x64 f16 mma whose A is MN-major ('col': the tile holds K rows of
// M elements, as TMA loads A stored K x M) in one warpgroup. The tile's
// 128-element rows are two 128-byte slabs of 64 rows each (8192 bytes):
// each wgmma's 64 rows of M are one slab, so the second 64 rows of M start
// one slab (8192 bytes) further, and each K step of 16 moves 16 rows (2048
// bytes) down the slab. The leading byte offset stays 1: each wgmma's M
// extent is one swizzle atom.

// CHECK-LABEL: func.func @mma_col_a_two_slabs
// CHECK:      %[[A_PTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK:      %[[A:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:      arith.andi %[[A]], %c262143_i64
// CHECK:      %[[DESC_A:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64
// CHECK:      llvm.extractvalue %{{.*}}[0]
// CHECK:      nvvm.wgmma.mma_async %[[DESC_A]], %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// CHECK:      arith.addi %[[A]], %c8192_i64
// CHECK:      llvm.extractvalue %{{.*}}[1]
// CHECK:      nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>]
// CHECK:      arith.addi %[[A]], %c2048_i64
// CHECK:      nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>]
// CHECK:      arith.addi %[[A]], %c10240_i64
// CHECK:      nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>]
func.func @mma_col_a_two_slabs(%out: memref<?x?xf16>) {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %bt = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<128x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %r = croq.mma col row %acc, %ma, %mb : !croq.frag<64x128xf16>, !croq.frag<64x64xf16> -> !croq.acc<128x64xf32>
    %c = croq.mma.commit %r : !croq.acc<128x64xf32>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %out [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
    croq.mma.store %c -> %v : !croq.acc<128x64xf32> -> !croq.view<128x64xf16>
  }
  return
}
