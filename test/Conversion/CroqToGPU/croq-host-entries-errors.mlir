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
