// RUN: croq-opt %s | croq-opt | FileCheck %s
// RUN: croq-opt %s --mlir-print-op-generic | croq-opt | FileCheck %s

// Round trip of every croq type and op. Each ODS `Example:` block appears
// here verbatim (test/lint/ods-examples.test checks it).

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @tile_type_examples(
// CHECK-SAME: !croq.tile<16x16xi32, shared>
// CHECK-SAME: !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK-SAME: !croq.tile<8x8xf32, local>
func.func @tile_type_examples(
    %a: !croq.tile<16x16xi32, shared>,
    %b: !croq.tile<128x64xf16, shared, swizzle = 128>,
    %c: !croq.tile<8x8xf32, local>) {
  return
}

// CHECK-LABEL: func.func @tile_type_swizzles(
// CHECK-SAME: !croq.tile<64x64xf16, shared>
// CHECK-SAME: !croq.tile<64x16xf16, shared, swizzle = 32>
// CHECK-SAME: !croq.tile<64x32xf16, shared, swizzle = 64>
// CHECK-SAME: !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-SAME: !croq.tile<64x64xf16, shared, swizzle = auto>
// CHECK-SAME: !croq.tile<64x64xf16, shared>
// CHECK-SAME: !croq.tile<64x64xf16, shared, swizzle = 128>
func.func @tile_type_swizzles(
    %none: !croq.tile<64x64xf16, shared, swizzle = none>,
    %s32: !croq.tile<64x16xf16, shared, swizzle = 32>,
    %s64: !croq.tile<64x32xf16, shared, swizzle = 64>,
    %s128: !croq.tile<64x64xf16, shared, swizzle = 128>,
    %auto: !croq.tile<64x64xf16, shared, swizzle = auto>,
    %zero: !croq.tile<64x64xf16, shared, swizzle = 0>,
    %reordered: !croq.tile<64x64xf16, swizzle = 128, shared>) {
  return
}

// The memory space of a tile defaults to shared.
// CHECK-LABEL: func.func @tile_type_default_space(
// CHECK-SAME: !croq.tile<256xf32, shared>
// CHECK-SAME: !croq.tile<2x3x4xbf16, local>
// CHECK-SAME: !croq.tile<4x4xf8E4M3FN, shared>
// CHECK-SAME: !croq.tile<4x4xindex, local>
func.func @tile_type_default_space(
    %a: !croq.tile<256xf32>,
    %b: !croq.tile<2x3x4xbf16, local>,
    %c: !croq.tile<4x4xf8E4M3FN>,
    %d: !croq.tile<4x4xindex, local>) {
  return
}

// CHECK-LABEL: func.func @tiles_type(
// CHECK-SAME: !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
// CHECK-SAME: !croq.tiles<2 x 8xf32, local>
// CHECK-SAME: !croq.tiles<1 x 16x16xi8, shared>
func.func @tiles_type(
    %a: !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>,
    %b: !croq.tiles<2 x 8xf32, local>,
    %c: !croq.tiles<1 x 16x16xi8>) {
  return
}

// Global views do not print their memory space.
// CHECK-LABEL: func.func @view_type(
// CHECK-SAME: !croq.view<16x16xi32>
// CHECK-SAME: !croq.view<?x64xf16>
// CHECK-SAME: !croq.view<64x16xf16, shared, swizzle = 128>
// CHECK-SAME: !croq.view<?x?xf32, shared>
// CHECK-SAME: !croq.view<16x16xf32>
// CHECK-SAME: !croq.view<?xf32, local>
// CHECK-SAME: !croq.view<f32>
func.func @view_type(
    %a: !croq.view<16x16xi32>,
    %b: !croq.view<?x64xf16>,
    %c: !croq.view<64x16xf16, shared, swizzle = 128>,
    %d: !croq.view<?x?xf32, shared>,
    %e: !croq.view<16x16xf32, global>,
    %f: !croq.view<?xf32, local>,
    %g: !croq.view<f32>) {
  return
}

// CHECK-LABEL: func.func @future_and_events_types(
// CHECK-SAME: !croq.future
// CHECK-SAME: !croq.events<4>
// CHECK-SAME: !croq.events<1>
// CHECK-SAME: !croq.tensor_map
func.func @future_and_events_types(%f: !croq.future, %e: !croq.events<4>,
                                   %one: !croq.events<1>, %m: !croq.tensor_map) {
  return
}

// CHECK-LABEL: func.func @phases_type(
// CHECK-SAME: !croq.phases<4>
// CHECK-SAME: !croq.phases<64>
func.func @phases_type(%p: !croq.phases<4>, %q: !croq.phases<64>) {
  return
}

// CHECK-LABEL: func.func @acc_and_frag_types(
// CHECK-SAME: !croq.acc<64x256xf32>
// CHECK-SAME: !croq.acc<64x8xi32>
// CHECK-SAME: !croq.frag<64x64xf16>
// CHECK-SAME: !croq.frag<64x32xf8E5M2>
func.func @acc_and_frag_types(%a: !croq.acc<64x256xf32>,
                              %b: !croq.acc<64x8xi32>,
                              %c: !croq.frag<64x64xf16>,
                              %d: !croq.frag<64x32xf8E5M2>) {
  return
}

// CHECK-LABEL: func.func @register_types(
// CHECK-SAME: !croq.frag<64x128xf16, registers>
// CHECK-SAME: !croq.vec<64xf32, rows>
// CHECK-SAME: !croq.vec<256xi32, cols>
func.func @register_types(%a: !croq.frag<64x128xf16, registers>,
                          %b: !croq.vec<64xf32, rows>,
                          %c: !croq.vec<256xi32, cols>) {
  return
}

// The ODS examples of the types.
func.func @register_type_examples(
  %a: !croq.frag<64x64xf16>,
  %b: !croq.frag<64x128xf16, registers>,
  %c: !croq.vec<64xf32, rows>) {
  return
}

//===----------------------------------------------------------------------===//
// Parallel regions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @parallel_block_and_thread()
func.func @parallel_block_and_thread() {
  // CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [4, 8] : block {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    // CHECK: croq.parallel (%{{.*}}) in [128] : thread {
    croq.parallel (%t) in [128] : thread {
    }
  }
  // CHECK: croq.parallel (%{{.*}}) in [16] : block cluster [2] {
  croq.parallel (%b) in [16] : block cluster [2] {
  }
  return
}

// Blocks launched in clusters of 1 x 2 (a dynamic extent is checked when
// the launch runs): each knows its rank in the cluster and synchronizes
// with the other.
// CHECK-LABEL: func.func @cluster_example(
// CHECK-SAME:      %[[N:[a-z0-9_]+]]: index)
// CHECK:         croq.parallel (%{{.*}}, %{{.*}}) in [%[[N]], 4] : block cluster [1, 2] {
// CHECK-NEXT:      %{{.*}} = croq.cluster.rank
// CHECK-NEXT:      croq.cluster.barrier
func.func @cluster_example(%n: index) -> () {
  croq.parallel (%i, %j) in [%n, 4] : block cluster [1, 2] {
    %r = croq.cluster.rank
    croq.cluster.barrier
  }
  return
}

// The blocks of a cluster of 2 x 1 sum their accumulators in the leader
// (rank 0) through a scratch slot of its shared memory.
// CHECK-LABEL: func.func @cluster_sum_example()
// CHECK:         croq.parallel (%{{.*}}, %{{.*}}) in [4, 32] : block cluster [2, 1] {
// CHECK:           %[[S:.*]] = croq.alloc : !croq.tile<64x128xf32, shared>
// CHECK:           %[[ACC:.*]] = croq.mma.fill
// CHECK-NEXT:      %{{.*}} = croq.mma.cluster_sum %[[ACC]] scratch %[[S]] : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
func.func @cluster_sum_example() -> () {
    croq.parallel (%i, %j) in [4, 32] : block cluster [2, 1] {
      %s = croq.alloc : !croq.tile<64x128xf32, shared>
      %z = arith.constant 0.0 : f32
      %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
      %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    }
  return
}

// A cluster of 4 along M: three slots, i32 accumulators (s8 products).
// CHECK-LABEL: func.func @cluster_sum_four()
// CHECK: croq.mma.cluster_sum %{{.*}} scratch %{{.*}} : !croq.acc<128x64xi32>, !croq.tile<384x64xi32, shared>
func.func @cluster_sum_four() {
  croq.parallel (%i, %j) in [8, 2] : block cluster [4, 1] {
    %s = croq.alloc : !croq.tile<384x64xi32, shared>
    %z = arith.constant 0 : i32
    %acc = croq.mma.fill %z : !croq.acc<128x64xi32>
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<128x64xi32>, !croq.tile<384x64xi32, shared>
  }
  return
}

