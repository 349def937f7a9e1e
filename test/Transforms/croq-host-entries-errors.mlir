// RUN: croq-opt %s --croq-host-entries -split-input-file -verify-diagnostics

// A function that launches kernels returns its status: results of its own
// are an error.
// expected-error @+1 {{'func.func' op launches kernels and returns 1 values; a function that launches kernels returns nothing (croq-host-entries gives it the call's status as its result): write results into memref arguments}}
func.func @returns_a_value(%n: index) -> index {
  croq.parallel (%i) in [%n] : block {
  }
  return %n : index
}

// -----

// The runtime's names are taken.
// expected-error @+1 {{'func.func' op is croq's runtime function 'croqRtCallEnd', which has type '() -> i32'}}
func.func private @croqRtCallEnd() -> i64

func.func @launches(%n: index) {
  croq.parallel (%i) in [%n] : block {
  }
  return
}

// -----

// An entry point takes memrefs and the scalars the hosts can pass.
// expected-error @+1 {{'func.func' op launches kernels and takes argument 1 of type 'f16'; an entry point takes memrefs and scalars of type i1, i8, i16, i32, i64, index, f32 or f64}}
func.func @half_scalar(%a: memref<?xf16>, %s: f16, %n: index) {
  croq.parallel (%i) in [%n] : block {
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op launches kernels and takes argument 0 of type 'vector<4xf32>'}}
func.func @vector_argument(%v: vector<4xf32>, %n: index) {
  croq.parallel (%i) in [%n] : block {
  }
  return
}
