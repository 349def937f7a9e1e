// RUN: croq-opt %s --croq-host-entries -verify-diagnostics

// croq-host-entries rejects an entry point with an argument that is neither
// a memref nor a scalar the hosts can pass. It used to rewrite the scalar
// arguments before the bad one (index %n became an !llvm.ptr loaded at the
// entry) and only then report the error, leaving a function whose type no
// longer matched its arguments: IR that does not verify. Found by croq-fuzz
// (its CheckCroqPassOutput instrumentation) on this seed, in CI at stop 25.
// The pass now checks every argument first.

// expected-error @+1 {{'func.func' op launches kernels and takes argument 2 of type '!croq.tile<16x16xf32, shared>'; an entry point takes memrefs and scalars of type i1, i8, i16, i32, i64, index, f32 or f64}}
func.func @view_of_dynamic_chunk(%m: memref<?x128xf32>, %n: index, %t: !croq.tile<16x16xf32, shared>) {
  croq.parallel (%i, %j) in [%n, 8] : block {
    %a = croq.chunkat %m[%i, %j] : memref<?x128xf32> -> !croq.view<?x16xf32>
    %c = croq.view %a [16, 16] from [0, 0] : !croq.view<?x16xf32> -> !croq.view<16x16xf32>
    croq.copy dma %c -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}
