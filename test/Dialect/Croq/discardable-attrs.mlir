// RUN: croq-opt %s -split-input-file -verify-diagnostics | croq-opt | FileCheck %s

// The attributes croq passes read from other dialects' ops are declared by
// the dialect and verified: a misspelling or a wrong value is an error, not
// an attribute the passes silently ignore.

// CHECK-LABEL: func @stages_and_warp_specialize
func.func @stages_and_warp_specialize(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for
  // CHECK: } {croq.stages = 4 : i64, croq.warp_specialize = false}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.stages = 4 : i64, croq.warp_specialize = false}
  // CHECK: } {croq.stages = 1 : i64}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.stages = 1 : i64}
  return
}

// -----

func.func @misspelled(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op carries unknown croq attribute 'croq.stage'; croq reads 'croq.stages', 'croq.warp_specialize', 'croq.consumers', 'croq.persistent', 'croq.entry' and 'croq.target'}}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.stage = 4 : i64}
  return
}

// -----

func.func @stages_not_integer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op expects 'croq.stages' to be an integer, got "4"}}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.stages = "4"}
  return
}

// -----

func.func @stages_out_of_range(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op expects 'croq.stages' to be 1 (not pipelined) or 2 to 64 stages, got 65}}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.stages = 65 : i64}
  return
}

// -----

func.func @stages_not_on_loop() {
  // expected-error @+1 {{'arith.constant' op carries 'croq.stages', which applies to loops (scf.for) only}}
  %c0 = arith.constant {croq.stages = 2 : i64} 0 : index
  return
}

// -----

func.func @warp_specialize_not_bool(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op expects 'croq.warp_specialize' to be true or false, got 1 : i64}}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.warp_specialize = 1 : i64}
  return
}

// -----

func.func @warp_specialize_not_on_loop() {
  // expected-error @+1 {{'func.return' op carries 'croq.warp_specialize', which applies to loops (scf.for) only}}
  func.return {croq.warp_specialize = true}
}

// -----

// croq.stream marks the stream argument of a function that launches
// kernels (croq-host-entries).
// CHECK-LABEL: func @stream_argument
// CHECK-SAME: %{{.*}}: !llvm.ptr {croq.stream}
func.func @stream_argument(%a: memref<4xf32>, %s: !llvm.ptr {croq.stream}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0 carries 'croq.stream', which marks an !llvm.ptr argument (the stream)}}
func.func @stream_not_a_pointer(%s: i64 {croq.stream}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'croq.stream' to be a unit attribute, got 1 : i64}}
func.func @stream_not_unit(%s: !llvm.ptr {croq.stream = 1}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0 carries unknown croq attribute 'croq.streams'; croq reads 'croq.stream' on arguments}}
func.func @stream_misspelled(%s: !llvm.ptr {croq.streams}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'croq.stream', which applies to function arguments only}}
func.func @stream_on_an_op() attributes {croq.stream} {
  return
}

// -----

// CHECK-LABEL: module attributes {croq.target = "sm_80"}
module attributes {croq.target = "sm_80"} {
}

// -----

// expected-error @+1 {{'builtin.module' op expects 'croq.target' to name a chip croq knows (sm_90a, sm_80), got 'sm_70'}}
module attributes {croq.target = "sm_70"} {
}

// -----

// expected-error @+1 {{'builtin.module' op expects 'croq.target' to be a chip name string, got 90 : i64}}
module attributes {croq.target = 90} {
}

// -----

// expected-error @+1 {{'func.func' op carries 'croq.target', which applies to builtin.module only}}
func.func @target_on_function() attributes {croq.target = "sm_90a"} {
  return
}

// -----

// A function that launches no kernel is an entry point all the same
// (convert-linalg-to-croq's classifier).
// CHECK-LABEL: func @entry_without_kernel
// CHECK-SAME: attributes {croq.entry}
func.func @entry_without_kernel() attributes {croq.entry} {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'croq.entry' to be a unit attribute, got true}}
func.func @entry_not_unit() attributes {croq.entry = true} {
  return
}

// -----

func.func @entry_not_on_func() {
  // expected-error @+1 {{'arith.constant' op carries 'croq.entry', which applies to func.func only}}
  %c0 = arith.constant {croq.entry} 0 : index
  return
}
