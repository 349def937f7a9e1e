// RUN: croq-opt %s --croq-plan-registers -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-registers -split-input-file | croq-opt -split-input-file | FileCheck %s
// RUN: not croq-opt %s --croq-set-target=chip=sm_89 --croq-plan-registers -split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: croq-opt %s --croq-set-target=chip=sm_80 --croq-plan-registers -split-input-file | FileCheck %s --check-prefix=SM80

// CHIP: error: croq has no target description for chip 'sm_89'; known chips: sm_90a, sm_80
// sm_80 has no setmaxnreg: every role keeps the registers it starts with.
// SM80-NOT: registers =

// One producer and two consumer warpgroups (384 threads, 168 registers each
// at entry): the producer keeps 56, the consumers share the rest of the
// 384 x 168 registers the block holds: (64512 - 128 * 56) / 256 = 224,
// a multiple of 8.
// CHECK-LABEL: func.func @producer_and_two_consumers
// CHECK: croq.inthreads async %{{.*}} registers = 56 {
// CHECK: croq.inthreads async %{{.*}} registers = 224 {
func.func @producer_and_two_consumers(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// One producer and one consumer warpgroup: every thread starts with 255
// registers (65536 / 256, capped), more than a consumer could be given, so
// neither role changes its count.
// CHECK-LABEL: func.func @one_of_each
// CHECK-NOT: registers =
// CHECK: return
func.func @one_of_each(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// A role that copies with dma is neither producer nor consumer: no plan.
// CHECK-LABEL: func.func @no_producer
// CHECK-NOT: registers =
// CHECK: return
func.func @no_producer(%a: memref<128x64xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %first = arith.cmpi eq, %p, %c0 : index
      %rest = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %first {
        croq.copy dma %a -> %t : memref<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %rest {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// The producer's loads on its first warp (croq-single-warp-producers): the
// role around them sets the registers, for all four of its warps; the
// region nested in it is not a role of its own.
// CHECK-LABEL: func.func @producer_on_one_warp
// CHECK: croq.inthreads async %{{.*}} registers = 56 {
// CHECK: croq.inthreads async %{{[^ ]*}} {
// CHECK: croq.inthreads async %{{.*}} registers = 224 {
func.func @producer_on_one_warp(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        %tid = croq.thread_index warpgroup
        %first = arith.cmpi ult, %tid, %c32 : index
        croq.inthreads async %first {
          %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
          croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
        }
      }
      croq.inthreads async %consumer {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// One producer and four consumer warpgroups (640 threads): each starts with
// 65536 / 640 = 102, rounded down to 96, and the block holds 640 x 96 =
// 61440 registers, all setmaxnreg can hand around. The consumers get
// (61440 - 128 * 56) / 512 = 106, rounded down to 104: counted on the whole
// 64K register file they would ask for 112, which the block does not have
// (setmaxnreg.inc would wait forever).
// CHECK-LABEL: func.func @producer_and_four_consumers
// CHECK: croq.inthreads async %{{.*}} registers = 56 {
// CHECK: croq.inthreads async %{{.*}} registers = 104 {
func.func @producer_and_four_consumers(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [5] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// A plan the IR already carries (here a generator's, for consumers that
// need 240 registers) is checked and kept: 128 x 24 + 256 x 240 = 64512,
// all the 384 x 168 registers the block holds.
// On sm_80 the pass keeps it too, and the lowering refuses it
// (test/Conversion/Pipelines/second-target.mlir).
// SM80-LABEL: func.func @written_plan_kept
// SM80: registers = 24
// CHECK-LABEL: func.func @written_plan_kept
// CHECK: croq.inthreads async %{{.*}} registers = 24 {
// CHECK: croq.inthreads async %{{.*}} registers = 240 {
func.func @written_plan_kept(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer registers = 24 {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer registers = 240 {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}
