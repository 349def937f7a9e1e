// RUN: croq-opt %s --croq-split-accumulators -split-input-file -verify-diagnostics | FileCheck %s
// RUN: croq-opt %s --croq-split-accumulators="consumers=2" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OPTION

// A warp-specialized GEMM block as croq-pipeline-loops makes it (with
// croq.consumers = 0: the pass chooses), with a
// 128x256 accumulator, a bias epilogue and a tma store: two consumer
// warpgroups (the roles parallel gets three warpgroups), consumer c =
// warpgroup - 1 computing rows [64 c, 64 c + 64). Its A operand reads
// those rows of the stage, its accumulators are 64x256, the epilogue's row
// counts from the block's first row, the result tile becomes one tile per
// consumer, and the consumer stores its tile into row block 2 bm + c of the
// output's 64-row grid.
// CHECK-LABEL: func.func @gemm
// CHECK:       croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK:         %[[OUT:.*]] = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
// CHECK:         croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK:           croq.inthreads async %{{.*}} {
// CHECK-NOT:         croq.mma.load
// CHECK:           croq.inthreads async %{{.*}} {
// CHECK:             %[[C1:.*]] = arith.constant 1 : index
// CHECK:             %[[C:.*]] = arith.subi %[[WG]], %[[C1]] : index
// CHECK:             %[[PART:.*]] = croq.stage %[[OUT]][%[[C]]] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
// CHECK:             croq.mma.fill %{{.*}} : !croq.acc<64x256xf32>
// CHECK:             scf.for {{.*}} -> (!croq.acc<64x256xf32>) {
// CHECK:               %[[AS:.*]] = croq.stage
// CHECK:               %[[AROWS:.*]] = croq.subspan %[[AS]] [64, 64] at [%[[C]], %{{.*}}] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
// CHECK:               %[[FA:.*]] = croq.mma.load %[[AROWS]] : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
// CHECK:               %[[FB:.*]] = croq.mma.load %{{.*}} : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.frag<256x64xf16>
// CHECK:               croq.mma row row %{{.*}}, %[[FA]], %[[FB]] : !croq.frag<64x64xf16>, !croq.frag<256x64xf16> -> !croq.acc<64x256xf32>
// CHECK:               croq.mma.commit %{{.*}} pending = 1 : !croq.acc<64x256xf32>
// CHECK:             croq.mma.commit %{{.*}} : !croq.acc<64x256xf32>
// CHECK:             %[[ROWS:.*]] = arith.constant 64 : index
// CHECK:             %[[FIRST:.*]] = arith.muli %[[C]], %[[ROWS]] : index
// CHECK:             croq.mma.map %{{.*}} (%[[ROW:.*]], %{{.*}}, %{{.*}}) : !croq.acc<64x256xf32> {
// CHECK-NEXT:          %[[BLOCKROW:.*]] = arith.addi %[[ROW]], %[[FIRST]] : index
// CHECK-NEXT:          croq.read %{{.*}}[%[[BLOCKROW]]] : !croq.view<128xf32>
// CHECK:             croq.mma.store %{{.*}} -> %[[PART]] : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
// CHECK:             %[[TWO:.*]] = arith.constant 2 : index
// CHECK:             %[[SCALED:.*]] = arith.muli %[[BM]], %[[TWO]] : index
// CHECK:             %[[RB:.*]] = arith.addi %[[SCALED]], %[[C]] : index
// CHECK:             %[[OV:.*]] = croq.subspan %{{.*}} [64, 256] at [%[[RB]], %[[BN]]] : memref<?x?xf16> -> !croq.view<64x256xf16>
// CHECK:             croq.copy tma swizzle = 128 %[[PART]] -> %[[OV]] : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
func.func @gemm(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>, %out: memref<?x?xf16>, %bias: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%bm, %bn) in [%c2, %c2] : block attributes {croq.consumers = 0 : i64} {
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %o_s = croq.alloc : !croq.tile<128x256xf16, shared, swizzle = 128>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c3 : index
          croq.event.wait %empty[%s] : !croq.events<3>
          %a = croq.subspan %lhs [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %b = croq.subspan %rhs [256, 64] at [%bn, %k] : memref<?x?xf16> -> !croq.view<256x64xf16>
          %as = croq.stage %a_s[%s] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %b_s[%s] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%fa, %fb) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x256xf32>
        %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (!croq.acc<128x256xf32>) {
          %s = arith.remui %k, %c3 : index
          croq.event.wait %full[%s] : !croq.events<3>
          %as = croq.stage %a_s[%s] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %b_s[%s] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
          %fa = croq.mma.load %as : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %fb = croq.mma.load %bs : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.frag<256x64xf16>
          %p = croq.mma row row %acc, %fa, %fb : !croq.frag<128x64xf16>, !croq.frag<256x64xf16> -> !croq.acc<128x256xf32>
          %d = croq.mma.commit %p pending = 1 : !croq.acc<128x256xf32>
          %has_prev = arith.cmpi ugt, %k, %c0 : index
          scf.if %has_prev {
            %prev = arith.subi %k, %c1 : index
            %ps = arith.remui %prev, %c3 : index
            croq.event.trigger %empty[%ps] : !croq.events<3>
          }
          scf.yield %d : !croq.acc<128x256xf32>
        }
        %done = croq.mma.commit %r : !croq.acc<128x256xf32>
        %bv = croq.subspan %bias [128] at [%bm] : memref<?xf32> -> !croq.view<128xf32>
        %e = croq.mma.map %done (%row, %col, %x) : !croq.acc<128x256xf32> {
          %v = croq.read %bv[%row] : !croq.view<128xf32>
          %sum = arith.addf %x, %v : f32
          croq.yield %sum : f32
        }
        croq.mma.store %e -> %o_s : !croq.acc<128x256xf32> -> !croq.tile<128x256xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [128, 256] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<128x256xf16>
        croq.copy tma swizzle = 128 %o_s -> %ov : !croq.tile<128x256xf16, shared, swizzle = 128> -> !croq.view<128x256xf16>
      }
    }
  }
  return
}

