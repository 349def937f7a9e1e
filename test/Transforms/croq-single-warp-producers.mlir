// RUN: croq-opt %s --croq-single-warp-producers -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-single-warp-producers -split-input-file | croq-opt -split-input-file | FileCheck %s

// A producer loop that waits for free stages and issues tma loads moves
// onto the warpgroup's first warp; the consumer, which multiplies, stays on
// its warpgroups.
// CHECK-LABEL: func.func @ring
// CHECK: croq.inthreads async %{{.*}} {
// CHECK-NEXT: %[[WARP:.*]] = croq.warp_index warpgroup
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[WARP]], %[[C0]] : index
// CHECK-NEXT: croq.inthreads async %[[FIRST]] {
// CHECK-NEXT: scf.for
// CHECK: croq.event.wait %{{.*}} : !croq.events<2>
// CHECK: croq.copy tma async
// CHECK: croq.event.trigger %{{.*}} after
// CHECK: croq.inthreads async %{{.*}} {
// CHECK-NOT: croq.warp_index
// CHECK: croq.mma
// CHECK: return
func.func @ring(%a: memref<?x?xf16>, %acc: !croq.acc<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %fa = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %r = croq.mma row row %acc, %fa, %fa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
      }
    }
  }
  return
}

// -----

// The two versions croq-unswitch-tma-fallbacks makes: the one whose
// answers are 1 moves onto the first warp (the yield that passed its result
// on passes the initial value, as nothing reads the branch's result); the
// one with software copies keeps the whole warpgroup.
// CHECK-LABEL: func.func @unswitched
// CHECK: %[[INIT:.*]] = arith.constant 5 : index
// CHECK: scf.if %{{.*}} -> (index) {
// CHECK: croq.warp_index warpgroup
// CHECK: croq.inthreads async %{{.*}} {
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (index) {
// CHECK: croq.copy tma async {{.*}} if %c1_i32
// CHECK: scf.yield %[[INIT]] : index
// CHECK-NEXT: } else {
// CHECK-NOT: croq.warp_index
// CHECK: %[[R:.*]] = scf.for
// CHECK: croq.copy tma async {{.*}} if %arg
// CHECK: scf.yield %[[R]] : index
func.func @unswitched(%a: memref<?x?xf16>, %m: !croq.tensor_map, %ok: i32, %all: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        %unused = scf.if %all -> (index) {
          %c1_i32 = arith.constant 1 : i32
          %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%x = %c5) -> (index) {
            %s = arith.remui %k, %c2 : index
            croq.event.wait %empty[%s] : !croq.events<2>
            %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
            %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %v -> %t map %m if %c1_i32 : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<2>
            %y = arith.addi %x, %c1 : index
            scf.yield %y : index
          }
          scf.yield %r : index
        } else {
          %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%x = %c5) -> (index) {
            %s = arith.remui %k, %c2 : index
            croq.event.wait %empty[%s] : !croq.events<2>
            %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
            %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<2>
            %y = arith.addi %x, %c1 : index
            scf.yield %y : index
          }
          scf.yield %r : index
        }
      }
    }
  }
  return
}

// -----

// Loops that need the warpgroup stay whole: one whose result is read, one
// that also arrives per warp (a plain trigger), one that copies with dma,
// and one inside a loop that cannot move (the outer loop would need the
// waits' phases back on its next iteration).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: croq.warp_index
// CHECK: return
func.func @kept(%a: memref<?x?xf16>, %g: memref<64x64xf16>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<1xindex>
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    %plain = croq.alloc : !croq.tile<64x64xf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%x = %c0) -> (index) {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
          scf.yield %k : index
        }
        memref.store %r, %out[%c0] : memref<1xindex>
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          croq.copy dma %g -> %plain : memref<64x64xf16> -> !croq.tile<64x64xf16, shared>
          croq.event.trigger %full[%s] : !croq.events<2>
        }
        scf.for %j = %c0 to %c2 step %c1 {
          croq.copy dma %g -> %plain : memref<64x64xf16> -> !croq.tile<64x64xf16, shared>
          scf.for %k = %c0 to %c8 step %c1 {
            %s = arith.remui %k, %c2 : index
            croq.event.wait %empty[%s] : !croq.events<2>
            %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
            %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<2>
          }
        }
      }
    }
  }
  %r = memref.load %out[%c0] : memref<1xindex>
  return %r : index
}

// -----

// Two issue loops on the same events: the second needs the phases the
// first's waits leave, so only the second moves.
// CHECK-LABEL: func.func @two_loops
// CHECK: croq.inthreads async %{{[^ ]*}} {
// CHECK-NEXT: scf.for
// CHECK-NOT: croq.warp_index
// CHECK: } {step_one}
// CHECK-NEXT: croq.warp_index warpgroup
// CHECK: croq.inthreads async
// CHECK-NEXT: scf.for
// CHECK: } {step_two}
func.func @two_loops(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c2 step %c1 {
          croq.event.wait %empty[%k] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%k] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%k] after (%f) : !croq.events<2>
        } {step_one}
        scf.for %k = %c2 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        } {step_two}
      }
    }
  }
  return
}

// -----

// Outside a warp-specialized role (a block of one group, or a region that
// is not async) nothing moves.
// CHECK-LABEL: func.func @no_role
// CHECK-NOT: croq.warp_index
// CHECK: return
func.func @no_role(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    scf.for %k = %c0 to %c8 step %c1 {
      %s = arith.remui %k, %c2 : index
      croq.event.wait %empty[%s] : !croq.events<2>
      %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
      %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.event.trigger %full[%s] after (%f) : !croq.events<2>
    }
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
    }
  }
  return
}

// -----

// A loop whose indices come from elements of global tensors it reads (a
// paged cache's block table, a sequence's length) moves too: each thread's
// read is its own. A loop that reads a shared tile stays on the warpgroup.
// CHECK-LABEL: func.func @table
// CHECK: croq.warp_index warpgroup
// CHECK: croq.inthreads async %{{.*}} {
// CHECK-NEXT: scf.for
// CHECK: croq.read %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK: scf.for
// CHECK: croq.read %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xi32>
// CHECK: croq.copy tma async
// CHECK-LABEL: func.func @shared_read
// CHECK-NOT: croq.warp_index
// CHECK: return
func.func @table(%a: memref<?x?xf16>, %lens: memref<?xi32>, %table: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %item = %c0 to %c4 step %c1 {
          %len32 = croq.read %lens[%item] : memref<?xi32> -> i32
          %len = arith.index_castui %len32 : i32 to index
          scf.for %k = %c0 to %len step %c1 {
            %s = arith.remui %k, %c2 : index
            %page32 = croq.read %table[%item, %k] : memref<?x?xi32> -> i32
            %page = arith.index_castui %page32 : i32 to index
            croq.event.wait %empty[%s] : !croq.events<2>
            %v = croq.subspan %a [64, 64] at [%page, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
            %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<2>
          }
        }
      }
    }
  }
  return
}

func.func @shared_read(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    %idx = croq.alloc : !croq.tile<8xi32, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          %row32 = croq.read %idx[%k] : !croq.tile<8xi32, shared>
          %row = arith.index_castui %row32 : i32 to index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%row, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
    }
  }
  return
}
