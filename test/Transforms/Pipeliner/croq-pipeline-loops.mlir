// RUN: croq-opt %s --croq-pipeline-loops -split-input-file -verify-diagnostics | FileCheck %s
// RUN: croq-opt %s --croq-pipeline-loops="warp-specialize=false stages=3" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=INPLACE
// RUN: croq-opt %s --croq-pipeline-loops="stages=1" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OFF

// The GEMM main loop. Warp-specialized (the default): the loaded tiles
// become stage arrays, as many as fit next to the 32 KB output tile (6 of
// 2 x 16 KB), with a full and a ready empty event per stage; warpgroup 0
// issues the loads asynchronously and triggers full after them, warpgroup
// 1 runs everything else, waits on full and frees the stage through empty.
// CHECK-LABEL: func.func @gemm
// CHECK:       croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [%{{.*}}, %{{.*}}] : block attributes {croq.consumers = 0 : i64} {
// CHECK-NEXT:    %[[A:.*]] = croq.alloc : !croq.tiles<6 x 128x64xf16, shared, swizzle = 128>
// CHECK-NEXT:    %[[B:.*]] = croq.alloc : !croq.tiles<6 x 128x64xf16, shared, swizzle = 128>
// CHECK-NEXT:    %[[FULL:.*]] = croq.event.alloc : !croq.events<6>
// CHECK-NEXT:    %[[EMPTY:.*]] = croq.event.alloc ready : !croq.events<6>
// CHECK-NEXT:    %[[C:.*]] = croq.alloc : !croq.tile<128x128xf16, shared>
// CHECK-NEXT:    croq.parallel (%[[WG:.*]]) in [2] : warpgroup {
// CHECK:           %[[P:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : index
// CHECK:           %[[Q:.*]] = arith.cmpi ne, %[[WG]], %{{.*}} : index
// CHECK:           croq.inthreads async %[[P]] {
// CHECK-NEXT:        scf.for %[[K:.*]] = %{{.*}} to %[[KT:.*]] step %{{.*}} {
// CHECK:               %[[S:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %[[EMPTY]][%[[S]]] : !croq.events<6>
// CHECK-NEXT:          %[[VA:.*]] = croq.subspan %{{.*}} [128, 64] at [%[[BM]], %[[K]]]
// CHECK-NEXT:          %[[VB:.*]] = croq.subspan %{{.*}} [128, 64] at [%[[BN]], %[[K]]]
// CHECK-NEXT:          %[[SA:.*]] = croq.stage %[[A]][%[[S]]]
// CHECK-NEXT:          %[[FA:.*]] = croq.copy tma async zfill swizzle = 128 %[[VA]] -> %[[SA]]
// CHECK-NEXT:          %[[SB:.*]] = croq.stage %[[B]][%[[S]]]
// CHECK-NEXT:          %[[FB:.*]] = croq.copy tma async zfill swizzle = 128 %[[VB]] -> %[[SB]]
// CHECK-NEXT:          croq.event.trigger %[[FULL]][%[[S]]] after (%[[FA]], %[[FB]]) : !croq.events<6>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      croq.inthreads async %[[Q]] {
// CHECK:             croq.mma.fill
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[KT]] step %{{.*}} iter_args(
// CHECK:               %[[S2:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %[[FULL]][%[[S2]]] : !croq.events<6>
// CHECK-NEXT:          %[[RA:.*]] = croq.stage %[[A]][%[[S2]]]
// CHECK-NEXT:          %[[RB:.*]] = croq.stage %[[B]][%[[S2]]]
// CHECK-NOT:           croq.copy
// CHECK:               croq.chunkat %[[RA]]
// CHECK:               croq.chunkat %[[RB]]
// The consumer keeps one group of wgmma in flight: it commits with
// pending = 1 and frees the previous iteration's stage, whose mma is done;
// after the loop it waits for the last group before the store.
// CHECK:               %[[DONE:.*]] = croq.mma.commit %{{.*}} pending = 1 : !croq.acc<128x128xf32>
// CHECK:               scf.if %{{.*}} {
// CHECK:                 %[[PREV:.*]] = arith.subi
// CHECK:                 %[[S3:.*]] = arith.remui %[[PREV]], %{{.*}} : index
// CHECK-NEXT:            croq.event.trigger %[[EMPTY]][%[[S3]]] : !croq.events<6>
// CHECK-NEXT:          }
// CHECK-NEXT:          scf.yield %[[DONE]]
// CHECK:             %[[R:.*]] = croq.mma.commit %{{.*}} : !croq.acc<128x128xf32>
// CHECK-NEXT:        croq.mma.store %[[R]] -> %[[C]]
// CHECK:             croq.copy dma %[[C]]

// In place (3 stages): one issuing loop at the top of each iteration
// issues iterations 0..2 on the first and t + 2 afterwards, up to T.
// INPLACE-LABEL: func.func @gemm
// INPLACE:         %[[A:.*]] = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
// INPLACE:         %[[FULL:.*]] = croq.event.alloc : !croq.events<3>
// INPLACE-NEXT:    %[[EMPTY:.*]] = croq.event.alloc ready : !croq.events<3>
// INPLACE-NOT:     croq.parallel
// INPLACE:         %[[T:.*]] = arith.select
// INPLACE:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// INPLACE:           %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// INPLACE:           %[[FROM:.*]] = arith.select %[[FIRST]], %{{.*}}, %{{.*}} : index
// INPLACE:           %[[TO:.*]] = arith.minui %{{.*}}, %[[T]] : index
// INPLACE:           scf.for %[[J:.*]] = %[[FROM]] to %[[TO]] step %{{.*}} {
// INPLACE:             %[[S:.*]] = arith.remui %[[J]], %{{.*}} : index
// INPLACE-NEXT:        croq.event.wait %[[EMPTY]][%[[S]]]
// INPLACE:             croq.copy tma async
// INPLACE:             croq.copy tma async
// INPLACE:             croq.event.trigger %[[FULL]][%[[S]]] after
// INPLACE:           }
// INPLACE:           croq.event.wait %[[FULL]]
// INPLACE:           croq.mma.commit
// INPLACE-NEXT:      croq.event.trigger %[[EMPTY]][%{{.*}}] : !croq.events<3>
// INPLACE-NOT:   croq.event

// stages=1 leaves loops without a croq.stages attribute alone.
// OFF-LABEL: func.func @gemm
// OFF-NOT:   croq.event
// OFF:       croq.copy tma zfill swizzle = 128
func.func @gemm(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                %out: memref<?x?xf16>, %gm: index, %gn: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %acc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%x = %acc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %a_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%bn, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %b_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %kk = %c0 to %c4 step %c1 iter_args(%y = %x) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %a_s[_, %kk] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %b_s[_, %kk] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %r = croq.mma row row %y, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %r : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %acc -> %c_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %c = croq.subspan %out [128, 128] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %c_s -> %c : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// -----

// A loop's croq.stages and croq.warp_specialize attributes override the
// options: 2 stages, in place, even where the options ask for more or for
// no pipelining. A block with its own thread regions is pipelined in place.
// CHECK-LABEL: func.func @loop_attributes
// CHECK:         croq.alloc : !croq.tiles<2 x 64x64xf32, shared>
// CHECK-NOT:     croq.parallel ({{.*}}) in [2] : warpgroup
// CHECK:         croq.event.alloc : !croq.events<2>
// CHECK:         scf.for
// CHECK-NOT:       croq.stages
// CHECK:         croq.alloc : !croq.tiles<8 x 64x64xf32, shared>
// CHECK:         croq.parallel (%{{.*}}) in [64] : thread
// INPLACE-LABEL: func.func @loop_attributes
// INPLACE:         croq.alloc : !croq.tiles<2 x 64x64xf32, shared>
// INPLACE:         croq.alloc : !croq.tiles<3 x 64x64xf32, shared>
// OFF-LABEL: func.func @loop_attributes
// OFF:         croq.alloc : !croq.tiles<2 x 64x64xf32, shared>
// OFF:         croq.alloc : !croq.tile<64x64xf32, shared>
func.func @loop_attributes(%src: memref<?x64xf32>, %dst: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
    } {croq.stages = 2 : i64, croq.warp_specialize = false}
  }
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
      croq.parallel (%th) in [64] : thread {
        %x = croq.read %t[%th, %c0] : !croq.tile<64x64xf32, shared>
        croq.write %x, %dst[%th] : memref<64xf32>
      }
    }
  }
  return
}

