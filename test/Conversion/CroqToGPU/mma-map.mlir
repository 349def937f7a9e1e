// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// croq.mma.map runs its body once per fragment register of each thread,
// unrolled, on the value extracted from the accumulator's struct, and
// inserts the result into a new struct. A 64x16 accumulator is 8 registers
// per thread: register r = 4 j + q holds row 16 w + l / 4 + 8 (q / 2) and
// column 8 j + 2 (l % 4) + q % 2 (warp w, lane l).

// CHECK-LABEL: func.func @map
// CHECK:      %[[TID:.*]] = gpu.thread_id x
// CHECK:      %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK:      %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK:      %[[WROW:.*]] = arith.muli %[[WARP]], %c16
// CHECK:      %[[LROW:.*]] = arith.divui %[[LANE]], %c4
// CHECK:      %[[ROW0:.*]] = arith.addi %[[WROW]], %[[LROW]]
// CHECK:      %[[LCOL:.*]] = arith.remui %[[LANE]], %c4
// CHECK:      %[[COL0:.*]] = arith.muli %[[LCOL]], %c2
// CHECK:      %[[NEW:.*]] = llvm.mlir.undef : !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)>
// Register 0: row0, col0.
// CHECK:      %[[R0:.*]] = arith.addi %[[ROW0]], %c0
// CHECK:      %[[C0:.*]] = arith.addi %[[COL0]], %c0
// CHECK:      %[[X0:.*]] = llvm.extractvalue %[[ACC:.*]][0, 0]
// CHECK:      %[[B0:.*]] = memref.load %arg0[%{{.*}}] : memref<16xf32>
// CHECK:      arith.index_cast %[[R0]] : index to i32
// CHECK:      %[[S0:.*]] = arith.addf %[[X0]], %[[B0]] : f32
// CHECK:      %[[T0:.*]] = arith.addf %[[S0]], %{{.*}} : f32
// CHECK:      %[[N0:.*]] = llvm.insertvalue %[[T0]], %[[NEW]][0, 0]
// Register 1: row0, col0 + 1.
// CHECK:      arith.addi %[[ROW0]], %c0
// CHECK:      arith.addi %[[COL0]], %c1
// CHECK:      llvm.extractvalue %[[ACC]][0, 1]
// CHECK:      %[[N1:.*]] = llvm.insertvalue %{{.*}}, %[[N0]][0, 1]
// Register 2: row0 + 8, col0.
// CHECK:      arith.addi %[[ROW0]], %c8
// CHECK:      arith.addi %[[COL0]], %c0
// CHECK:      llvm.extractvalue %[[ACC]][0, 2]
// CHECK:      llvm.insertvalue %{{.*}}, %[[N1]][0, 2]
// Register 4: row0, col0 + 8 (the second 8-column group).
// CHECK:      llvm.extractvalue %[[ACC]][0, 3]
// CHECK:      arith.addi %[[ROW0]], %c0
// CHECK:      arith.addi %[[COL0]], %c8
// CHECK:      llvm.extractvalue %[[ACC]][0, 4]
// CHECK-COUNT-3: llvm.extractvalue %[[ACC]][0, {{[5-7]}}]
// CHECK:      %[[LAST:.*]] = llvm.insertvalue %{{.*}}[0, 7]
// The store takes the new struct.
// CHECK:      llvm.extractvalue %[[LAST]][0, 0]
// CHECK:      memref.store
func.func @map(%bias: memref<16xf32>, %out: memref<64x16xf32>) {
  croq.parallel (%b) in [1] : block {
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x16xf32>
    %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x16xf32> {
      %bv = croq.read %bias[%j] : memref<16xf32>
      %ri = arith.index_cast %i : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %s = arith.addf %x, %bv : f32
      %t = arith.addf %s, %rf : f32
      croq.yield %t : f32
    }
    croq.mma.store %r -> %out : !croq.acc<64x16xf32> -> memref<64x16xf32>
  }
  return
}

// Two 64-row blocks: the second block's registers are rows 64 further.
// CHECK-LABEL: func.func @map_two_blocks
// CHECK:      %[[ROW0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:      llvm.extractvalue %{{.*}}[0, 0]
// CHECK:      arith.addi %[[ROW0]], %c64
// CHECK:      llvm.extractvalue %{{.*}}[1, 0]
// CHECK:      arith.addi %[[ROW0]], %c72
// CHECK:      llvm.extractvalue %{{.*}}[1, 2]
func.func @map_two_blocks(%out: memref<128x8xf32>) {
  croq.parallel (%b) in [1] : block {
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<128x8xf32>
    %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<128x8xf32> {
      %ri = arith.index_cast %i : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      croq.yield %rf : f32
    }
    croq.mma.store %r -> %out : !croq.acc<128x8xf32> -> memref<128x8xf32>
  }
  return
}

// An f32 exp2 that may be approximate (fastmath<afn>) becomes
// ex2.approx.ftz.f32, one instruction; an exact one stays math.exp2 (for
// the NVVM lowering, which keeps denormal results).
// CHECK-LABEL: func.func @map_exp2
// CHECK-COUNT-32: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK-NOT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-COUNT-32: math.exp2 %{{.*}} : f32
// CHECK-NOT:      math.exp2
func.func @map_exp2(%out: memref<64x64xf32>) {
  croq.parallel (%b) in [1] : block {
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x64xf32>
    %e = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
      %y = math.exp2 %x fastmath<afn> : f32
      croq.yield %y : f32
    }
    %f = croq.mma.map %e (%row, %col, %x) : !croq.acc<64x64xf32> {
      %y = math.exp2 %x : f32
      croq.yield %y : f32
    }
    croq.mma.store %f -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// croq.vec.store: a rows vector of 64 is two elements a thread (rows r and
// r + 8 from its fragment origin), written by the quad's first lane
// (column origin 0) where the row lies inside the tensor.
// CHECK-LABEL: func.func @vec_store_rows
// CHECK:      %[[W:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK:      %[[R0:.*]] = arith.addi %[[ROW:.*]], %c0
// CHECK:      arith.cmpi ult
// CHECK:      llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK:      arith.andi %[[W]]
// CHECK:      scf.if
// CHECK-NEXT:   memref.store
// CHECK:      arith.addi %[[ROW]], %c8
// CHECK:      llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK:      arith.andi %[[W]]
// CHECK:      scf.if
// CHECK-NEXT:   memref.store
// CHECK-NOT:  memref.store
func.func @vec_store_rows(%out: memref<?x?xf32>, %r: index) {
  croq.parallel (%b) in [1] : block {
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x16xf32>
    %m = croq.mma.reduce max %acc : !croq.acc<64x16xf32> -> !croq.vec<64xf32, rows>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %out [1, 64] at [%c0, %r] : memref<?x?xf32> -> !croq.view<1x64xf32>
    croq.vec.store %m -> %v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
  }
  return
}
