// RUN: croq-opt %s --croq-split-accumulators="consumers=2" -split-input-file -verify-diagnostics

// Two consumers were asked for, and a 64-row accumulator cannot be split.
func.func @rows64(%out: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot split the consumer among 2 warpgroups: an accumulator of 64 rows cannot be split among 2 warpgroups of 64 rows}}
  croq.parallel (%bm) in [1] : block {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<64x128xf32>
        croq.mma.store %init -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
      }
    }
  }
  return
}

// -----

// A vector per row splits with the rows: one of 64 rows cannot be split.
func.func @row_vector64(%out: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot split the consumer among 2 warpgroups: a vector of 64 rows cannot be split among 2 warpgroups of 64 rows}}
  croq.parallel (%bm) in [1] : block {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %r = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// The consumer copies a tile it did not store an accumulator into.
func.func @other_copy(%out: memref<128x128xf32>, %in: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot split the consumer among 2 warpgroups: the consumer copies a buffer it did not store an accumulator into}}
  croq.parallel (%bm) in [1] : block {
    %t = croq.alloc : !croq.tile<128x128xf32, shared>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        croq.copy dma %in -> %t : memref<128x128xf32> -> !croq.tile<128x128xf32, shared>
        croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf32>
      }
    }
  }
  return
}

// -----

// Only blocks carry croq.consumers, and only 1 to 3.
func.func @bad_count(%out: memref<128x128xf32>) {
  // expected-error @+1 {{'croq.parallel' op expects 'croq.consumers' to be 0 (chosen by croq-split-accumulators) or 1 to 3 consumer warpgroups, got 4 : i64}}
  croq.parallel (%bm) in [1] : block attributes {croq.consumers = 4 : i64} {
  }
  return
}

// -----

func.func @on_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op carries 'croq.consumers', which applies to block-level croq.parallel only}}
  scf.for %i = %c0 to %n step %c1 {
  } {croq.consumers = 2 : i64}
  return
}

// -----

// A buffer one store writes transposed (split by columns) and another
// not (split by rows) has no split that serves both.
func.func @transposed_and_not(%out: memref<128x128xf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot split the consumer among 2 warpgroups: a buffer is stored into both transposed and not}}
  croq.parallel (%bm) in [1] : block {
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi ne, %wg, %c0 : index
      croq.inthreads async %is_producer {
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        croq.mma.store transpose %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf16>
        croq.mma.store %init -> %out : !croq.acc<128x128xf32> -> memref<128x128xf16>
      }
    }
  }
  return
}
