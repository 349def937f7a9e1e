// RUN: croq-opt %s --croq-set-target -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-set-target=chip=sm_80 -split-input-file 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not croq-opt %s --croq-set-target=chip=sm_90a -split-input-file 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not croq-opt %s --croq-set-target=chip=sm_75 -split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not croq-opt %s --croq-plan-shared-memory -split-input-file 2>&1 | FileCheck %s --check-prefix=READ

// The module's croq.target names the chip every pass reads. Without a chip,
// croq-set-target keeps the one the module names, or names sm_90a; with a
// chip, it names that one, and a module that names another is an error.

// CHECK-LABEL: module attributes {croq.target = "sm_90a"}
// SM80-LABEL: module attributes {croq.target = "sm_80"}
// UNKNOWN: error: croq has no target description for chip 'sm_75'; known chips: sm_90a, sm_80
module {
  func.func @unnamed() {
    return
  }
}

// -----

// CHECK-LABEL: module attributes {croq.target = "sm_80"}
// SM80-LABEL: module attributes {croq.target = "sm_80"}
// CONFLICT: error: croq-set-target: chip=sm_90a but the module's 'croq.target' names 'sm_80'
// A pass run alone reads the chip the user named: sm_80 gives a block 163 KB.
// READ: error: 'croq.parallel' op needs 204800 bytes of shared memory, more than the 166912 bytes a block can have
module attributes {croq.target = "sm_80"} {
  func.func @named() {
    croq.parallel (%i) in [1] : block {
      %t = croq.alloc : !croq.tile<51200xf32, shared>
    }
    return
  }
}
