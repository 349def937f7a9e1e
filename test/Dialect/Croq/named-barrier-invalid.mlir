// RUN: croq-opt %s -split-input-file -verify-diagnostics

func.func @outside_a_kernel(%id: index) {
  // expected-error @+1 {{'croq.named_barrier.sync' op synchronizes warps of a block: it must be inside a block-level croq.parallel region}}
  croq.named_barrier.sync %id, threads = 256
  return
}

// -----

func.func @part_of_a_warp(%id: index) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.named_barrier.arrive' op counts whole warps of a block: threads must be a multiple of 32 up to 1024, got 48}}
    croq.named_barrier.arrive %id, threads = 48
  }
  return
}

// -----

func.func @more_than_a_block(%id: index) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.named_barrier.sync' op counts whole warps of a block: threads must be a multiple of 32 up to 1024, got 1056}}
    croq.named_barrier.sync %id, threads = 1056
  }
  return
}

// -----

func.func @no_threads(%id: index) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.named_barrier.sync' op attribute 'threads' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
    croq.named_barrier.sync %id, threads = 0
  }
  return
}

// -----

func.func @id_of_croq() {
  croq.parallel (%b) in [1] : block {
    %c7 = arith.constant 7 : index
    // expected-error @+1 {{'croq.named_barrier.arrive' op takes barrier ids 0 to 6 (the hardware barriers croq does not use itself), got 7}}
    croq.named_barrier.arrive %c7, threads = 256
  }
  return
}

// -----

func.func @negative_id() {
  croq.parallel (%b) in [1] : block {
    %m1 = arith.constant -1 : index
    // expected-error @+1 {{'croq.named_barrier.sync' op takes barrier ids 0 to 6 (the hardware barriers croq does not use itself), got -1}}
    croq.named_barrier.sync %m1, threads = 256
  }
  return
}
