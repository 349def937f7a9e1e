// RUN: croq-opt %s --croq-plan-shared-memory -verify-diagnostics

// Shared buffers that each fit in 64 bits but together do not: the
// shared-memory plan saturates its running offset instead of overflowing,
// and reports the block. Found by code review and reproduced with croq-fuzz
// (UBSan: signed overflow in SharedMemoryPlan::build, now
// croq-plan-shared-memory).

func.func @three_huge_shared_tiles() {
  // expected-error @+1 {{'croq.parallel' op needs more than 9223372036854775807 bytes of shared memory, more than the 232448 bytes a block can have}}
  croq.parallel (%i) in [1] : block {
    // expected-note @+1 {{'!croq.tile<4611686018427387904xi8, shared>' takes 4611686018427387904 bytes at offset 0}}
    %a = croq.alloc : !croq.tile<4611686018427387904xi8, shared>
    // expected-note @+1 {{'!croq.tile<4611686018427387904xi8, shared>' takes 4611686018427387904 bytes}}
    %b = croq.alloc : !croq.tile<4611686018427387904xi8, shared>
    // expected-note @+1 {{'!croq.tile<4611686018427387904xi8, shared>' takes 4611686018427387904 bytes}}
    %c = croq.alloc : !croq.tile<4611686018427387904xi8, shared>
  }
  return
}
