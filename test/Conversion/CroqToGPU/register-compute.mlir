// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// Reductions, vectors and A operands in registers, on 64x16 accumulators:
// each thread holds 8 registers, register r = 4 j + q at row
// 16 w + l / 4 + 8 (q / 2) and column 8 j + 2 (l % 4) + q % 2. A rows
// vector is 2 values per thread (rows +0 and +8), a columns vector 4
// (columns +0, +1, +8, +9).

// Row maximum: the thread's four registers of each row, then butterfly
// shuffles over the quad (lanes xor 1 and 2).
// CHECK-LABEL: func.func @reduce_rows
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[ACC:.*]][0, 0]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[ACC]][0, 1]
// CHECK-NEXT: %[[M01:.*]] = arith.maximumf %[[A0]], %[[A1]] : f32
// CHECK-NEXT: %[[A4:.*]] = llvm.extractvalue %[[ACC]][0, 4]
// CHECK-NEXT: %[[M014:.*]] = arith.maximumf %[[M01]], %[[A4]] : f32
// CHECK-NEXT: %[[A5:.*]] = llvm.extractvalue %[[ACC]][0, 5]
// CHECK-NEXT: %[[OWN:.*]] = arith.maximumf %[[M014]], %[[A5]] : f32
// CHECK:      %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[OWN]], %c1_i32, %c31_i32 : f32 -> f32
// CHECK-NEXT: %[[Q1:.*]] = arith.maximumf %[[OWN]], %[[S1]] : f32
// CHECK:      %[[S2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Q1]], %c2_i32, %c31_i32 : f32 -> f32
// CHECK-NEXT: %[[ROW0:.*]] = arith.maximumf %[[Q1]], %[[S2]] : f32
// Row + 8: registers 2, 3, 6, 7.
// CHECK:      llvm.extractvalue %[[ACC]][0, 2]
// CHECK-NEXT: llvm.extractvalue %[[ACC]][0, 3]
// CHECK:      llvm.extractvalue %[[ACC]][0, 6]
// CHECK:      llvm.extractvalue %[[ACC]][0, 7]
// CHECK:      %[[VEC:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK-NEXT: llvm.insertvalue %[[ROW0]], %[[VEC]][0]
// The rows vector broadcast back: registers 0, 1, 4, 5 take element 0,
// registers 2, 3, 6, 7 element 1.
// CHECK:      %[[V:.*]] = llvm.insertvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK:      llvm.extractvalue %[[V]][0] : !llvm.struct<(f32, f32)>
// CHECK:      llvm.extractvalue %[[V]][0] : !llvm.struct<(f32, f32)>
// CHECK:      llvm.extractvalue %[[V]][1] : !llvm.struct<(f32, f32)>
// CHECK:      llvm.extractvalue %[[V]][1] : !llvm.struct<(f32, f32)>
// CHECK:      llvm.extractvalue %[[V]][0] : !llvm.struct<(f32, f32)>
func.func @reduce_rows(%out: memref<64x16xf32>) {
  croq.parallel (%b) in [1] : block {
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x16xf32>
    %m = croq.mma.reduce max %acc : !croq.acc<64x16xf32> -> !croq.vec<64xf32, rows>
    %r = croq.mma.map %acc, %m (%i, %j, %x, %mx) : !croq.acc<64x16xf32>, !croq.vec<64xf32, rows> {
      %d = arith.subf %x, %mx : f32
      croq.yield %d : f32
    }
    croq.mma.store %r -> %out : !croq.acc<64x16xf32> -> memref<64x16xf32>
  }
  return
}

// Column sums: the thread's two rows, shuffles over the lanes with the same
// l % 4 (xor 4, 8, 16), then lanes 0-3 leave the warp's sums in row `warp`
// of the scratch tile between barriers, and every thread adds up the four
// rows of its columns.
// CHECK-LABEL: func.func @reduce_columns
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      %[[A0:.*]] = llvm.extractvalue %[[ACC:.*]][0, 0]
// CHECK-NEXT: %[[A2:.*]] = llvm.extractvalue %[[ACC]][0, 2]
// CHECK-NEXT: %[[OWN:.*]] = arith.addf %[[A0]], %[[A2]] : f32
// CHECK:      nvvm.shfl.sync bfly %{{.*}}, %[[OWN]], %c4_i32, %c31_i32 : f32 -> f32
// CHECK:      nvvm.shfl.sync bfly {{.*}}, %c8_i32, %c31_i32 : f32 -> f32
// CHECK:      nvvm.shfl.sync bfly {{.*}}, %c16_i32, %c31_i32 : f32 -> f32
// CHECK:      gpu.barrier
// CHECK:      %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %c4{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-COUNT-4: memref.store
// CHECK:      }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-16: memref.load
// CHECK:      gpu.barrier
// CHECK:      llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
func.func @reduce_columns(%out: memref<64x16xf32>) {
  croq.parallel (%b) in [1] : block {
    %scratch = croq.alloc : !croq.tile<4x16xf32, shared>
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x16xf32>
    %c = croq.mma.reduce sum %acc scratch %scratch : !croq.acc<64x16xf32>, !croq.tile<4x16xf32, shared> -> !croq.vec<16xf32, cols>
    %r = croq.mma.map %acc, %c (%i, %j, %x, %s) : !croq.acc<64x16xf32>, !croq.vec<16xf32, cols> {
      %d = arith.divf %x, %s : f32
      croq.yield %d : f32
    }
    croq.mma.store %r -> %out : !croq.acc<64x16xf32> -> memref<64x16xf32>
  }
  return
}

