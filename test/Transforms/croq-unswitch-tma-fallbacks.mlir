// RUN: croq-opt %s --croq-unswitch-tma-fallbacks -split-input-file | FileCheck %s

// A producer's K loop of two tma loads with software copies: the two
// answers are tested once; the first version's copies are told the answer
// is 1, the second is the loop as it was.
// CHECK-LABEL: func.func @producer_loop(
// CHECK-SAME:    %{{.*}}: !croq.tensor_map, %[[OKA:.*]]: i32, %{{.*}}: !croq.tensor_map, %[[OKB:.*]]: i32
// CHECK:       croq.parallel
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[UA:.*]] = arith.cmpi ne, %[[OKA]], %[[Z]] : i32
// CHECK-NEXT:    %[[UB:.*]] = arith.cmpi ne, %[[OKB]], %[[Z]] : i32
// CHECK-NEXT:    %[[ALL:.*]] = arith.andi %[[UA]], %[[UB]] : i1
// CHECK-NEXT:    scf.if %[[ALL]] {
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      scf.for
// CHECK:             croq.copy tma async {{.*}} if %[[ONE]]
// CHECK:             croq.copy tma async {{.*}} if %[[ONE]]
// CHECK:           }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.for
// CHECK:             croq.copy tma async {{.*}} if %[[OKA]]
// CHECK:             croq.copy tma async {{.*}} if %[[OKB]]
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
func.func @producer_loop(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                         %ma: !croq.tensor_map, %oka: i32,
                         %mb: !croq.tensor_map, %okb: i32, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %ta = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %tb = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %full = croq.event.alloc : !croq.events<1>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      %va = croq.view %a [64, 64] from [%i, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %fa = croq.copy tma async zfill swizzle = 128 %va -> %ta map %ma if %oka : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %vb = croq.view %b [64, 64] from [%k, %i] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %fb = croq.copy tma async zfill swizzle = 128 %vb -> %tb map %mb if %okb : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.event.trigger %full[%c0] after (%fa, %fb) : !croq.events<1>
    }
  }
  return
}

// -----

// Loads of one tensor in a tile loop around a K loop: the outermost loop is
// versioned, on its one answer, and yields its results from either version.
// CHECK-LABEL: func.func @nested_with_results(
// CHECK-SAME:    %{{.*}}: !croq.tensor_map, %[[OK:.*]]: i32
// CHECK:         %[[U:.*]] = arith.cmpi ne, %[[OK]], %{{.*}} : i32
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[U]] -> (index) {
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[F:.*]] = scf.for {{.*}} -> (index) {
// CHECK:             scf.for
// CHECK:               croq.copy tma {{.*}} if %[[ONE]]
// CHECK:               croq.copy tma {{.*}} if %[[ONE]]
// CHECK:           scf.yield %[[F]] : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[S:.*]] = scf.for {{.*}} -> (index) {
// CHECK:             scf.for
// CHECK:               croq.copy tma {{.*}} if %[[OK]]
// CHECK:               croq.copy tma {{.*}} if %[[OK]]
// CHECK:           scf.yield %[[S]] : index
// CHECK-NEXT:    }
// CHECK:         croq.write %{{.*}}, %{{.*}}[%[[R]], %{{.*}}]
func.func @nested_with_results(%a: memref<?x?xf16>, %m: !croq.tensor_map,
                               %ok: i32, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %last = scf.for %tile = %i to %n step %n iter_args(%prev = %c0) -> (index) {
      scf.for %k = %c0 to %n step %c1 {
        %v = croq.view %a [64, 64] from [%tile, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy tma zfill swizzle = 128 %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %w = croq.view %a [64, 64] from [%k, %tile] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy tma zfill swizzle = 128 %w -> %u map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      }
      scf.yield %tile : index
    }
    %x = arith.constant 0.0 : f16
    croq.write %x, %t[%last, %c0] : !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// Left as they are: a loop whose only tma copy with an answer is a store
// (once a tile), a loop that also multiplies, a load whose answer the loop
// computes, a load without a software copy, and a load outside any loop.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:   scf.if
// CHECK-NOT:   arith.cmpi
func.func @left_alone(%a: memref<?x?xf16>, %m: !croq.tensor_map, %ok: i32,
                      %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %tile = %c0 to %n step %c1 {
      %v = croq.view %a [64, 64] from [%tile, %i] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma swizzle = 128 %t -> %v map %m if %ok : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
    }
    %zero = arith.constant 0.0 : f32
    %init = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %init) -> (!croq.acc<64x64xf32>) {
      %v = croq.view %a [64, 64] from [%i, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill swizzle = 128 %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %d = croq.mma row col %c, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
      scf.yield %d : !croq.acc<64x64xf32>
    }
    scf.for %k = %c0 to %n step %c1 {
      %here = arith.index_cast %k : index to i32
      %v = croq.view %a [64, 64] from [%i, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill swizzle = 128 %v -> %t map %m if %here : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.copy tma zfill swizzle = 128 %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
    %v = croq.view %a [64, 64] from [%i, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma zfill swizzle = 128 %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}
