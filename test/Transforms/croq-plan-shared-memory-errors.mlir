// RUN: croq-opt %s --croq-plan-shared-memory -split-input-file -verify-diagnostics
// RUN: not croq-opt %s --croq-set-target=chip=sm_70 --croq-plan-shared-memory -split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: croq has no target description for chip 'sm_70'; known chips: sm_90a, sm_80

// A block that needs more than the chip's shared memory (227 KB on sm_90a)
// is an error with a note for each buffer: its type, size and offset.
func.func @too_much_shared_memory() {
  // expected-error @+1 {{'croq.parallel' op needs 262144 bytes of shared memory, more than the 232448 bytes a block can have}}
  croq.parallel (%b) in [1] : block {
    // expected-note @+1 {{'!croq.tile<128x512xf16, shared>' takes 131072 bytes at offset 0}}
    %a = croq.alloc : !croq.tile<128x512xf16, shared>
    // expected-note @+1 {{'!croq.tile<128x512xf16, shared>' takes 131072 bytes at offset 131072}}
    %c = croq.alloc : !croq.tile<128x512xf16, shared>
  }
  return
}