// -----

// Loops that cannot be pipelined stay as they are, with a warning.
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT:   croq.event
func.func @not_pipelined(%src: memref<?x64xf32>, %dst: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-warning @+1 {{not pipelined: a loaded tile is used before its load in the iteration}}
    scf.for %i = %c0 to %n step %c1 {
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    }
  }
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-warning @+1 {{not pipelined: a loaded tile is used outside the loop}}
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    }
    %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
    croq.write %x, %dst[%c0] : memref<64xf32>
  }
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-warning @+1 {{not pipelined: a load's view depends on the loop's iteration values}}
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%row = %c0) -> (index) {
      %v = croq.subspan %src [64, 64] at [%row, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
      %next = arith.addi %row, %c1 : index
      scf.yield %next : index
    }
  }
  croq.parallel (%b) in [1] : block {
    %big = croq.alloc : !croq.tile<256x256xf32, shared>
    %t = croq.alloc : !croq.tile<64x256xf32, shared>
    // expected-warning @+1 {{not pipelined: two stages of the loaded tiles need 131072 bytes of shared memory and 0 are left next to the block's other buffers}}
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 256] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x256xf32>
      croq.copy tma %v -> %t : !croq.view<64x256xf32> -> !croq.tile<64x256xf32, shared>
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x256xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
    }
    %y = croq.read %big[%c0, %c0] : !croq.tile<256x256xf32, shared>
  }
  return
}

