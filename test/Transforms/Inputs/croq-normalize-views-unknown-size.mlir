// Views croq-normalize-views cannot resolve; run by
// ../croq-normalize-views.mlir under -verify-diagnostics.

// The chunk size of a dynamic view passed in as an argument is unknown.
func.func @chunkat_of_dynamic_argument(%v: !croq.view<?x16xf32>, %i: index, %t: !croq.tile<16x16xf32, shared>) {
  // expected-error @+1 {{'croq.chunkat' op cannot resolve this view: its chunk counts or sizes are unknown}}
  %a = croq.chunkat %v[%i, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  croq.copy dma zfill %a -> %t : !croq.view<?x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// The same when the unknown chunk is the source of another view.
func.func @view_of_unsized_chunk(%v: !croq.view<?x16xf32>, %i: index, %t: !croq.tile<4x4xf32, shared>) {
  // expected-error @+1 {{'croq.chunkat' op cannot resolve this view: its chunk counts or sizes are unknown}}
  %a = croq.chunkat %v[%i, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  %b = croq.view %a [4, 4] from [0, 0] : !croq.view<?x16xf32> -> !croq.view<4x4xf32>
  croq.copy dma %b -> %t : !croq.view<4x4xf32> -> !croq.tile<4x4xf32, shared>
  return
}