// -----

// A batched GEMM (convert-linalg-to-croq's form for linalg.batch_matmul):
// the result tile is 1 x 128 x 128, stored through its 128 x 128 span.
// Each consumer's part is a 1 x 64 x 128 tile, stored through a 64 x 128
// span, and copied into its 64 rows of the block's matrix.
// CHECK-LABEL: func.func @batched
// CHECK:         %[[OUT:.*]] = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
// CHECK:           %[[C:.*]] = arith.subi
// CHECK:           %[[PART:.*]] = croq.stage %[[OUT]][%[[C]]] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
// CHECK:           %[[SPAN:.*]] = croq.span_as %[[PART]] : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK:           croq.mma.store %{{.*}} -> %[[SPAN]] : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK:           %[[SCALED:.*]] = arith.muli %[[TM:.*]], %{{.*}} : index
// CHECK:           %[[RB:.*]] = arith.addi %[[SCALED]], %[[C]] : index
// CHECK:           %[[OV:.*]] = croq.subspan %{{.*}} [1, 64, 128] at [%[[BATCH:.*]], %[[RB]], %{{.*}}] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
// CHECK:           croq.copy tma swizzle = 128 %[[PART]] -> %[[OV]] : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
// CHECK-NOT:       croq.span_as
func.func @batched(%lhs: memref<?x?x?xf16>, %rhs: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%bm, %bn) in [%c2, %c2] : block attributes {croq.consumers = 2 : i64} {
    %batch = arith.divui %bm, %c2 : index
    %tm = arith.remui %bm, %c2 : index
    %a_s = croq.alloc : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %o_s = croq.alloc : !croq.tile<1x128x128xf16, shared, swizzle = 128>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c3 : index
          croq.event.wait %empty[%s] : !croq.events<3>
          %a = croq.subspan %lhs [1, 128, 64] at [%batch, %tm, %k] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %b = croq.subspan %rhs [1, 64, 128] at [%batch, %k, %bn] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %as = croq.stage %a_s[%s] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %b_s[%s] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%fa, %fb) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (!croq.acc<128x128xf32>) {
          %s = arith.remui %k, %c3 : index
          croq.event.wait %full[%s] : !croq.events<3>
          %as = croq.stage %a_s[%s] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %b_s[%s] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %as2 = croq.span_as %as : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %bs2 = croq.span_as %bs : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %fa = croq.mma.load %as2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %fb = croq.mma.load %bs2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %p = croq.mma row col %acc, %fa, %fb : !croq.frag<128x64xf16>, !croq.frag<64x128xf16> -> !croq.acc<128x128xf32>
          %d = croq.mma.commit %p : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%s] : !croq.events<3>
          scf.yield %d : !croq.acc<128x128xf32>
        }
        %o2 = croq.span_as %o_s : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
        croq.mma.store %r -> %o2 : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 128, 128] at [%batch, %tm, %bn] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
        croq.copy tma swizzle = 128 %o_s -> %ov : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.view<1x128x128xf16>
      }
    }
  }
  return
}

// -----

// A 64-row accumulator fills one warpgroup: by default the block keeps one
// consumer.
// CHECK-LABEL: func.func @rows64
// CHECK: croq.parallel (%{{.*}}) in [2] : warpgroup {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
func.func @rows64(%out: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 0 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<64x128xf32>
        croq.mma.store %init -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
      }
    }
  }
  return
}

// -----