// croq.vec.fill and croq.vec.map: element e of a rows vector is row
// 16 w + l / 4 + 64 (e / 2) + 8 (e % 2); of a columns vector column
// 2 (l % 4) + 8 (e / 2) + e % 2.
// CHECK-LABEL: func.func @vectors
// CHECK:      %[[FILL:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[F0:.*]] = llvm.insertvalue %{{.*}}, %[[FILL]][0]
// CHECK:      %[[ROW0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:      arith.addi %[[ROW0]], %c0 : index
// CHECK:      arith.addi %[[ROW0]], %c8 : index
// CHECK:      arith.addi %[[ROW0]], %c64 : index
// CHECK:      arith.addi %[[ROW0]], %c72 : index
// CHECK:      %[[COL0:.*]] = arith.muli %{{.*}}, %c2{{.*}} : index
// CHECK:      arith.addi %[[COL0]], %c0{{.*}} : index
// CHECK:      arith.addi %[[COL0]], %c1{{.*}} : index
// CHECK:      arith.addi %[[COL0]], %c8{{.*}} : index
// CHECK:      arith.addi %[[COL0]], %c9{{.*}} : index
func.func @vectors(%out: memref<128x16xf32>) {
  croq.parallel (%b) in [1] : block {
    %one = arith.constant 1.0 : f32
    %rows = croq.vec.fill %one : !croq.vec<128xf32, rows>
    %cols = croq.vec.fill %one : !croq.vec<16xf32, cols>
    %r = croq.vec.map %rows (%i, %x) : !croq.vec<128xf32, rows> {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %y = arith.addf %x, %f : f32
      croq.yield %y : f32
    }
    %c = croq.vec.map %cols, %cols (%i, %x, %y) : !croq.vec<16xf32, cols>, !croq.vec<16xf32, cols> {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %z = arith.addf %x, %f : f32
      croq.yield %z : f32
    }
    %acc = croq.mma.fill %one : !croq.acc<128x16xf32>
    %m = croq.mma.map %acc, %r, %c (%i, %j, %x, %a, %b2) : !croq.acc<128x16xf32>, !croq.vec<128xf32, rows>, !croq.vec<16xf32, cols> {
      %s = arith.addf %a, %b2 : f32
      croq.yield %s : f32
    }
    croq.mma.store %m -> %out : !croq.acc<128x16xf32> -> memref<128x16xf32>
  }
  return
}