// -----

// A K loop inside the tile loop of a persistent block
// (croq-persistent-blocks): the producer walks the same tiles, computing
// what its loads need of each (the tile row), and the ring counts
// iterations across tiles, g = n * count + k for the n-th tile of the
// block, so that stages and phases run on from one tile to the next; the
// consumer runs the tile loop with the rest.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME:    %[[TILES:[^:]*]]: index, %[[GRID:[^:]*]]: index, %[[KT:[^:]*]]: index)
// CHECK:       croq.parallel (%[[BID:.*]]) in [%[[GRID]]] : block attributes {croq.consumers = 0 : i64} {
// CHECK:         croq.inthreads async %{{.*}} {
// CHECK-NEXT:      scf.for %[[PT:.*]] = %[[BID]] to %[[TILES]] step %[[GRID]] {
// CHECK-NEXT:        %[[PBM:.*]] = arith.divui %[[PT]], %{{.*}} : index
// CHECK-NEXT:        scf.for %[[PK:.*]] = %{{.*}} to %[[KT]] step %{{.*}} {
// CHECK:               %[[PN0:.*]] = arith.subi %[[PT]], %[[BID]] : index
// CHECK-NEXT:          %[[PN:.*]] = arith.divui %[[PN0]], %[[GRID]] : index
// CHECK:               %[[PCOUNT:.*]] = arith.select
// CHECK-NEXT:          %[[PBASE:.*]] = arith.muli %[[PN]], %[[PCOUNT]] : index
// CHECK-NEXT:          %[[PG:.*]] = arith.addi %[[PBASE]], %{{.*}} : index
// CHECK:               %[[PS:.*]] = arith.remui %[[PG]], %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %{{.*}}[%[[PS]]] : !croq.events<3>
// CHECK-NEXT:          croq.subspan %{{.*}} [64, 64] at [%[[PBM]], %[[PK]]]
// CHECK:             croq.inthreads async %{{.*}} {
// CHECK-NEXT:      scf.for %[[CT:.*]] = %[[BID]] to %[[TILES]] step %[[GRID]] {
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[KT]] step %{{.*}} iter_args(
// CHECK:               %[[CN0:.*]] = arith.subi %[[CT]], %[[BID]] : index
// CHECK:               %[[CG:.*]] = arith.addi
// CHECK:               %[[CS:.*]] = arith.remui %[[CG]], %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %{{.*}}[%[[CS]]] : !croq.events<3>
// CHECK:               croq.mma.commit %{{.*}} pending = 1
// CHECK:             croq.mma.commit
// CHECK:             croq.mma.store
// INPLACE-LABEL: func.func @persistent
// INPLACE-NOT: croq.event
// OFF-LABEL: func.func @persistent
func.func @persistent(%lhs: memref<?x?xf16>, %out: memref<?x?xf32>, %tiles: index, %grid: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  croq.parallel (%bid) in [%grid] : block {
    %a_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    scf.for %t = %bid to %tiles step %grid {
      %bm = arith.divui %t, %c4 : index
      %zero = arith.constant 0.0 : f32
      %init = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %r = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %init) -> (!croq.acc<64x64xf32>) {
        %a = croq.subspan %lhs [64, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy tma swizzle = 128 %a -> %a_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %fa = croq.mma.load %a_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %p = croq.mma row row %acc, %fa, %fa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
        %d = croq.mma.commit %p : !croq.acc<64x64xf32>
        scf.yield %d : !croq.acc<64x64xf32>
      } {croq.stages = 3 : i64}
      %ov = croq.subspan %out [64, 64] at [%bm, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
      croq.mma.store %r -> %ov : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
    }
  }
  return
}

// -----

// A K loop whose bounds change from tile to tile (a stream-K block's
// ranges: tile t runs steps [0, t + 1)): the producer computes the bounds
// again in its own tile loop, and both tile loops carry the iterations of
// the tiles before, g = base + k, so that stages and phases run on across
// tiles of any lengths.
// CHECK-LABEL: func.func @bounds_per_tile
// CHECK:         croq.inthreads async %{{.*}} {
// CHECK:           %{{.*}} = scf.for %[[PT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PB:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:        %[[PHI:.*]] = arith.addi %[[PT]], %{{.*}} : index
// CHECK-NEXT:        scf.for %[[PK:.*]] = %{{.*}} to %[[PHI]] step %{{.*}} {
// CHECK:               %[[PG:.*]] = arith.addi %[[PB]], %{{.*}} : index
// CHECK:               %[[PS:.*]] = arith.remui %[[PG]], %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %{{.*}}[%[[PS]]] : !croq.events<3>
// CHECK:             }
// CHECK:             %[[PC:.*]] = arith.select
// CHECK-NEXT:        %[[PNEXT:.*]] = arith.addi %[[PB]], %[[PC]] : index
// CHECK-NEXT:        scf.yield %[[PNEXT]] : index
// CHECK:         croq.inthreads async %{{.*}} {
// CHECK:           scf.for %[[CT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CB:.*]] = %{{.*}}) -> (index) {
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK:               %[[CG:.*]] = arith.addi %[[CB]], %{{.*}} : index
// CHECK:               %[[CS:.*]] = arith.remui %[[CG]], %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %{{.*}}[%[[CS]]] : !croq.events<3>
// CHECK:             croq.mma.store
// CHECK:             %[[CNEXT:.*]] = arith.addi %[[CB]], %{{.*}} : index
// CHECK-NEXT:        scf.yield %[[CNEXT]] : index
// INPLACE-LABEL: func.func @bounds_per_tile
// INPLACE-NOT: croq.event
// OFF-LABEL: func.func @bounds_per_tile
func.func @bounds_per_tile(%lhs: memref<?x?xf16>, %out: memref<?x?xf32>, %tiles: index, %grid: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%bid) in [%grid] : block {
    %a_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    scf.for %t = %bid to %tiles step %grid {
      %hi = arith.addi %t, %c1 : index
      %zero = arith.constant 0.0 : f32
      %init = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %r = scf.for %k = %c0 to %hi step %c1 iter_args(%acc = %init) -> (!croq.acc<64x64xf32>) {
        %a = croq.subspan %lhs [64, 64] at [%t, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy tma swizzle = 128 %a -> %a_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %fa = croq.mma.load %a_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %p = croq.mma row row %acc, %fa, %fa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
        %d = croq.mma.commit %p : !croq.acc<64x64xf32>
        scf.yield %d : !croq.acc<64x64xf32>
      } {croq.stages = 3 : i64}
      %ov = croq.subspan %out [64, 64] at [%t, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
      croq.mma.store %r -> %ov : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
    }
  }
  return
}

// -----

// In a cluster of 2 x 1 that multicasts B, the ring stays as it is but a
// stage is freed in both blocks: the consumer's release is a cluster
// trigger, warp-specialized or in place.
// CHECK-LABEL: func.func @multicast
// CHECK:         croq.parallel (%{{.*}}, %{{.*}}) in [4, 4] : block cluster [2, 1]
// CHECK:           croq.copy tma async zfill swizzle = 128
// CHECK:           croq.copy tma async multicast zfill swizzle = 128
// CHECK:           croq.event.trigger %{{.*}}[%{{.*}}] after
// CHECK:           croq.event.trigger %{{.*}}[%{{.*}}] cluster : !croq.events<6>
// INPLACE-LABEL: func.func @multicast
// INPLACE:         croq.copy tma async multicast
// INPLACE:         croq.event.trigger %{{.*}}[%{{.*}}] cluster : !croq.events<3>
func.func @multicast(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                     %out: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%bm, %bn) in [4, 4] : block cluster [2, 1] {
    %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %acc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%x = %acc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %a_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%bn, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma multicast zfill swizzle = 128 %b -> %b_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %ma = croq.mma.load %a_s : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
      %mb = croq.mma.load %b_s : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
      %r = croq.mma row row %x, %ma, %mb : !croq.frag<128x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<128x128xf32>
      %done = croq.mma.commit %r : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %acc -> %c_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %c = croq.subspan %out [128, 128] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %c_s -> %c : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// -----

// An implicit GEMM whose A tile comes from an im2col load: the load is
// pipelined like a tiled one (its coordinates and tap offsets computed again
// in the producer from the iteration), into a stage of the A ring.
// CHECK-LABEL: func.func @implicit_gemm
// CHECK:       %[[MAP:.*]] = croq.im2col_map
// CHECK:         %[[A:.*]] = croq.alloc : !croq.tiles<{{[0-9]+}} x 128x64xf16, shared, swizzle = 128>
// CHECK:           croq.inthreads async %{{.*}} {
// CHECK-NEXT:        scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               %[[S:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:          croq.event.wait %{{.*}}[%[[S]]]
// CHECK-NEXT:          %[[R:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK-NEXT:          %[[T:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK:               %[[SA:.*]] = croq.stage %[[A]][%[[S]]]
// CHECK-NEXT:          %[[FA:.*]] = croq.im2col async %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets [%[[R]], %[[T]]] -> %[[SA]] map %[[MAP]]
// CHECK:               croq.event.trigger %{{.*}}[%[[S]]] after (%[[FA]], %{{.*}})
// CHECK:           croq.inthreads async %{{.*}} {
// CHECK-NOT:         croq.im2col
// CHECK:             croq.mma.commit
// OFF-LABEL: func.func @implicit_gemm
// OFF: croq.im2col %
func.func @implicit_gemm(%x: memref<?x?x?x?xf16>, %w: memref<?x?xf16>, %out: memref<?x?xf16>, %gm: index, %gn: index, %kt: index) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %acc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %acc0) -> (!croq.acc<128x128xf32>) {
      %r = arith.divui %k, %c3 : index
      %t = arith.remui %k, %c3 : index
      croq.im2col %x[%bm, %c0, %c0, %c0] offsets [%r, %t] -> %a_s map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %w [128, 64] at [%bn, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %b_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %kk = %c0 to %c4 step %c1 iter_args(%part = %c) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %a_s[_, %kk] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %b_s[_, %kk] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %acc -> %c_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %o = croq.subspan %out [128, 128] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %c_s -> %o : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}