// The block's croq.consumers attribute chooses, and goes away. A store
// straight to a global tensor writes the consumer's rows of it.
// CHECK-LABEL: func.func @to_global
// CHECK: croq.parallel (%{{.*}}) in [1] : block {
// CHECK: croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK: %[[C:.*]] = arith.subi %[[WG]], %{{.*}} : index
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
// CHECK: %[[ROWS:.*]] = croq.subspan %{{.*}} [64, 128] at [%[[C]], %{{.*}}] : memref<128x128xf32> -> !croq.view<64x128xf32>
// CHECK: croq.mma.store %{{.*}} -> %[[ROWS]] : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
// OPTION-LABEL: func.func @to_global
// OPTION: croq.parallel (%{{.*}}) in [3] : warpgroup {
func.func @to_global(%out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A result stored in column parts: croq.mma.slice takes columns of every
// row, so each consumer slices its own 64 rows and stores them.
// CHECK-LABEL: func.func @slices
// CHECK: croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK: %[[C:.*]] = arith.subi %[[WG]], %{{.*}} : index
// CHECK: %[[ACC:.*]] = croq.mma.fill %{{.*}} : !croq.acc<64x256xf32>
// CHECK: %[[RIGHT:.*]] = croq.mma.slice %[[ACC]][128] : !croq.acc<64x256xf32> -> !croq.acc<64x128xf32>
// CHECK: %[[ROWS:.*]] = croq.subspan %{{.*}} [64, 128] at [%[[C]], %{{.*}}] : memref<128x128xf32> -> !croq.view<64x128xf32>
// CHECK: croq.mma.store %[[RIGHT]] -> %[[ROWS]] : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
func.func @slices(%out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x256xf32>
        %right = croq.mma.slice %init[128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
        croq.mma.store %right -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A consumer that reduces its accumulator is not split (by default: a
// warning that says why).
// CHECK-LABEL: func.func @reduces
// CHECK: croq.parallel (%{{.*}}) in [2] : warpgroup {
func.func @reduces(%out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-warning @+1 {{consumer not split among 2 warpgroups: 'croq.mma.reduce' computes on an accumulator}}
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 0 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %m = croq.mma.reduce max %init : !croq.acc<128x128xf32> -> !croq.vec<128xf32, rows>
      }
    }
  }
  return
}

// -----

// A vector per column (a bias read once per column) is the same for every
// part of the rows: each consumer computes it and broadcasts it against its
// 64 rows, and the element's row counts from the block's first row.
// CHECK-LABEL: func.func @column_vector
// CHECK: croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
// CHECK: %[[V:.*]] = croq.vec.map %{{.*}} (%{{.*}}, %{{.*}}) : !croq.vec<128xf32, cols> {
// CHECK: croq.read
// CHECK: croq.mma.map %{{.*}}, %[[V]] (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
// CHECK: croq.mma.store %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
func.func @column_vector(%bias: memref<128xf32>, %out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %z = croq.vec.fill %zero : !croq.vec<128xf32, cols>
        %v = croq.vec.map %z (%j, %e) : !croq.vec<128xf32, cols> {
          %b = croq.read %bias[%j] : memref<128xf32>
          croq.yield %b : f32
        }
        %y = croq.mma.map %init, %v (%row, %col, %x, %b) : !croq.acc<128x128xf32>, !croq.vec<128xf32, cols> {
          %s = arith.addf %x, %b : f32
          croq.yield %s : f32
        }
        croq.mma.store %y -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A vector per row is split with the rows: each consumer computes the 64
// of its rows, with the index counting from the block's first row.
// CHECK-LABEL: func.func @row_vector
// CHECK: croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK: %[[PART:.*]] = arith.subi %[[WG]], %c1
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
// CHECK: %[[FILL:.*]] = croq.vec.fill %{{.*}} : !croq.vec<64xf32, rows>
// CHECK: %[[FIRST:.*]] = arith.muli %[[PART]], %c64
// CHECK: %[[V:.*]] = croq.vec.map %[[FILL]] (%[[I:.*]], %{{.*}}) : !croq.vec<64xf32, rows> {
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[I]], %[[FIRST]]
// CHECK-NEXT: croq.read %{{.*}}[%[[ROW]]]
// CHECK: croq.mma.map %{{.*}}, %[[V]] (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
func.func @row_vector(%scale: memref<128xf32>, %out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %r = croq.vec.fill %zero : !croq.vec<128xf32, rows>
        %v = croq.vec.map %r (%i, %e) : !croq.vec<128xf32, rows> {
          %x = croq.read %scale[%i] : memref<128xf32>
          croq.yield %x : f32
        }
        %y = croq.mma.map %init, %v (%row, %col, %x, %b) : !croq.acc<128x128xf32>, !croq.vec<128xf32, rows> {
          %s = arith.mulf %x, %b : f32
          croq.yield %s : f32
        }
        croq.mma.store %y -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A vector per row that a loop carries (a block-scaled GEMM's scales, read
// a step ahead) splits with the rows: the loop's argument and result too.
// CHECK-LABEL: func.func @carried_row_vector
// CHECK: %[[FIRST:.*]] = croq.vec.map %{{.*}} : !croq.vec<64xf32, rows> {
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[S:.*]] = %[[FIRST]]) -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>) {
// CHECK: %[[NEXT:.*]] = croq.vec.map %{{.*}} : !croq.vec<64xf32, rows> {
// CHECK: %[[Y:.*]] = croq.mma.map %[[ACC]], %[[S]] (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
// CHECK: scf.yield %[[Y]], %[[NEXT]] : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>
// CHECK: croq.mma.store %[[R]]#0
func.func @carried_row_vector(%scale: memref<128x8xf32>, %out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %r = croq.vec.fill %zero : !croq.vec<128xf32, rows>
        %v = croq.vec.map %r (%i, %e) : !croq.vec<128xf32, rows> {
          %x = croq.read %scale[%i, %c0] : memref<128x8xf32>
          croq.yield %x : f32
        }
        %res:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init, %s = %v) -> (!croq.acc<128x128xf32>, !croq.vec<128xf32, rows>) {
          %k1 = arith.addi %k, %c1 : index
          %n = croq.vec.map %r (%i, %e) : !croq.vec<128xf32, rows> {
            %x = croq.read %scale[%i, %k1] : memref<128x8xf32>
            croq.yield %x : f32
          }
          %y = croq.mma.map %acc, %s (%row, %col, %x, %b) : !croq.acc<128x128xf32>, !croq.vec<128xf32, rows> {
            %t = arith.addf %x, %b : f32
            croq.yield %t : f32
          }
          scf.yield %y, %n : !croq.acc<128x128xf32>, !croq.vec<128xf32, rows>
        }
        croq.mma.store %res#0 -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A block that is not warp-specialized has nothing to split: its
// croq.consumers attribute is dropped with a warning.
// CHECK-LABEL: func.func @not_specialized
// CHECK: croq.parallel (%{{.*}}) in [1] : block {
func.func @not_specialized(%out: memref<128x128xf32>) {
  // expected-warning @+1 {{croq.consumers = 2 ignored: the block is not warp-specialized}}
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
    croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
  }
  return
}

