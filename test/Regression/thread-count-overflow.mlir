// RUN: croq-opt %s --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file -verify-diagnostics

// Warpgroup and thread regions so large that their thread counts overflow
// 64 bits: the counts saturate and the block or region is reported. Found
// by code review, and by croq-fuzz on the code before the fix (UBSan:
// signed overflow in getStaticVolume and getBlockThreadCount).

func.func @warpgroups_overflow(%out: memref<16xindex>) {
  // expected-error @+1 {{'croq.parallel' op needs more than 9223372036854775807 threads per block; a block has at most 1024}}
  croq.parallel (%b) in [1] : block {
    croq.parallel (%w) in [72057594037927936] : warpgroup {
      croq.write %w, %out[%w] : memref<16xindex>
    }
  }
  return
}

// -----

func.func @warpgroup_extents_overflow(%out: memref<16xindex>) {
  // expected-error @+1 {{'croq.parallel' op needs more than 9223372036854775807 threads per block; a block has at most 1024}}
  croq.parallel (%b) in [1] : block {
    croq.parallel (%w, %x) in [4611686018427387904, 4] : warpgroup {
      croq.write %w, %out[%x] : memref<16xindex>
    }
  }
  return
}

// -----

func.func @threads_in_warpgroup_overflow(%out: memref<16xindex>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%w) in [1] : warpgroup {
      // expected-error @+1 {{'croq.parallel' op needs more than 9223372036854775807 threads but its group has 128}}
      croq.parallel (%t, %u) in [4611686018427387904, 4] : thread {
        croq.write %t, %out[%u] : memref<16xindex>
      }
    }
  }
  return
}
