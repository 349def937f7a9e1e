// RUN: croq-opt %s --croq-host-entries -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-host-entries --croq-host-entries -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-host-entries --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefix=LAUNCH --implicit-check-not=croq.stream

// A function that holds a kernel takes the stream its kernels are launched
// on, last, and returns the status of the call: croqRtCallBegin clears the
// thread's status at entry, croqRtCallEnd reads it before each return.
// Running the pass again changes nothing. The runtime functions are
// declared once, at the start of the module.
// CHECK-DAG: func.func private @croqRtCallBegin()
// CHECK-DAG: func.func private @croqRtCallEnd() -> i32
// CHECK-NOT: func.func private @croqRtCall
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: !llvm.ptr, %[[STREAM:.*]]: !llvm.ptr {croq.stream}) -> i32
// CHECK-NEXT: call @croqRtCallBegin() : () -> ()
// CHECK: croq.parallel
// CHECK: %[[STATUS:.*]] = call @croqRtCallEnd() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
// CHECK-LABEL: func.func @host_only(%{{.*}}: memref<?xf32>) {
// CHECK-NEXT: return

// The launch is async on the stream, so nothing waits for it.
// LAUNCH-LABEL: func.func @scale(
// LAUNCH-SAME: %[[STREAM:[^:]*]]: !llvm.ptr) -> i32
// LAUNCH: %[[TOKEN:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
// LAUNCH: gpu.launch async [%[[TOKEN]]]
func.func @scale(%a: memref<?xf32>, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<128xf32, shared>
    %v = croq.subspan %a [128] at [%i] : memref<?xf32> -> !croq.view<128xf32>
    croq.copy dma %v -> %t : !croq.view<128xf32> -> !croq.tile<128xf32, shared>
  }
  return
}

// A function without kernels is left alone.
func.func @host_only(%a: memref<?xf32>) {
  return
}

// -----

// Every return of the function reads the status.
// CHECK-LABEL: func.func @two_returns(
// CHECK-SAME: !llvm.ptr {croq.stream}) -> i32
// CHECK: cf.cond_br
// CHECK: %[[S1:.*]] = call @croqRtCallEnd() : () -> i32
// CHECK-NEXT: return %[[S1]] : i32
// CHECK: %[[S2:.*]] = call @croqRtCallEnd() : () -> i32
// CHECK-NEXT: return %[[S2]] : i32
func.func @two_returns(%a: memref<?xf32>, %n: index, %skip: i1) {
  cf.cond_br %skip, ^early, ^launch
^early:
  return
^launch:
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<128xf32, shared>
  }
  return
}

// -----

// Device memory the host code allocates around its kernels (a split-K
// workspace) is allocated, filled (a constant's copy) and released on the
// call's stream: after the work queued there before, released after the
// kernels that use it, without a host synchronization. Managed memory is
// left as it is.
// CHECK-LABEL: func.func @workspace(
// CHECK-SAME: %[[NP:.*]]: !llvm.ptr, %[[STREAM:.*]]: !llvm.ptr {croq.stream}) -> i32
// CHECK: %[[N64:.*]] = llvm.load %[[NP]] : !llvm.ptr -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[N64]] : i64 to index
// CHECK: %[[T0:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
// CHECK: %[[WS:.*]], %{{.*}} = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK: %[[SHARED:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf32>
// CHECK: %[[TC:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
// CHECK: gpu.memcpy async [%[[TC]]] %[[WS]], %[[SHARED]] : memref<?xf32>, memref<?xf32>
// CHECK: croq.parallel
// CHECK: croq.subspan %[[WS]]
// CHECK: %[[T1:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
// CHECK: gpu.dealloc async [%[[T1]]] %[[WS]] : memref<?xf32>
// CHECK: %[[T2:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
// CHECK: gpu.dealloc async [%[[T2]]] %[[SHARED]] : memref<?xf32>
func.func @workspace(%n: index) {
  %ws = gpu.alloc (%n) : memref<?xf32>
  %shared = gpu.alloc host_shared (%n) : memref<?xf32>
  gpu.memcpy %ws, %shared : memref<?xf32>, memref<?xf32>
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<128xf32, shared>
    %v = croq.subspan %ws [128] at [%i] : memref<?xf32> -> !croq.view<128xf32>
    croq.copy dma %v -> %t : !croq.view<128xf32> -> !croq.tile<128xf32, shared>
  }
  gpu.dealloc %ws : memref<?xf32>
  gpu.dealloc %shared : memref<?xf32>
  return
}

// -----

// Scalar arguments are passed by reference: each becomes a pointer whose
// value is loaded at the entry (an index as an i64), and the kernel uses
// the loaded value. Memrefs and the stream are left as they are.
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %[[S:.*]]: !llvm.ptr, %[[N:.*]]: !llvm.ptr, %[[F:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr {croq.stream}) -> i32
// CHECK-NEXT: call @croqRtCallBegin() : () -> ()
// CHECK-NEXT: %[[SV:.*]] = llvm.load %[[S]] : !llvm.ptr -> f32
// CHECK-NEXT: %[[N64:.*]] = llvm.load %[[N]] : !llvm.ptr -> i64
// CHECK-NEXT: %[[NV:.*]] = arith.index_cast %[[N64]] : i64 to index
// CHECK-NEXT: %[[FV:.*]] = llvm.load %[[F]] : !llvm.ptr -> i1
// CHECK: scf.if %[[FV]]
// CHECK: croq.parallel (%{{.*}}) in [%[[NV]]] : block
// CHECK: arith.mulf %{{.*}}, %[[SV]] : f32
func.func @scalars(%a: memref<?xf32>, %s: f32, %n: index, %flag: i1) {
  scf.if %flag {
    croq.parallel (%i) in [%n] : block {
      %t = croq.alloc : !croq.tile<128xf32, shared>
      %v = croq.subspan %a [128] at [%i] : memref<?xf32> -> !croq.view<128xf32>
      croq.copy dma %v -> %t : !croq.view<128xf32> -> !croq.tile<128xf32, shared>
      croq.foreach (%j) in [128] {
        %x = croq.read %t[%j] : !croq.tile<128xf32, shared>
        %y = arith.mulf %x, %s : f32
        croq.write %y, %v[%j] : !croq.view<128xf32>
      }
    }
  }
  return
}

// -----

// A function marked croq.entry launches no kernel but is an entry point all
// the same (convert-linalg-to-croq's classifier): the stream, the status and
// the C interface; the mark is dropped.
// CHECK-LABEL: func.func @classifier(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: !llvm.ptr {croq.stream}) -> i32
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NEXT: call @croqRtCallBegin() : () -> ()
// CHECK-NEXT: %[[STATUS:.*]] = call @croqRtCallEnd() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
func.func @classifier(%a: memref<?xf32>) attributes {croq.entry} {
  return
}
