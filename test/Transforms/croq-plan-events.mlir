// RUN: croq-opt %s --croq-plan-events -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-events -split-input-file | croq-opt -split-input-file | FileCheck %s

// A producer/consumer ring: the full ring is triggered after a tma load, by
// the one thread that issues it (1 arrival); the empty ring by the two
// consumer warpgroups, one arrival per warp (8).
// CHECK-LABEL: func.func @ring
// CHECK: %{{.*}} = croq.event.alloc arrivals = 1 : !croq.events<2>
// CHECK: %{{.*}} = croq.event.alloc ready arrivals = 8 : !croq.events<2>
func.func @ring(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
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
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
      }
    }
  }
  return
}

// -----

// A trigger by a whole block of 256 threads (two warpgroup regions make the
// block 256 threads) is 8 arrivals. The block's second trigger completes the
// next phase: its warps arrive once per phase, so it adds nothing (counted
// twice, the wait between the two would never complete).
// CHECK-LABEL: func.func @block_triggers
// CHECK: croq.event.alloc arrivals = 8 : !croq.events<1>
func.func @block_triggers() {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.parallel (%w) in [2] : warpgroup {
    }
    croq.event.trigger %e[%c0] : !croq.events<1>
    croq.event.wait %e[%c0] : !croq.events<1>
    croq.event.trigger %e[%c0] : !croq.events<1>
  }
  return
}

// -----

// Several triggers by the same warps (the first stage before a loop, the
// others in it) count each warp once; triggers by other warps add theirs.
// Two consumer regions of one warpgroup each: 4 + 4 arrivals on the empty
// ring, each region triggering it at two places; two tma triggers by the
// producer's issuing thread: 1.
// CHECK-LABEL: func.func @peeled_ring
// CHECK: %{{.*}} = croq.event.alloc arrivals = 1 : !croq.events<2>
// CHECK: %{{.*}} = croq.event.alloc ready arrivals = 8 : !croq.events<2>
func.func @peeled_ring(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer0 = arith.cmpi eq, %p, %c1 : index
      %consumer1 = arith.cmpi eq, %p, %c2 : index
      croq.inthreads async %producer {
        %v0 = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
        %t0 = croq.stage %ring[%c0] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
        %f0 = croq.copy tma async zfill swizzle = 128 %v0 -> %t0 : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        croq.event.trigger %full[%c0] after (%f0) : !croq.events<2>
        scf.for %k = %c1 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer0 {
        croq.event.wait %full[%c0] : !croq.events<2>
        croq.event.trigger %empty[%c0] : !croq.events<2>
        scf.for %k = %c1 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
      }
      croq.inthreads async %consumer1 {
        croq.event.wait %full[%c0] : !croq.events<2>
        croq.event.trigger %empty[%c0] : !croq.events<2>
        scf.for %k = %c1 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
      }
    }
  }
  return
}

// -----

// The ring of a cluster of 2 whose loads are multicast: each consumer warp
// frees a stage in both blocks (a cluster trigger), so each block's empty
// slots count the 8 warps of its own consumers and the 8 of the other
// block's (16); the full slots one arrival, the local producer's.
// CHECK-LABEL: func.func @cluster_ring
// CHECK: %{{.*}} = croq.event.alloc arrivals = 1 : !croq.events<2>
// CHECK: %{{.*}} = croq.event.alloc ready arrivals = 16 : !croq.events<2>
func.func @cluster_ring(%a: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [2] : block cluster [2] {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async multicast zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] cluster : !croq.events<2>
        }
      }
    }
  }
  return
}

// -----

// The two versions of a producer loop (croq-unswitch-tma-fallbacks), the
// first on the warpgroup's first warp (croq-single-warp-producers): both
// arrive from the warpgroup's first thread, one arrival. A trigger after
// tma loads that two warpgroups run, each on its own slot, is one arrival
// on each slot.
// CHECK-LABEL: func.func @issuing_threads
// CHECK: %{{.*}} = croq.event.alloc arrivals = 1 : !croq.events<2>
// CHECK: %{{.*}} = croq.event.alloc arrivals = 1 : !croq.events<2>
func.func @issuing_threads(%a: memref<?x?xf16>, %ok: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %both = croq.event.alloc : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %producer {
        scf.if %ok {
          %tid = croq.thread_index warpgroup
          %first = arith.cmpi ult, %tid, %c32 : index
          croq.inthreads async %first {
            scf.for %k = %c0 to %c8 step %c1 {
              %s = arith.remui %k, %c2 : index
              %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
              %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
              %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
              croq.event.trigger %full[%s] after (%f) : !croq.events<2>
            }
          }
        } else {
          scf.for %k = %c0 to %c8 step %c1 {
            %s = arith.remui %k, %c2 : index
            %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
            %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<2>
          }
        }
      }
      %v = croq.subspan %a [64, 64] at [%p, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %t = croq.stage %ring[%p] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
      %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.event.trigger %both[%p] after (%f) : !croq.events<2>
    }
  }
  return
}
