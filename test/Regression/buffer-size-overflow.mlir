// RUN: croq-opt %s -split-input-file -verify-diagnostics

// On-chip buffers whose size in bytes does not fit in 64 bits are rejected
// by the type verifier, so that every size and offset computed from a
// verified tile (span_as element counts, shared-memory placement, TMA box
// bytes) is free of overflow. Found by code review; croq-fuzz (with its
// edge-integer mutator, run on the code before the fix) found the same
// signed overflows in TileType::getNumElements, TileType::getSizeInBytes
// and TilesType::verify within minutes.

func.func @tile_bytes_overflow() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{on-chip buffer is too large: its size in bytes does not fit in 64 bits}}
    %t = croq.alloc : !croq.tile<4294967296x4294967296xf32, shared>
  }
  return
}

// -----

func.func @local_tile_bytes_overflow() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{on-chip buffer is too large: its size in bytes does not fit in 64 bits}}
    %t = croq.alloc : !croq.tile<4611686018427387904xf32, local>
  }
  return
}

// -----

func.func @stage_array_bytes_overflow() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{stage array of 4611686018427387904 stages is too large: its size in bytes does not fit in 64 bits}}
    %t = croq.alloc : !croq.tiles<4611686018427387904 x 4xf32, shared>
  }
  return
}

// -----

// The largest f64 tile whose size fits in 64 bits is a valid type.
func.func @largest_tile(%t: !croq.tile<1152921504606846975xf64, local>) {
  return
}