// croq.mma.convert packs registers 2k and 2k + 1 into A register k (f32
// pairs rounded to f16 pairs), pins each and fences; croq.mma with A in
// registers is the wgmma instruction with the four A registers of each
// K step of 16 and a descriptor of B (MN-major here: transposed).
// CHECK-LABEL: func.func @register_operand
// CHECK:      %[[P:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf32>
// CHECK:      %[[PP:.*]] = llvm.insertelement %{{.*}}, %[[P]][%{{.*}} : i32] : vector<2xf32>
// CHECK-NEXT: %[[H:.*]] = llvm.fptrunc %[[PP]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: %[[BITS:.*]] = llvm.bitcast %[[H]] : vector<2xf16> to i32
// CHECK-NEXT: %[[PIN:.*]] = llvm.inline_asm has_side_effects "", "=r,0" %[[BITS]] : (i32) -> i32
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}\0A", "=f,{{(=f,)+}}r,r,r,r,l,0,1,{{.*}},31"
// CHECK:      llvm.inline_asm has_side_effects "{{.*}}m64n64k16.f32.f16.f16
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
func.func @register_operand(%v: memref<32x64xf16>, %out: memref<64x64xf32>) {
  croq.parallel (%b) in [1] : block {
    %v_s = croq.alloc : !croq.tile<32x64xf16, shared, swizzle = 128>
    croq.copy dma %v -> %v_s : memref<32x64xf16> -> !croq.tile<32x64xf16, shared, swizzle = 128>
    %one = arith.constant 1.0 : f32
    %s = croq.mma.fill %one : !croq.acc<64x32xf32>
    %p = croq.mma.convert %s : !croq.acc<64x32xf32> -> !croq.frag<64x32xf16, registers>
    %vb = croq.mma.load %v_s : !croq.tile<32x64xf16, shared, swizzle = 128> -> !croq.frag<32x64xf16>
    %o0 = croq.mma.fill %one : !croq.acc<64x64xf32>
    %o1 = croq.mma row col %o0, %p, %vb : !croq.frag<64x32xf16, registers>, !croq.frag<32x64xf16> -> !croq.acc<64x64xf32>
    %o = croq.mma.commit %o1 : !croq.acc<64x64xf32>
    croq.mma.store %o -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// An accumulator rescaled by croq.mma.map in a loop and fed to croq.mma
// after it: the map pins its 32 registers and fences them (wgmma will read
// them); the croq.mma with A in registers fences again before its first
// wgmma, since the loop's edges may copy registers after the map's fence.
// CHECK-LABEL: func.func @register_fences
// CHECK:        scf.for
// CHECK:          arith.mulf
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:          nvvm.wgmma.fence.aligned
// CHECK:          scf.yield
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK-NOT:    llvm.inline_asm
// CHECK:        llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async
func.func @register_fences(%v: memref<32x64xf16>, %out: memref<64x64xf32>, %n: index) {
  croq.parallel (%b) in [1] : block {
    %v_s = croq.alloc : !croq.tile<32x64xf16, shared, swizzle = 128>
    croq.copy dma %v -> %v_s : memref<32x64xf16> -> !croq.tile<32x64xf16, shared, swizzle = 128>
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = croq.mma.fill %one : !croq.acc<64x32xf32>
    %p = croq.mma.convert %s : !croq.acc<64x32xf32> -> !croq.frag<64x32xf16, registers>
    %vb = croq.mma.load %v_s : !croq.tile<32x64xf16, shared, swizzle = 128> -> !croq.frag<32x64xf16>
    %o0 = croq.mma.fill %one : !croq.acc<64x64xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %o0) -> (!croq.acc<64x64xf32>) {
      %os = croq.mma.map %o (%row, %col, %x) : !croq.acc<64x64xf32> {
        %y = arith.mulf %x, %half : f32
        croq.yield %y : f32
      }
      scf.yield %os : !croq.acc<64x64xf32>
    }
    %o1 = croq.mma row col %r, %p, %vb : !croq.frag<64x32xf16, registers>, !croq.frag<32x64xf16> -> !croq.acc<64x64xf32>
    %o = croq.mma.commit %o1 : !croq.acc<64x64xf32>
    croq.mma.store %o -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// With A in registers and an accumulator of zeros only the mma reads, the
// first K step's scale-d predicate is false (start from zero), the second's
// true.
// CHECK-LABEL: func.func @register_operand_zero
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0Awgmma.mma_async
// CHECK:      llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
func.func @register_operand_zero(%v: memref<32x64xf16>, %out: memref<64x64xf32>) {
  croq.parallel (%b) in [1] : block {
    %v_s = croq.alloc : !croq.tile<32x64xf16, shared, swizzle = 128>
    croq.copy dma %v -> %v_s : memref<32x64xf16> -> !croq.tile<32x64xf16, shared, swizzle = 128>
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %s = croq.mma.fill %one : !croq.acc<64x32xf32>
    %p = croq.mma.convert %s : !croq.acc<64x32xf32> -> !croq.frag<64x32xf16, registers>
    %vb = croq.mma.load %v_s : !croq.tile<32x64xf16, shared, swizzle = 128> -> !croq.frag<32x64xf16>
    %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %o1 = croq.mma row col %o0, %p, %vb : !croq.frag<64x32xf16, registers>, !croq.frag<32x64xf16> -> !croq.acc<64x64xf32>
    %o = croq.mma.commit %o1 : !croq.acc<64x64xf32>
    croq.mma.store %o -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// croq.mma.slice renames registers: columns [16, 32) of a 64x32
// accumulator are registers 8 to 15 of its 16 (column group j is
// registers 4 j to 4 j + 3), registers 0 to 7 of the slice; nothing moves.
// CHECK-LABEL: func.func @slice_columns
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[S:.*]] = llvm.mlir.undef : !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)>
// CHECK-NEXT: %[[R8:.*]] = llvm.extractvalue %[[ACC:.*]][0, 8] : !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)>
// CHECK-NEXT: %[[S0:.*]] = llvm.insertvalue %[[R8]], %[[S]][0, 0]
// CHECK-NEXT: %[[R9:.*]] = llvm.extractvalue %[[ACC]][0, 9]
// CHECK-NEXT: llvm.insertvalue %[[R9]], %[[S0]][0, 1]
// CHECK-COUNT-5: llvm.extractvalue %[[ACC]][0, {{1[0-4]}}]
// CHECK:      %[[R15:.*]] = llvm.extractvalue %[[ACC]][0, 15]
// CHECK-NEXT: %[[SLICE:.*]] = llvm.insertvalue %[[R15]], %{{.*}}[0, 7]
// CHECK:      llvm.extractvalue %[[SLICE]][0, 0]
// CHECK-NOT:  llvm.extractvalue %[[ACC]]
func.func @slice_columns(%out: memref<64x16xf32>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%w) in [1] : warpgroup {
      %one = arith.constant 1.0 : f32
      %acc = croq.mma.fill %one : !croq.acc<64x32xf32>
      %right = croq.mma.slice %acc[16] : !croq.acc<64x32xf32> -> !croq.acc<64x16xf32>
      croq.mma.store %right -> %out : !croq.acc<64x16xf32> -> memref<64x16xf32>
    }
  }
  return
}