// CHECK-LABEL: func.func @parallel_warpgroup_and_thread()
func.func @parallel_warpgroup_and_thread() {
  // CHECK: croq.parallel (%{{.*}}) in [132] : block {
  croq.parallel (%b) in [132] : block {
    // CHECK: croq.parallel (%{{.*}}) in [3] : warpgroup {
    croq.parallel (%w) in [3] : warpgroup {
      // CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [4, 32] : thread {
      croq.parallel (%x, %y) in [4, 32] : thread {
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @parallel_dynamic_extents(
// CHECK-SAME: %[[M:[^:]*]]: index, %[[N:[^:]*]]: index
func.func @parallel_dynamic_extents(%m: index, %n: index,
                                    %t: memref<?x4xf32>) {
  // CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [%[[M]], 4] : block {
  croq.parallel (%bm, %bn) in [%m, 4] : block {
    // CHECK: croq.parallel (%{{.*}}) in [%[[N]]] : thread {
    croq.parallel (%t0) in [%n] : thread {
      // CHECK: croq.read %{{.*}}[%[[BM]], %[[BN]]]
      %x = croq.read %t[%bm, %bn] : memref<?x4xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @parallel_with_attributes()
func.func @parallel_with_attributes() {
  // CHECK: croq.parallel (%{{.*}}) in [2] : block attributes {note = "kept"} {
  croq.parallel (%i) in [2] : block attributes {note = "kept"} {
  }
  return
}

// CHECK-LABEL: func.func @inthreads_async_example()
func.func @inthreads_async_example() {
  croq.parallel (%b) in [16] : block {
    // CHECK: croq.parallel (%[[P:.*]]) in [2] : warpgroup {
    // CHECK: %[[C0:.*]] = arith.constant 0 : index
    // CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[P]], %[[C0]] : index
    // CHECK: croq.inthreads async %[[PRODUCER]] {
    croq.parallel (%p) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %is_producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %is_producer {
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @inthreads_sync(
// CHECK-SAME: %[[COND:[^:]*]]: i1
func.func @inthreads_sync(%cond: i1) {
  croq.parallel (%t) in [128] : block {
    // CHECK: croq.inthreads %[[COND]] {
    croq.inthreads %cond {
      // CHECK-NEXT: croq.alloc : !croq.tile<4xf32, local>
      %l = croq.alloc : !croq.tile<4xf32, local>
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @alloc_example()
func.func @alloc_example() {
  croq.parallel (%b) in [1] : block {
    // CHECK: croq.alloc : !croq.tile<16x16xi32, shared>
    // CHECK: croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %t = croq.alloc : !croq.tile<16x16xi32, shared>
    %ring = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
  }
  return
}

// Local buffers may be allocated at any level.
// CHECK-LABEL: func.func @alloc_local()
func.func @alloc_local() {
  croq.parallel (%b) in [1] : block {
    // CHECK: croq.alloc : !croq.tile<8x8xf32, local>
    %a = croq.alloc : !croq.tile<8x8xf32, local>
    croq.parallel (%t) in [128] : thread {
      // CHECK: croq.alloc : !croq.tiles<2 x 8xf32, local>
      %r = croq.alloc : !croq.tiles<2 x 8xf32, local>
      croq.foreach (%i) in [2] {
        // CHECK: croq.alloc : !croq.tile<4xi32, local>
        %x = croq.alloc : !croq.tile<4xi32, local>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @stage_example(
// CHECK-SAME: %[[RING:[^:]*]]: !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>, %[[S:[^:]*]]: index
func.func @stage_example(%ring: !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>, %s: index) {
  // CHECK: croq.stage %[[RING]][%[[S]]] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
  %t = croq.stage %ring[%s] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
  return
}

// The result is the stage's tile type.
// CHECK-LABEL: func.func @stage_constant_index(
func.func @stage_constant_index(%ring: !croq.tiles<2 x 8xf32, local>) {
  %c1 = arith.constant 1 : index
  // CHECK: %[[T:.*]] = croq.stage %{{.*}}[%{{.*}}] : !croq.tiles<2 x 8xf32, local>
  %t = croq.stage %ring[%c1] : !croq.tiles<2 x 8xf32, local>
  // CHECK: croq.read %[[T]][%{{.*}}] : !croq.tile<8xf32, local>
  %x = croq.read %t[%c1] : !croq.tile<8xf32, local>
  return
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @chunkat_example(
// CHECK-SAME: %[[LHS:[^:]*]]: memref<64x128xi32>, %[[T:[^:]*]]: !croq.tile<64x64xf16, shared>, %[[K:[^:]*]]: index
func.func @chunkat_example(%lhs: memref<64x128xi32>, %t: !croq.tile<64x64xf16, shared>, %k: index) {
  // CHECK: croq.parallel (%[[TR:.*]], %[[TC:.*]]) in [4, 8] : block {
  // CHECK: croq.chunkat %[[LHS]][%[[TR]], %[[TC]]] : memref<64x128xi32> -> !croq.view<16x16xi32>
  // CHECK: croq.chunkat %[[T]][_, %[[K]]] of [1, 4] : !croq.tile<64x64xf16, shared> -> !croq.view<64x16xf16, shared>
  croq.parallel (%tr, %tc) in [4, 8] : block {
    %v = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %w = croq.chunkat %t[_, %k] of [1, 4] : !croq.tile<64x64xf16, shared> -> !croq.view<64x16xf16, shared>
  }
  return
}

// `_` keeps a dimension whole; the count of the other one comes from the
// enclosing parallel region. 100 / 8 rounds up to 13.
// CHECK-LABEL: func.func @chunkat_whole_dim_from_parallel(
func.func @chunkat_whole_dim_from_parallel(%m: memref<32x100xf32>) {
  croq.parallel (%j) in [8] : block {
    // CHECK: croq.chunkat %{{.*}}[_, %{{.*}}] : memref<32x100xf32> -> !croq.view<32x13xf32>
    %v = croq.chunkat %m[_, %j] : memref<32x100xf32> -> !croq.view<32x13xf32>
  }
  return
}

// CHECK-LABEL: func.func @chunkat_counts_from_foreach(
func.func @chunkat_counts_from_foreach(%t: !croq.tile<16x16xf32, local>) {
  // CHECK: croq.foreach (%[[I:.*]], %[[J:.*]]) in [2, 4] {
  croq.foreach (%i, %j) in [2, 4] {
    // CHECK: croq.chunkat %{{.*}}[%[[I]], %[[J]]] : !croq.tile<16x16xf32, local> -> !croq.view<8x4xf32, local>
    %v = croq.chunkat %t[%i, %j] : !croq.tile<16x16xf32, local> -> !croq.view<8x4xf32, local>
  }
  return
}

// A dynamic extent or a dynamic source dimension gives a dynamic chunk.
// CHECK-LABEL: func.func @chunkat_dynamic(
func.func @chunkat_dynamic(%m: memref<64x?xf32>, %n: index, %v: !croq.view<?x64xf32>, %k: index) {
  croq.parallel (%i, %j) in [%n, 2] : block {
    // CHECK: croq.chunkat %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x?xf32> -> !croq.view<?x?xf32>
    %a = croq.chunkat %m[%i, %j] : memref<64x?xf32> -> !croq.view<?x?xf32>
    // CHECK: croq.chunkat %{{.*}}[%{{.*}}, _] of [4, 1] : !croq.view<?x64xf32> -> !croq.view<?x64xf32>
    %b = croq.chunkat %v[%k, _] of [4, 1] : !croq.view<?x64xf32> -> !croq.view<?x64xf32>
  }
  return
}

// CHECK-LABEL: func.func @chunkat_whole_view(
func.func @chunkat_whole_view(%v: !croq.view<16x16xf32>) {
  // CHECK: croq.chunkat %{{.*}}[_, _] : !croq.view<16x16xf32> -> !croq.view<16x16xf32>
  %w = croq.chunkat %v[_, _] : !croq.view<16x16xf32> -> !croq.view<16x16xf32>
  return
}

// CHECK-LABEL: func.func @subspan_example(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[M:[^:]*]]: memref<128x128xf32>, %[[BM:[^:]*]]: index, %[[K:[^:]*]]: index, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index
func.func @subspan_example(%a: memref<?x?xf16>, %m: memref<128x128xf32>, %bm: index, %k: index, %i: index, %j: index) {
  // CHECK: croq.subspan %[[A]] [128, 64] at [%[[BM]], %[[K]]] : memref<?x?xf16> -> !croq.view<128x64xf16>
  // CHECK: croq.subspan %[[M]] [16, 16] step [32, 32] at [%[[I]], %[[J]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
  %v = croq.subspan %a [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
  %w = croq.subspan %m [16, 16] step [32, 32] at [%i, %j] : memref<128x128xf32> -> !croq.view<16x16xf32>
  return
}

// CHECK-LABEL: func.func @subspan_dynamic_sizes_and_steps(
// CHECK-SAME: %[[M:[^:]*]]: memref<?x?xf32>, %[[N:[^:]*]]: index, %[[S:[^:]*]]: index, %[[I:[^:]*]]: index
func.func @subspan_dynamic_sizes_and_steps(%m: memref<?x?xf32>, %n: index, %s: index, %i: index) {
  // CHECK: croq.subspan %[[M]] [%[[N]], 8] at [%[[I]], %[[I]]] : memref<?x?xf32> -> !croq.view<?x8xf32>
  %v = croq.subspan %m [%n, 8] at [%i, %i] : memref<?x?xf32> -> !croq.view<?x8xf32>
  // CHECK: croq.subspan %[[M]] [16, %[[N]]] step [%[[S]], 4] at [%[[I]], %[[I]]] : memref<?x?xf32> -> !croq.view<16x?xf32>
  %w = croq.subspan %m [16, %n] step [%s, 4] at [%i, %i] : memref<?x?xf32> -> !croq.view<16x?xf32>
  return
}

// Views of a shared tile keep its memory space and swizzle.
// CHECK-LABEL: func.func @subspan_of_shared_tile(
func.func @subspan_of_shared_tile(%t: !croq.tile<64x64xf16, shared, swizzle = 128>, %i: index, %k: index) {
  // CHECK: croq.subspan %{{.*}} [64, 16] at [%{{.*}}, %{{.*}}] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
  %v = croq.subspan %t [64, 16] at [%i, %k] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
  return
}

// CHECK-LABEL: func.func @view_example(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %[[C:[^:]*]]: index, %[[R:[^:]*]]: index, %[[E:[^:]*]]: index
func.func @view_example(%m: memref<128x128xf32>, %c: index, %r: index, %e: index) {
  // CHECK: croq.view %[[M]] [16, 16] from [37, %[[C]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
  // CHECK: croq.view %[[M]] [16, 16] from [%[[R]], 0] within [%[[E]], 128] : memref<128x128xf32> -> !croq.view<16x16xf32>
  %p = croq.view %m [16, 16] from [37, %c] : memref<128x128xf32> -> !croq.view<16x16xf32>
  %q = croq.view %m [16, 16] from [%r, 0] within [%e, 128] : memref<128x128xf32> -> !croq.view<16x16xf32>
  return
}

// CHECK-LABEL: func.func @view_dynamic_and_nested(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<?x?xf32, shared>, %[[N:[^:]*]]: index
func.func @view_dynamic_and_nested(%v: !croq.view<?x?xf32, shared>, %n: index) {
  // CHECK: %[[W:.*]] = croq.view %[[V]] [%[[N]], 4] from [0, %[[N]]] within [%[[N]], %[[N]]] : !croq.view<?x?xf32, shared> -> !croq.view<?x4xf32, shared>
  %w = croq.view %v [%n, 4] from [0, %n] within [%n, %n] : !croq.view<?x?xf32, shared> -> !croq.view<?x4xf32, shared>
  // CHECK: croq.view %[[W]] [2, 2] from [1, 1] : !croq.view<?x4xf32, shared> -> !croq.view<2x2xf32, shared>
  %x = croq.view %w [2, 2] from [1, 1] : !croq.view<?x4xf32, shared> -> !croq.view<2x2xf32, shared>
  return
}

// CHECK-LABEL: func.func @span_as_example(
func.func @span_as_example(%flat: !croq.tile<8192xf16, shared>) {
  // CHECK: croq.span_as %{{.*}} : !croq.tile<8192xf16, shared> -> !croq.tile<128x64xf16, shared>
  %m = croq.span_as %flat : !croq.tile<8192xf16, shared> -> !croq.tile<128x64xf16, shared>
  return
}

// CHECK-LABEL: func.func @span_as_swizzled_local(
func.func @span_as_swizzled_local(%s: !croq.tile<64x64xf16, shared, swizzle = 128>, %l: !croq.tile<2x8xi32, local>) {
  // CHECK: croq.span_as %{{.*}} : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.tile<2x32x64xf16, shared, swizzle = 128>
  %a = croq.span_as %s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.tile<2x32x64xf16, shared, swizzle = 128>
  // CHECK: croq.span_as %{{.*}} : !croq.tile<2x8xi32, local> -> !croq.tile<16xi32, local>
  %b = croq.span_as %l : !croq.tile<2x8xi32, local> -> !croq.tile<16xi32, local>
  return
}

//===----------------------------------------------------------------------===//
// Copies and futures
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @copy_example(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<16x16xi32>, %[[T:[^:]*]]: !croq.tile<16x16xi32, shared>, %[[A:[^:]*]]: !croq.view<128x64xf16>, %[[S:[^:]*]]: !croq.tile<128x64xf16, shared, swizzle = 128>
func.func @copy_example(%v: !croq.view<16x16xi32>, %t: !croq.tile<16x16xi32, shared>, %a: !croq.view<128x64xf16>, %s: !croq.tile<128x64xf16, shared, swizzle = 128>, %w: !croq.view<64x128xf16>, %u: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // CHECK: croq.copy dma %[[V]] -> %[[T]] : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
  // CHECK: %{{.*}} = croq.copy tma async zfill swizzle = 128 %[[A]] -> %[[S]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  // CHECK: croq.wait
  // CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [64, 64] at {{\[\[0, 0\], \[0, 64\]\]}} : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  croq.copy dma %v -> %t : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
  %f = croq.copy tma async zfill swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  croq.wait %f
  croq.copy tma %w -> %u boxes [64, 64] at [[0, 0], [0, 64]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  // CHECK: croq.parallel
  // CHECK: %[[M:.*]] = croq.copy tma async multicast swizzle = 128 %[[A]] -> %[[S]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  // CHECK: croq.wait %[[M]]
  croq.parallel (%b) in [16] : block cluster [2] {
    %m = croq.copy tma async multicast swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.wait %m
  }
  // CHECK: croq.parallel
  // CHECK: %[[R:.*]] = croq.copy tma async multicast along 1 swizzle = 128 %[[A]] -> %[[S]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  // CHECK: croq.wait %[[R]]
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    %m = croq.copy tma async multicast along 1 swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.wait %m
  }
  // CHECK: croq.parallel
  // CHECK: %[[C:.*]] = croq.copy tma async multicast along 0 zfill swizzle = 128 %[[A]] -> %[[S]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    %c = croq.copy tma async multicast along 0 zfill swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.wait %c
  }
  return
}

// An async tma store's future may be left unwaited: the compiler completes
// the store before its tile is written again and before the kernel ends.
// CHECK-LABEL: func.func @copy_tma_store_unwaited(
// CHECK: %{{.*}} = croq.copy tma async %{{.*}} -> %{{.*}} : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
// CHECK-NEXT: return
func.func @copy_tma_store_unwaited(%t: !croq.tile<64x64xf16, shared>, %o: !croq.view<64x64xf16>) {
  %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
  return
}

// CHECK-LABEL: func.func @copy_dma_directions(
func.func @copy_dma_directions(%m: memref<16x16xf32>, %s: !croq.tile<16x16xf32, shared>,
                               %l: !croq.tile<16x16xf32, local>, %v: !croq.view<16x16xf32>,
                               %d: !croq.view<?x16xf32>) {
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : memref<16x16xf32> -> !croq.tile<16x16xf32, shared>
  croq.copy dma %m -> %s : memref<16x16xf32> -> !croq.tile<16x16xf32, shared>
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.tile<16x16xf32, shared> -> memref<16x16xf32>
  croq.copy dma %s -> %m : !croq.tile<16x16xf32, shared> -> memref<16x16xf32>
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, local>
  croq.copy dma %v -> %l : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, local>
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.tile<16x16xf32, shared> -> !croq.tile<16x16xf32, local>
  croq.copy dma %s -> %l : !croq.tile<16x16xf32, shared> -> !croq.tile<16x16xf32, local>
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.tile<16x16xf32, local> -> !croq.view<16x16xf32>
  croq.copy dma %l -> %v : !croq.tile<16x16xf32, local> -> !croq.view<16x16xf32>
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.view<?x16xf32> -> !croq.tile<16x16xf32, shared>
  croq.copy dma %d -> %s : !croq.view<?x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// CHECK-LABEL: func.func @copy_dma_async_and_wait(
func.func @copy_dma_async_and_wait(%v: !croq.view<16x16xf32>, %s: !croq.tile<16x16xf32, shared>) {
  // CHECK: %[[F:.*]] = croq.copy dma async %{{.*}} -> %{{.*}} : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  %f = croq.copy dma async %v -> %s : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  return
}

// A view smaller than the tile needs zfill; so do a chunk that can run past
// the edge of its tensor (100 is not a multiple of 13) and a subspan with a
// step.
// CHECK-LABEL: func.func @copy_zfill(
func.func @copy_zfill(%small: !croq.view<8x16xf32>, %s: !croq.tile<16x16xf32, shared>,
                      %l: !croq.tile<32x13xf32, local>, %m: memref<32x100xf32>,
                      %w: memref<64x64xf32>, %i: index) {
  // CHECK: croq.copy dma zfill %{{.*}} -> %{{.*}} : !croq.view<8x16xf32> -> !croq.tile<16x16xf32, shared>
  croq.copy dma zfill %small -> %s : !croq.view<8x16xf32> -> !croq.tile<16x16xf32, shared>
  croq.parallel (%j) in [8] : block {
    %c = croq.chunkat %m[_, %j] : memref<32x100xf32> -> !croq.view<32x13xf32>
    // CHECK: croq.copy dma zfill %{{.*}} -> %{{.*}} : !croq.view<32x13xf32> -> !croq.tile<32x13xf32, local>
    croq.copy dma zfill %c -> %l : !croq.view<32x13xf32> -> !croq.tile<32x13xf32, local>
  }
  %o = croq.subspan %w [16, 16] step [24, 24] at [%i, %i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  // CHECK: croq.copy dma async zfill %{{.*}} -> %{{.*}} : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  %f = croq.copy dma async zfill %o -> %s : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  croq.wait %f
  return
}

// 128 chunks of one row over 64 rows: chunks 64 to 127 are empty, so zfill
// has an effect although 64 is a multiple of 1.
// CHECK-LABEL: func.func @copy_zfill_more_chunks_than_rows(
func.func @copy_zfill_more_chunks_than_rows(%m: memref<64x16xf32>) {
  croq.parallel (%i) in [128] : block {
    %t = croq.alloc : !croq.tile<1x16xf32, shared>
    // CHECK: %[[V:.*]] = croq.chunkat %{{.*}}[%{{.*}}, _] : memref<64x16xf32> -> !croq.view<1x16xf32>
    %v = croq.chunkat %m[%i, _] : memref<64x16xf32> -> !croq.view<1x16xf32>
    // CHECK: croq.copy dma zfill %[[V]] -> %{{.*}} : !croq.view<1x16xf32> -> !croq.tile<1x16xf32, shared>
    croq.copy dma zfill %v -> %t : !croq.view<1x16xf32> -> !croq.tile<1x16xf32, shared>
  }
  return
}

// An explicit swizzle must agree with the tile's; `auto` tiles take any.
// CHECK-LABEL: func.func @copy_swizzle(
func.func @copy_swizzle(%v: !croq.view<64x32xf16>, %s64: !croq.tile<64x32xf16, shared, swizzle = 64>,
                        %auto: !croq.tile<64x32xf16, shared, swizzle = auto>,
                        %plain: !croq.tile<64x32xf16, shared>) {
  // CHECK: croq.copy dma swizzle = 64 %{{.*}} -> %{{.*}} : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 64>
  croq.copy dma swizzle = 64 %v -> %s64 : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 64>
  // CHECK: croq.copy dma swizzle = 32 %{{.*}} -> %{{.*}} : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = auto>
  croq.copy dma swizzle = 32 %v -> %auto : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = auto>
  // CHECK: croq.copy dma swizzle = none %{{.*}} -> %{{.*}} : !croq.tile<64x32xf16, shared> -> !croq.view<64x32xf16>
  croq.copy dma swizzle = none %plain -> %v : !croq.tile<64x32xf16, shared> -> !croq.view<64x32xf16>
  // CHECK: croq.copy dma swizzle = auto %{{.*}} -> %{{.*}} : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = auto>
  croq.copy dma swizzle = auto %v -> %auto : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = auto>
  return
}

// TMA loads and stores; boxes above 256 rows are split, inner boxes wider
// than the swizzle span are split into atoms.
// CHECK-LABEL: func.func @copy_tma(
func.func @copy_tma(%g: memref<512x64xf16>, %s: !croq.tile<512x64xf16, shared, swizzle = 128>,
                    %v5: !croq.view<2x4x8x16x8xf32>, %s5: !croq.tile<2x4x8x16x8xf32, shared>,
                    %wide: !croq.view<64x128xbf16>, %sw: !croq.tile<64x128xbf16, shared, swizzle = 128>,
                    %bytes: !croq.view<64x16xi8>, %sb: !croq.tile<64x16xi8, shared>) {
  // CHECK: croq.copy tma %{{.*}} -> %{{.*}} : memref<512x64xf16> -> !croq.tile<512x64xf16, shared, swizzle = 128>
  croq.copy tma %g -> %s : memref<512x64xf16> -> !croq.tile<512x64xf16, shared, swizzle = 128>
  // CHECK: croq.copy tma %{{.*}} -> %{{.*}} : !croq.tile<512x64xf16, shared, swizzle = 128> -> memref<512x64xf16>
  croq.copy tma %s -> %g : !croq.tile<512x64xf16, shared, swizzle = 128> -> memref<512x64xf16>
  // CHECK: %[[F:.*]] = croq.copy tma async %{{.*}} -> %{{.*}} : !croq.view<2x4x8x16x8xf32> -> !croq.tile<2x4x8x16x8xf32, shared>
  %f = croq.copy tma async %v5 -> %s5 : !croq.view<2x4x8x16x8xf32> -> !croq.tile<2x4x8x16x8xf32, shared>
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  // CHECK: croq.copy tma %{{.*}} -> %{{.*}} : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
  croq.copy tma %wide -> %sw : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
  // CHECK: croq.copy tma %{{.*}} -> %{{.*}} : !croq.view<64x16xi8> -> !croq.tile<64x16xi8, shared>
  croq.copy tma %bytes -> %sb : !croq.view<64x16xi8> -> !croq.tile<64x16xi8, shared>
  return
}

// CHECK-LABEL: func.func @copy_with_attributes(
func.func @copy_with_attributes(%v: !croq.view<4xf32>, %l: !croq.tile<4xf32, local>) {
  // CHECK: croq.copy dma %{{.*}} -> %{{.*}} {note = 1 : i64} : !croq.view<4xf32> -> !croq.tile<4xf32, local>
  croq.copy dma %v -> %l {note = 1} : !croq.view<4xf32> -> !croq.tile<4xf32, local>
  return
}

// CHECK-LABEL: func.func @transpose_example(
func.func @transpose_example(%src: !croq.view<16x32xf32>, %dst: !croq.tile<32x16xf32, local>) {
  // CHECK: croq.transpose [1, 0] %{{.*}} -> %{{.*}} : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
  croq.transpose [1, 0] %src -> %dst : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
  return
}

// CHECK-LABEL: func.func @transpose_async_3d(
func.func @transpose_async_3d(%src: memref<2x4x8xf16>, %dst: !croq.tile<8x2x4xf16, shared>) {
  // CHECK: %[[F:.*]] = croq.transpose async [2, 0, 1] %{{.*}} -> %{{.*}} : memref<2x4x8xf16> -> !croq.tile<8x2x4xf16, shared>
  %f = croq.transpose async [2, 0, 1] %src -> %dst : memref<2x4x8xf16> -> !croq.tile<8x2x4xf16, shared>
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  return
}

// CHECK-LABEL: func.func @pad_example(
// CHECK-SAME: %[[ZERO:[^:]*]]: f32
func.func @pad_example(%src: !croq.view<8x8xf32>, %dst: !croq.tile<11x13xf32, shared>, %zero: f32) {
  // CHECK: croq.pad low [2, 3] high [1, 2] interior [0, 0] %{{.*}} -> %{{.*}} value %[[ZERO]] : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  croq.pad low [2, 3] high [1, 2] interior [0, 0] %src -> %dst value %zero : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  return
}

// 1 + 0 + 4 + 2 * 3 = 11.
// CHECK-LABEL: func.func @pad_async_interior(
func.func @pad_async_interior(%src: !croq.view<4xi32>, %dst: !croq.tile<11xi32, shared>, %v: i32) {
  // CHECK: %[[F:.*]] = croq.pad async low [1] high [0] interior [2] %{{.*}} -> %{{.*}} value %{{.*}} : !croq.view<4xi32> -> !croq.tile<11xi32, shared>
  %f = croq.pad async low [1] high [0] interior [2] %src -> %dst value %v : !croq.view<4xi32> -> !croq.tile<11xi32, shared>
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  return
}

// CHECK-LABEL: func.func @wait_example(
// CHECK-SAME: %[[F:[^:]*]]: !croq.future
func.func @wait_example(%f: !croq.future) {
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  return
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @event_alloc_example()
func.func @event_alloc_example() {
  croq.parallel (%b) in [1] : block {
    // CHECK: croq.event.alloc : !croq.events<4>
    // CHECK: croq.event.alloc ready : !croq.events<4>
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
  }
  return
}

// CHECK-LABEL: func.func @event_trigger_example(
// CHECK-SAME: %[[FULL:[^:]*]]: !croq.events<4>, %[[S:[^:]*]]: index, %[[FA:[^:]*]]: !croq.future, %[[FB:[^:]*]]: !croq.future
func.func @event_trigger_example(%full: !croq.events<4>, %s: index, %fa: !croq.future, %fb: !croq.future) {
  // CHECK: croq.event.trigger %[[FULL]][%[[S]]] after (%[[FA]], %[[FB]]) : !croq.events<4>
  croq.event.trigger %full[%s] after (%fa, %fb) : !croq.events<4>
  // CHECK: croq.event.trigger %{{.*}}[%{{.*}}] cluster : !croq.events<2>
  croq.parallel (%b) in [16] : block cluster [2] {
    %empty = croq.event.alloc ready : !croq.events<2>
    %c0 = arith.constant 0 : index
    croq.event.trigger %empty[%c0] cluster : !croq.events<2>
  }
  return
}

// CHECK-LABEL: func.func @event_trigger_without_after(
func.func @event_trigger_without_after(%empty: !croq.events<4>) {
  // CHECK: %[[C3:.*]] = arith.constant 3 : index
  %c3 = arith.constant 3 : index
  // CHECK: croq.event.trigger %{{.*}}[%[[C3]]] : !croq.events<4>
  croq.event.trigger %empty[%c3] : !croq.events<4>
  return
}

// CHECK-LABEL: func.func @event_wait_example(
// CHECK-SAME: %[[EMPTY:[^:]*]]: !croq.events<4>, %[[S:[^:]*]]: index
func.func @event_wait_example(%empty: !croq.events<4>, %s: index) {
  // CHECK: croq.event.wait %[[EMPTY]][%[[S]]] : !croq.events<4>
  croq.event.wait %empty[%s] : !croq.events<4>
  return
}

// The phased form croq-carry-event-phases gives a wait: it takes this
// thread's phase bits of the array and returns them with the slot's bit
// flipped.
// CHECK-LABEL: func.func @event_wait_phases_example(
// CHECK-SAME: %[[FULL:[^:]*]]: !croq.events<4>, %[[S:[^:]*]]: index
func.func @event_wait_phases_example(%full: !croq.events<4>, %s: index, %empty: !croq.events<4>) -> !croq.phases<4> {
  // CHECK: %[[P0:.*]] = croq.event.phases ready : !croq.phases<4>
  // CHECK: croq.event.wait %{{.*}}[%[[S]]] : !croq.events<4>
  // CHECK: %[[P1:.*]] = croq.event.wait %[[FULL]][%[[S]]] phases %[[P0]] : !croq.events<4>
  // CHECK: return %[[P1]] : !croq.phases<4>
  %p0 = croq.event.phases ready : !croq.phases<4>
  croq.event.wait %empty[%s] : !croq.events<4>
  %p1 = croq.event.wait %full[%s] phases %p0 : !croq.events<4>
  return %p1 : !croq.phases<4>
}

// CHECK-LABEL: func.func @event_phases_example(
func.func @event_phases_example() -> (!croq.phases<4>, !croq.phases<1>) {
  // CHECK: croq.event.phases ready : !croq.phases<4>
  // CHECK: croq.event.phases : !croq.phases<1>
  %p0 = croq.event.phases ready : !croq.phases<4>
  %q0 = croq.event.phases : !croq.phases<1>
  return %p0, %q0 : !croq.phases<4>, !croq.phases<1>
}

// A producer/consumer ring: a TMA load triggers the full slot once it lands.
// CHECK-LABEL: func.func @event_pipeline(
func.func @event_pipeline(%a: memref<256x64xf16>, %s: index) {
  croq.parallel (%b) in [1] : block {
    // CHECK: %[[FULL:.*]] = croq.event.alloc : !croq.events<2>
    %full = croq.event.alloc : !croq.events<2>
    // CHECK: %[[EMPTY:.*]] = croq.event.alloc ready : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %tile = croq.stage %ring[%s] : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
      // CHECK: croq.event.wait %[[EMPTY]][%{{.*}}] : !croq.events<2>
      croq.event.wait %empty[%s] : !croq.events<2>
      %v = croq.subspan %a [128, 64] at [%s, %b] : memref<256x64xf16> -> !croq.view<128x64xf16>
      // CHECK: %[[F:.*]] = croq.copy tma async
      %f = croq.copy tma async %v -> %tile : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      // CHECK: croq.event.trigger %[[FULL]][%{{.*}}] after (%[[F]]) : !croq.events<2>
      croq.event.trigger %full[%s] after (%f) : !croq.events<2>
      // CHECK: croq.event.wait %[[FULL]][%{{.*}}] : !croq.events<2>
      croq.event.wait %full[%s] : !croq.events<2>
      // CHECK: croq.event.trigger %[[EMPTY]][%{{.*}}] : !croq.events<2>
      croq.event.trigger %empty[%s] : !croq.events<2>
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mma_fill_example(
// CHECK-SAME: %[[ZERO:[^:]*]]: f32
func.func @mma_fill_example(%zero: f32) {
  // CHECK: croq.mma.fill %[[ZERO]] : !croq.acc<64x128xf32>
  %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
  return
}

// CHECK-LABEL: func.func @mma_fill_integer(
func.func @mma_fill_integer(%zero: i32) {
  // CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x8xi32>
  %acc = croq.mma.fill %zero : !croq.acc<64x8xi32>
  return
}

// CHECK-LABEL: func.func @mma_load_example(
func.func @mma_load_example(%t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // CHECK: croq.mma.load %{{.*}} : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
  %a = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
  return
}

// An explicit swizzle agrees with the tile's; `auto` tiles take any; views
// of shared tiles are operands too.
// CHECK-LABEL: func.func @mma_load_swizzle_and_views(
func.func @mma_load_swizzle_and_views(%t: !croq.tile<64x64xf16, shared, swizzle = 128>,
                                      %auto: !croq.tile<64x32xf16, shared, swizzle = auto>,
                                      %k: index, %dyn: !croq.view<?x16xf16, shared>) {
  // CHECK: croq.mma.load swizzle = 128 %{{.*}} : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
  %a = croq.mma.load swizzle = 128 %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
  // CHECK: croq.mma.load swizzle = 64 %{{.*}} : !croq.tile<64x32xf16, shared, swizzle = auto> -> !croq.frag<64x32xf16>
  %b = croq.mma.load swizzle = 64 %auto : !croq.tile<64x32xf16, shared, swizzle = auto> -> !croq.frag<64x32xf16>
  %w = croq.chunkat %t[_, %k] of [1, 4] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
  // CHECK: croq.mma.load %{{.*}} : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
  %c = croq.mma.load %w : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
  // CHECK: croq.mma.load %{{.*}} : !croq.view<?x16xf16, shared> -> !croq.frag<64x16xf16>
  %d = croq.mma.load %dyn : !croq.view<?x16xf16, shared> -> !croq.frag<64x16xf16>
  return
}

// CHECK-LABEL: func.func @mma_example(
// CHECK-SAME: %[[ACC:[^:]*]]: !croq.acc<64x128xf32>, %[[A:[^:]*]]: !croq.frag<64x64xf16>, %[[B:[^:]*]]: !croq.frag<128x64xf16>
func.func @mma_example(%acc: !croq.acc<64x128xf32>, %a: !croq.frag<64x64xf16>, %b: !croq.frag<128x64xf16>) {
  // CHECK: croq.mma row row %[[ACC]], %[[A]], %[[B]] : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
  return
}

// 16-bit operands may be stored either way: row A is M x K, col A is K x M,
// row B is N x K, col B is K x N.
// CHECK-LABEL: func.func @mma_f16_layouts(
func.func @mma_f16_layouts(%acc: !croq.acc<64x256xf16>,
                           %ar: !croq.frag<64x16xf16>, %ac: !croq.frag<16x64xf16>,
                           %br: !croq.frag<256x16xf16>, %bc: !croq.frag<16x256xf16>) {
  // CHECK: croq.mma row col %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x16xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf16>
  %0 = croq.mma row col %acc, %ar, %bc : !croq.frag<64x16xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf16>
  // CHECK: croq.mma col row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<16x64xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf16>
  %1 = croq.mma col row %acc, %ac, %br : !croq.frag<16x64xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf16>
  // CHECK: croq.mma col col %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<16x64xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf16>
  %2 = croq.mma col col %acc, %ac, %bc : !croq.frag<16x64xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf16>
  return
}

// CHECK-LABEL: func.func @mma_bf16_col_col(
func.func @mma_bf16_col_col(%acc: !croq.acc<128x8xf32>, %a: !croq.frag<32x128xbf16>, %b: !croq.frag<32x8xbf16>) {
  // CHECK: croq.mma col col %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<32x128xbf16>, !croq.frag<32x8xbf16> -> !croq.acc<128x8xf32>
  %r = croq.mma col col %acc, %a, %b : !croq.frag<32x128xbf16>, !croq.frag<32x8xbf16> -> !croq.acc<128x8xf32>
  return
}

// f8 operands may mix E4M3 and E5M2, and accumulate in f32 or f16.
// CHECK-LABEL: func.func @mma_f8(
func.func @mma_f8(%acc32: !croq.acc<64x64xf32>, %acc16: !croq.acc<64x64xf16>,
                  %e4: !croq.frag<64x32xf8E4M3FN>, %e5: !croq.frag<64x32xf8E5M2>) {
  // CHECK: croq.mma row row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x32xf8E4M3FN>, !croq.frag<64x32xf8E4M3FN> -> !croq.acc<64x64xf32>
  %0 = croq.mma row row %acc32, %e4, %e4 : !croq.frag<64x32xf8E4M3FN>, !croq.frag<64x32xf8E4M3FN> -> !croq.acc<64x64xf32>
  // CHECK: croq.mma row row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x32xf8E5M2>, !croq.frag<64x32xf8E5M2> -> !croq.acc<64x64xf16>
  %1 = croq.mma row row %acc16, %e5, %e5 : !croq.frag<64x32xf8E5M2>, !croq.frag<64x32xf8E5M2> -> !croq.acc<64x64xf16>
  // CHECK: croq.mma row row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x32xf8E4M3FN>, !croq.frag<64x32xf8E5M2> -> !croq.acc<64x64xf32>
  %2 = croq.mma row row %acc32, %e4, %e5 : !croq.frag<64x32xf8E4M3FN>, !croq.frag<64x32xf8E5M2> -> !croq.acc<64x64xf32>
  return
}

// CHECK-LABEL: func.func @mma_tf32(
func.func @mma_tf32(%acc: !croq.acc<192x64xf32>, %a: !croq.frag<192x8xf32>, %b: !croq.frag<64x8xf32>) {
  // CHECK: croq.mma row row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<192x8xf32>, !croq.frag<64x8xf32> -> !croq.acc<192x64xf32>
  %r = croq.mma row row %acc, %a, %b : !croq.frag<192x8xf32>, !croq.frag<64x8xf32> -> !croq.acc<192x64xf32>
  return
}

// CHECK-LABEL: func.func @mma_i8(
func.func @mma_i8(%acc: !croq.acc<64x24xi32>, %a: !croq.frag<64x64xi8>, %b: !croq.frag<24x64xi8>) {
  // CHECK: croq.mma row row %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x64xi8>, !croq.frag<24x64xi8> -> !croq.acc<64x24xi32>
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xi8>, !croq.frag<24x64xi8> -> !croq.acc<64x24xi32>
  return
}

// CHECK-LABEL: func.func @mma_commit_example(
// CHECK-SAME: %[[R:[^:]*]]: !croq.acc<64x128xf32>
func.func @mma_commit_example(%r: !croq.acc<64x128xf32>) {
  // CHECK: croq.mma.commit %[[R]] : !croq.acc<64x128xf32>
  %c = croq.mma.commit %r : !croq.acc<64x128xf32>
  // CHECK: croq.mma.commit %[[R]] pending = 1 : !croq.acc<64x128xf32>
  %p = croq.mma.commit %r pending = 1 : !croq.acc<64x128xf32>
  // The default is not printed.
  // CHECK: croq.mma.commit %[[R]] : !croq.acc<64x128xf32>
  %z = croq.mma.commit %r pending = 0 : !croq.acc<64x128xf32>
  return
}

// CHECK-LABEL: func.func @mma_wait_example(
// CHECK-SAME: %[[S1:[^:]*]]: !croq.acc<64x128xf32>, %[[O1:[^:]*]]: !croq.acc<64x128xf32>
func.func @mma_wait_example(%s1: !croq.acc<64x128xf32>, %o1: !croq.acc<64x128xf32>) {
  // CHECK: %[[S:.*]] = croq.mma.commit %[[S1]] pending = 1 : !croq.acc<64x128xf32>
  // CHECK: %[[O:.*]] = croq.mma.commit %[[O1]] pending = 1 : !croq.acc<64x128xf32>
  // CHECK: croq.mma.wait %[[S]] pending = 1 : !croq.acc<64x128xf32>
  // CHECK: croq.mma.wait %[[O]] : !croq.acc<64x128xf32>
  %s = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
  %o = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
  %sd = croq.mma.wait %s pending = 1 : !croq.acc<64x128xf32>
  %od = croq.mma.wait %o pending = 0 : !croq.acc<64x128xf32>
  return
}

// CHECK-LABEL: func.func @mma_store_example(
func.func @mma_store_example(%c: !croq.acc<64x128xf32>, %out: !croq.tile<64x128xf16, shared>,
                              %outT: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  // CHECK: croq.mma.store %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  // CHECK: croq.mma.store relu %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  // CHECK: croq.mma.store transpose %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  croq.mma.store relu %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  croq.mma.store transpose %c -> %outT : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  return
}

// A transposed store's destination has the accumulator's shape reversed.
// CHECK-LABEL: func.func @mma_store_transpose(
func.func @mma_store_transpose(%c: !croq.acc<64x128xf32>, %out: !croq.tile<128x64xf16, shared, swizzle = 128>,
                               %v: !croq.view<?x64xbf16>) {
  // CHECK: croq.mma.store transpose %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  croq.mma.store transpose %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  // CHECK: croq.mma.store relu transpose %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.view<?x64xbf16>
  croq.mma.store relu transpose %c -> %v : !croq.acc<64x128xf32> -> !croq.view<?x64xbf16>
  return
}

// CHECK-LABEL: func.func @mma_store_destinations(
func.func @mma_store_destinations(%c: !croq.acc<64x8xi32>, %g: memref<64x8xi32>,
                                  %v: !croq.view<?x8xi32>, %l: !croq.tile<64x8xi8, local>) {
  // CHECK: croq.mma.store %{{.*}} -> %{{.*}} : !croq.acc<64x8xi32> -> memref<64x8xi32>
  croq.mma.store %c -> %g : !croq.acc<64x8xi32> -> memref<64x8xi32>
  // CHECK: croq.mma.store %{{.*}} -> %{{.*}} : !croq.acc<64x8xi32> -> !croq.view<?x8xi32>
  croq.mma.store %c -> %v : !croq.acc<64x8xi32> -> !croq.view<?x8xi32>
  // CHECK: croq.mma.store %{{.*}} -> %{{.*}} : !croq.acc<64x8xi32> -> !croq.tile<64x8xi8, local>
  croq.mma.store %c -> %l : !croq.acc<64x8xi32> -> !croq.tile<64x8xi8, local>
  return
}

// The whole chain inside one warpgroup.
// CHECK-LABEL: func.func @mma_chain(
func.func @mma_chain(%out: memref<64x128xf32>, %zero: f32) {
  croq.parallel (%bm) in [1] : block {
    %ta = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %tb = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.parallel (%w) in [1] : warpgroup {
      // CHECK: %[[ACC:.*]] = croq.mma.fill
      %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
      // CHECK: %[[A:.*]] = croq.mma.load
      %a = croq.mma.load %ta : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      // CHECK: %[[B:.*]] = croq.mma.load
      %b = croq.mma.load %tb : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
      // CHECK: %[[R:.*]] = croq.mma row row %[[ACC]], %[[A]], %[[B]]
      %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      // CHECK: %[[C:.*]] = croq.mma.commit %[[R]]
      %c = croq.mma.commit %r : !croq.acc<64x128xf32>
      // CHECK: croq.mma.store %[[C]] -> %{{.*}}
      croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @foreach_example()
func.func @foreach_example() {
  // CHECK: croq.foreach (%{{.*}}, %{{.*}}) in [16, 16] {
  croq.foreach (%i, %j) in [16, 16] {
  }
  return
}

// CHECK-LABEL: func.func @foreach_dynamic_extent(
// CHECK-SAME: %[[N:[^:]*]]: index
func.func @foreach_dynamic_extent(%n: index, %v: !croq.view<?x8xf32>) {
  // CHECK: croq.foreach (%[[I:.*]], %[[J:.*]]) in [%[[N]], 8] attributes {note} {
  croq.foreach (%i, %j) in [%n, 8] attributes {note} {
    // CHECK: croq.read %{{.*}}[%[[I]], %[[J]]] : !croq.view<?x8xf32>
    %x = croq.read %v[%i, %j] : !croq.view<?x8xf32>
  }
  return
}

// CHECK-LABEL: func.func @read_example(
func.func @read_example(%t: !croq.tile<16x16xi32, shared>, %w: !croq.view<64x64xf16>, %i: index, %j: index) {
  // CHECK: croq.read %{{.*}}[%{{.*}}, %{{.*}}] : !croq.tile<16x16xi32, shared>
  // CHECK: croq.read %{{.*}}[%{{.*}}, %{{.*}}] in_bounds : !croq.view<64x64xf16> -> vector<8xf16>
  %x = croq.read %t[%i, %j] : !croq.tile<16x16xi32, shared>
  %v = croq.read %w[%i, %j] in_bounds : !croq.view<64x64xf16> -> vector<8xf16>
  return
}

// CHECK-LABEL: func.func @write_example(
// CHECK-SAME: %[[X:[^:]*]]: i32, %[[V:[^:]*]]: !croq.view<16x16xi32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index
func.func @write_example(%x: i32, %v: !croq.view<16x16xi32>, %i: index, %j: index, %y: vector<8xf16>, %t: !croq.tile<64x64xf16, shared>) {
  // CHECK: croq.write %[[X]], %[[V]][%[[I]], %[[J]]] : !croq.view<16x16xi32>
  // CHECK: croq.write %{{.*}}, %{{.*}}[%[[I]], %[[J]]] in_bounds : !croq.tile<64x64xf16, shared> -> vector<8xf16>
  croq.write %x, %v[%i, %j] : !croq.view<16x16xi32>
  croq.write %y, %t[%i, %j] in_bounds : !croq.tile<64x64xf16, shared> -> vector<8xf16>
  return
}

// Vector reads and writes, in bounds; the per-thread pieces of a
// distributed copy.
// CHECK-LABEL: func.func @vector_access_example(
func.func @vector_access_example(%w: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>, %i: index, %j: index) {
  // CHECK: %[[V:.*]] = croq.read %{{.*}}[%{{.*}}, %{{.*}}] in_bounds : !croq.view<64x64xf16> -> vector<8xf16>
  %v = croq.read %w[%i, %j] in_bounds : !croq.view<64x64xf16> -> vector<8xf16>
  %y = arith.addf %v, %v : vector<8xf16>
  // CHECK: croq.write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] in_bounds : !croq.tile<64x64xf16, shared> -> vector<8xf16>
  croq.write %y, %t[%i, %j] in_bounds : !croq.tile<64x64xf16, shared> -> vector<8xf16>
  // An element access may be in_bounds too; its type is not printed.
  // CHECK: croq.read %{{.*}}[%{{.*}}, %{{.*}}] in_bounds : !croq.view<64x64xf16>{{$}}
  %e = croq.read %w[%i, %j] in_bounds : !croq.view<64x64xf16>
  return
}

// CHECK-LABEL: func.func @thread_index_and_barrier_example(
func.func @thread_index_and_barrier_example() -> index {
  // CHECK: %[[T:.*]] = croq.thread_index warpgroup
  %t = croq.thread_index warpgroup
  // CHECK: croq.barrier block
  croq.barrier block
  // CHECK: croq.barrier warpgroup{{$}}
  croq.barrier warpgroup
  // CHECK: croq.barrier warpgroup async
  croq.barrier warpgroup async
  // CHECK: return %[[T]]
  return %t : index
}

// CHECK-LABEL: func.func @warp_index_example(
func.func @warp_index_example() -> index {
  // CHECK: %[[W:.*]] = croq.warp_index warpgroup
  %w = croq.warp_index warpgroup
  // CHECK: %[[B:.*]] = croq.warp_index block
  %b = croq.warp_index block
  // CHECK: arith.addi %[[W]], %[[B]] : index
  %s = arith.addi %w, %b : index
  return %s : index
}

// Two consumer warpgroups take turns (FlashAttention-3's ping-pong): each
// waits for its turn at its own named barrier and hands it to the other.
// CHECK-LABEL: func.func @named_barrier_example(
// CHECK-SAME:      %[[ID:[a-z0-9_]+]]: index, %[[OTHER:[a-z0-9_]+]]: index)
// CHECK:         croq.named_barrier.sync %[[ID]], threads = 256
// CHECK-NEXT:    croq.named_barrier.arrive %[[OTHER]], threads = 256
// CHECK:         croq.named_barrier.sync %{{.*}}, threads = 32
func.func @named_barrier_example(%id: index, %other: index) {
  croq.parallel (%b) in [4] : block {
    croq.parallel (%p) in [3] : warpgroup {
      croq.named_barrier.sync %id, threads = 256
      croq.named_barrier.arrive %other, threads = 256
      %c6 = arith.constant 6 : index
      croq.named_barrier.sync %c6, threads = 32
    }
  }
  return
}

// CHECK-LABEL: func.func @is_aligned_example(
func.func @is_aligned_example(%w: !croq.view<64x64xf16>) -> i1 {
  // CHECK: croq.is_aligned %{{.*}}, 16 : !croq.view<64x64xf16>
  %ok = croq.is_aligned %w, 16 : !croq.view<64x64xf16>
  return %ok : i1
}

// CHECK-LABEL: func.func @copy_chunk_example(
func.func @copy_chunk_example(%w: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>, %i: index, %j: index, %n: index) {
  // CHECK: croq.copy_chunk %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}, %{{.*}}] width 8 valid %{{.*}} : !croq.view<64x64xf16>, !croq.tile<64x64xf16, shared>
  croq.copy_chunk %w[%i, %j] -> %t[%i, %j] width 8 valid %n : !croq.view<64x64xf16>, !croq.tile<64x64xf16, shared>
  // CHECK: %[[F:.*]] = croq.commit_copies : !croq.future
  %f = croq.commit_copies : !croq.future
  // CHECK: croq.wait %[[F]]
  croq.wait %f
  return
}

// Element access to a global tensor and to a rank-0 view.
// CHECK-LABEL: func.func @read_write_memref_and_scalar(
func.func @read_write_memref_and_scalar(%m: memref<?xf16>, %s: !croq.view<f16>, %i: index) {
  // CHECK: %[[X:.*]] = croq.read %{{.*}}[%{{.*}}] : memref<?xf16>
  %x = croq.read %m[%i] : memref<?xf16>
  // CHECK: croq.write %[[X]], %{{.*}}[] : !croq.view<f16>
  croq.write %x, %s[] : !croq.view<f16>
  return
}

// What the planning passes record round-trips: shared-memory offsets and the
// block's total, event arrival counts, role register counts.
// CHECK-LABEL: func.func @planned_kernel(
// CHECK: croq.parallel (%{{.*}}) in [1] : block attributes {shared_memory = 16384 : i64} {
// CHECK: croq.alloc offset = 0 : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK: croq.event.alloc ready arrivals = 4 : !croq.events<2>
// CHECK: croq.inthreads async %{{.*}} registers = 56 {
// CHECK: croq.inthreads async %{{.*}} registers = 232 {
func.func @planned_kernel(%c: i1, %d: i1) {
  croq.parallel (%i) in [1] : block attributes {shared_memory = 16384 : i64} {
    %t = croq.alloc offset = 0 : !croq.tile<64x64xf16, shared, swizzle = 128>
    %e = croq.event.alloc ready arrivals = 4 : !croq.events<2>
    croq.parallel (%w) in [3] : warpgroup {
      croq.inthreads async %c registers = 56 {
      }
      croq.inthreads async %d registers = 232 {
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @wait_stores_example(
// CHECK: croq.wait_stores read
// CHECK-NEXT: croq.wait_stores{{$}}
func.func @wait_stores_example() {
  croq.parallel (%i) in [1] : block {
    croq.wait_stores read
    croq.wait_stores
  }
  return
}

// CHECK-LABEL: func.func @tensor_map_example(
// CHECK: %[[M:.*]], %[[OK:.*]] = croq.tensor_map %{{.*}} box [64, 64] swizzle = 128 staged : memref<?x?xf16>
// CHECK: croq.tensor_map %{{.*}} box [64, 64] swizzle = none required : memref<?x?xf16>
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} map %[[M]] if %[[OK]] : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
func.func @tensor_map_example(%a: memref<?x?xf16>, %o: memref<?x?xf16>) {
  %m, %ok = croq.tensor_map %a box [64, 64] swizzle = 128 staged : memref<?x?xf16>
  %n, %ok2 = croq.tensor_map %o box [64, 64] swizzle = none required : memref<?x?xf16>
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.view %a [64, 64] from [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// CHECK-LABEL: func.func @mma_map_example(
// CHECK-SAME: %[[ACC:.*]]: !croq.acc<64x128xf32>, %[[BIAS:.*]]: memref<128xf32>
func.func @mma_map_example(%acc: !croq.acc<64x128xf32>, %bias: memref<128xf32>) -> !croq.acc<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  // CHECK: %{{.*}} = croq.mma.map %[[ACC]] (%[[ROW:.*]], %[[COL:.*]], %[[X:.*]]) : !croq.acc<64x128xf32> {
  // CHECK-NEXT: %[[B:.*]] = croq.read %[[BIAS]][%[[COL]]] : memref<128xf32>
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[B]] : f32
  // CHECK: croq.yield %{{.*}} : f32
  // CHECK-NEXT: }
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
    %b = croq.read %bias[%col] : memref<128xf32>
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    croq.yield %r : f32
  }
  return %y : !croq.acc<64x128xf32>
}

// CHECK-LABEL: func.func @mma_map_broadcast(
// CHECK-SAME: %[[ACC:.*]]: !croq.acc<64x128xf32>, %[[MAX:.*]]: !croq.vec<64xf32, rows>, %[[OTHER:.*]]: !croq.acc<64x128xf32>, %[[COLS:.*]]: !croq.vec<128xf32, cols>
func.func @mma_map_broadcast(%acc: !croq.acc<64x128xf32>, %max: !croq.vec<64xf32, rows>,
                             %other: !croq.acc<64x128xf32>, %cols: !croq.vec<128xf32, cols>)
    -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
  // CHECK: croq.mma.map %[[ACC]], %[[MAX]] (%{{.*}}, %{{.*}}, %[[X:.*]], %[[M:.*]]) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
  // CHECK-NEXT: arith.subf %[[X]], %[[M]] : f32
  %d = croq.mma.map %acc, %max (%row, %col, %x, %m) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
    %s = arith.subf %x, %m : f32
    croq.yield %s : f32
  }
  // CHECK: croq.mma.map %[[ACC]], %[[OTHER]], %[[COLS]] (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
  %e = croq.mma.map %acc, %other, %cols (%row, %col, %x, %y, %c) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %s, %c : f32
    croq.yield %t : f32
  }
  return %d, %e : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
}

// CHECK-LABEL: func.func @online_softmax_ops(
func.func @online_softmax_ops(%s: !croq.acc<64x128xf32>, %t: !croq.tile<4x128xf32, shared>,
                              %ninf: f32) -> (!croq.vec<64xf32, rows>, !croq.vec<128xf32, cols>, !croq.frag<64x128xf16, registers>) {
  // CHECK: croq.vec.fill %{{.*}} : !croq.vec<64xf32, rows>
  %m = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
  // CHECK: croq.mma.reduce max %{{.*}} : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  %r = croq.mma.reduce max %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  // CHECK: croq.mma.reduce min %{{.*}} : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  %low = croq.mma.reduce min %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  // CHECK: croq.mma.reduce sum %{{.*}} scratch %{{.*}} : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
  %c = croq.mma.reduce sum %s scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
  // CHECK: croq.vec.map %{{.*}}, %{{.*}}, %{{.*}} (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
  %n = croq.vec.map %m, %r, %low (%i, %a, %b, %l) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
    %x = arith.maximumf %a, %b : f32
    %y = arith.addf %x, %l : f32
    croq.yield %y : f32
  }
  // CHECK: croq.mma.convert %{{.*}} : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
  %p = croq.mma.convert %s : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
  return %n, %c, %p : !croq.vec<64xf32, rows>, !croq.vec<128xf32, cols>, !croq.frag<64x128xf16, registers>
}

// Columns of an accumulator, for a result stored in parts.
// CHECK-LABEL: func.func @mma_slice(
// CHECK: croq.mma.slice %{{.*}}[128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
func.func @mma_slice(%c: !croq.acc<128x256xf32>) -> !croq.acc<128x128xf32> {
  %right = croq.mma.slice %c[128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
  return %right : !croq.acc<128x128xf32>
}

// CHECK-LABEL: func.func @mma_a_in_registers(
// CHECK: croq.mma row col %{{.*}}, %{{.*}}, %{{.*}} : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
func.func @mma_a_in_registers(%acc: !croq.acc<64x64xf32>, %p: !croq.frag<64x128xf16, registers>,
                              %v: !croq.frag<128x64xf16>) -> !croq.acc<64x64xf32> {
  %r = croq.mma row col %acc, %p, %v : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
  return %r : !croq.acc<64x64xf32>
}

// The ODS examples of the register ops.
func.func @register_op_examples(%s: !croq.acc<64x128xf32>, %acc: !croq.acc<64x128xf32>,
                                %t: !croq.tile<4x128xf32, shared>, %ninf: f32) {
  %ms = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
  %m = croq.mma.reduce max %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  %c = croq.mma.reduce sum %s scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
  %max = croq.mma.reduce max %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
  %d = croq.mma.map %acc, %max (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
    %y = arith.subf %x, %mx : f32
    croq.yield %y : f32
  }
  %p = croq.mma.convert %s : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
  return
}

// CHECK-LABEL: func.func @vec_store_example(
// CHECK: croq.vec.store %{{.*}} -> %{{.*}} : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
// CHECK: croq.vec.store %{{.*}} -> %{{.*}} : !croq.vec<128xf32, cols> -> memref<128xf32>
func.func @vec_store_example(%lse: !croq.vec<64xf32, rows>, %out: !croq.view<1x64xf32>,
                             %c: !croq.vec<128xf32, cols>, %m: memref<128xf32>) {
  croq.vec.store %lse -> %out : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
  croq.vec.store %c -> %m : !croq.vec<128xf32, cols> -> memref<128xf32>
  return
}

func.func @vec_map_example(%ninf: f32, %t: !croq.vec<64xf32, rows>) {
  %m = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
  %n = croq.vec.map %m, %t (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
    %x = arith.maximumf %a, %b : f32
    croq.yield %x : f32
  }
  return
}

// CHECK-LABEL: func.func @mma_map_integer_with_attrs(
// CHECK: croq.mma.map %{{.*}} (%{{.*}}, %{{.*}}, %{{.*}}) : !croq.acc<64x8xi32> attributes {note = "kept"} {
func.func @mma_map_integer_with_attrs(%acc: !croq.acc<64x8xi32>) -> !croq.acc<64x8xi32> {
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x8xi32> attributes {note = "kept"} {
    %c = arith.index_cast %i : index to i32
    %y = arith.addi %x, %c : i32
    croq.yield %y : i32
  }
  return %r : !croq.acc<64x8xi32>
}

// CHECK-LABEL: func.func @im2col_types(
// CHECK-SAME: !croq.tensor_map,
// CHECK-SAME: !croq.tensor_map<im2col>
func.func @im2col_types(%a: !croq.tensor_map,
                        %b: !croq.tensor_map<im2col>) {
  return
}

// CHECK-LABEL: func.func @im2col_map_example(
// CHECK: %[[M:.*]] = croq.im2col_map %{{.*}} pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
// CHECK: croq.im2col_map %{{.*}} pixels 256 channels 32 lower [-300] upper [200] strides [3] swizzle = none : memref<4x1000x32xbf16>
// CHECK: croq.im2col_map %{{.*}} pixels 64 channels 8 lower [-1, -2, -3] upper [1, 2, 3] strides [1, 2, 8] swizzle = 32 : memref<?x?x?x?x?xf32>
// CHECK: croq.parallel
// CHECK: %{{.*}} = croq.im2col async %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets [%{{.*}}, %{{.*}}] -> %{{.*}} map %[[M]] : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.im2col %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets [%{{.*}}] -> %{{.*}} map %{{.*}} : memref<4x1000x32xbf16> -> !croq.tile<256x32xbf16, shared>
func.func @im2col_map_example(%x: memref<?x?x?x?xf16>, %y: memref<4x1000x32xbf16>,
                              %z: memref<?x?x?x?x?xf32>) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  %m1 = croq.im2col_map %y pixels 256 channels 32 lower [-300] upper [200] strides [3] swizzle = none : memref<4x1000x32xbf16>
  %m2 = croq.im2col_map %z pixels 64 channels 8 lower [-1, -2, -3] upper [1, 2, 3] strides [1, 2, 8] swizzle = 32 : memref<?x?x?x?x?xf32>
  croq.parallel (%n, %h) in [8, 16] : block {
    %w = arith.constant -1 : index
    %c = arith.constant 0 : index
    %r = arith.constant 2 : index
    %s = arith.constant 1 : index
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%n, %h, %w, %c] offsets [%r, %s] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.wait %f
    %u = croq.alloc : !croq.tile<256x32xbf16, shared>
    croq.im2col %y[%n, %w, %c] offsets [%r] -> %u map %m1 : memref<4x1000x32xbf16> -> !croq.tile<256x32xbf16, shared>
  }
  return
}

// CHECK-LABEL: func.func @accumulate_and_turns_example(
// CHECK: croq.turn.wait %{{.*}}[%{{.*}}] until %{{.*}} : memref<?xi32>
// CHECK: croq.mma.accumulate %{{.*}} -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
// CHECK: croq.mma.accumulate %{{.*}} -> %{{.*}} : !croq.acc<64x64xf32> -> memref<64x64xf32>
// CHECK: croq.turn.pass %{{.*}}[%{{.*}}] : memref<?xi32>
func.func @accumulate_and_turns_example(%ws: memref<?x?xf32>, %m: memref<64x64xf32>,
    %turns: memref<?xi32>, %tile: index, %n: index) {
  croq.parallel (%b) in [4] : block {
    %z = arith.constant 0.0 : f32
    %dq = croq.mma.fill %z : !croq.acc<64x128xf32>
    %small = croq.mma.fill %z : !croq.acc<64x64xf32>
    %c0 = arith.constant 0 : index
    %workspace = croq.subspan %ws [64, 128] at [%tile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
    croq.turn.wait %turns[%tile] until %n : memref<?xi32>
    croq.mma.accumulate %dq -> %workspace : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
    croq.mma.accumulate %small -> %m : !croq.acc<64x64xf32> -> memref<64x64xf32>
    croq.turn.pass %turns[%tile] : memref<?xi32>
  }
  return
}

// CHECK-LABEL: func.func @bulk_add_example(
// CHECK: croq.bulk_add %{{.*}} -> %{{.*}} : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
// CHECK: croq.bulk_add %{{.*}} -> %{{.*}} : !croq.tile<16x16xf32, shared> -> memref<256xf32>
func.func @bulk_add_example(%ws: memref<?xf32>, %m: memref<256xf32>, %i: index) {
  croq.parallel (%b) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<16x16xf32, shared>
    %w = croq.subspan %ws [4096] at [%i] : memref<?xf32> -> !croq.view<4096xf32>
    croq.bulk_add %t -> %w : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
    croq.bulk_add %u -> %m : !croq.tile<16x16xf32, shared> -> memref<256xf32>
  }
  return
}