// -----

// A hand-written block with no croq.consumers attribute keeps its one
// consumer, unless the option asks for more.
// CHECK-LABEL: func.func @hand_written
// CHECK: croq.parallel (%{{.*}}) in [2] : warpgroup {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
// OPTION-LABEL: func.func @hand_written
// OPTION: croq.parallel (%{{.*}}) in [3] : warpgroup {
// OPTION: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
func.func @hand_written(%out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%bm) in [1] : block {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// A tile of C^T (convert-linalg-to-croq's tiles with A and B's roles
// swapped): the 128x64 accumulator is stored transposed into C's 64x128
// tile, so consumer c's rows [64 c, 64 c + 64) are the tile's columns
// [64 c, 64 c + 64): the result tile becomes one 64x64 tile per consumer,
// and the consumer copies its tile into column block 2 bn + c of the
// output's 64-column grid.
// CHECK-LABEL: func.func @transposed_store
// CHECK:       croq.parallel (%[[BN:.*]], %[[BM:.*]]) in
// CHECK:         %[[OUT:.*]] = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
// CHECK:         croq.parallel (%[[WG:.*]]) in [3] : warpgroup {
// CHECK:             %[[C:.*]] = arith.subi %[[WG]], %{{.*}} : index
// CHECK:             %[[PART:.*]] = croq.stage %[[OUT]][%[[C]]] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
// CHECK:             %[[ACC:.*]] = croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK:             croq.mma.store transpose %[[ACC]] -> %[[PART]] : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK:             %[[TWO:.*]] = arith.constant 2 : index
// CHECK:             %[[SCALED:.*]] = arith.muli %[[BN]], %[[TWO]] : index
// CHECK:             %[[CB:.*]] = arith.addi %[[SCALED]], %[[C]] : index
// CHECK:             %[[OV:.*]] = croq.subspan %{{.*}} [64, 64] at [%[[BM]], %[[CB]]] : memref<?x?xf16> -> !croq.view<64x64xf16>
// CHECK:             croq.copy tma swizzle = 128 %[[PART]] -> %[[OV]] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
func.func @transposed_store(%out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  croq.parallel (%bn, %bm) in [%c2, %c2] : block attributes {croq.consumers = 2 : i64} {
    %o_s = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %acc = croq.mma.fill %zero : !croq.acc<128x64xf32>
        croq.mma.store transpose %acc -> %o_s : !croq.acc<128x64xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [64, 128] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x128xf16>
        croq.copy tma swizzle = 128 %o_s -> %ov : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x128xf16>
      }
    }
  }
  return
}
