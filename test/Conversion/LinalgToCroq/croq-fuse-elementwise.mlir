// RUN: croq-opt %s --croq-fuse-elementwise -split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A softmax's exp(x - max), written to a temporary, is recomputed in the
// sum (a reduction) and in the division; the temporary, its producer and
// its release are gone. Named ops take part as generics.
// CHECK-LABEL: func.func @softmax_exp
// CHECK-NOT: memref.alloc(%{{.*}}, %{{.*}})
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%arg0, %arg1 : memref<?x?xf32>, memref<?xf32>) outs(%arg2 : memref<?xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%arg2, %arg0, %arg1 : memref<?xf32>, memref<?x?xf32>, memref<?xf32>) outs(%arg3 : memref<?x?xf32>)
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @softmax_exp(%x: memref<?x?xf32>, %max: memref<?xf32>, %sum: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %e = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<?x?xf32>, memref<?xf32>) outs(%e : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  }
  linalg.reduce ins(%e : memref<?x?xf32>) outs(%sum : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %e : memref<?x?xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An op between the producer and its consumer writes the producer's input:
// recomputing the producer later would read the new values, so nothing is
// fused.
// CHECK-LABEL: func.func @input_overwritten
// CHECK: memref.alloc
// CHECK: linalg.generic
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : memref<4x8xf32>)
func.func @input_overwritten(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %t = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// A temporary read through a permuted map: the producer's inputs are read
// through the composed map; one that is also copied out whole stays.
// CHECK-LABEL: func.func @transposed_read
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}]
// CHECK-SAME: ins(%arg0 : memref<8x4xf32>) outs(%arg1 : memref<4x8xf32>)
// CHECK: math.exp
// CHECK: math.sqrt
// CHECK-LABEL: func.func @copied_out
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @transposed_read(%x: memref<8x4xf32>, %out: memref<4x8xf32>) {
  %t = memref.alloc() : memref<8x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x4xf32>) outs(%t : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8x4xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %a : f32
    linalg.yield %r : f32
  }
  return
}

func.func @copied_out(%x: memref<8x4xf32>, %out: memref<8x4xf32>, %keep: memref<8x4xf32>) {
  %t = memref.alloc() : memref<8x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x4xf32>) outs(%t : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %keep : memref<8x4xf32> to memref<8x4xf32>
  return
}

// -----

// A linalg.softmax on buffers becomes the generics of its definition: the
// row maximum, the sum of exp(x - max), and exp(x - max) / sum, the
// exponential fused into both of its readers (its buffer is gone).
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: %[[MAX:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MAX]] : memref<?xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<?x256xf32>) outs(%[[MAX]] : memref<?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SUM]] : memref<?xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[MAX]] : memref<?x256xf32>, memref<?xf32>) outs(%[[SUM]] : memref<?xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[SUM]], %arg0, %[[MAX]] : {{.*}}) outs(%arg1 : memref<?x256xf32>)
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: memref.alloc
func.func @softmax(%x: memref<?x256xf32>, %out: memref<?x256xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<?x256xf32>) outs(%out : memref<?x256xf32>)
  return
}

// -----

// Bufferization reuses buffers in place when fusion did not run first: the
// producer writes %x, a consumer reads it twice and writes it in place
// (%x's old values are dead after it). The producer is recomputed once per
// read and is gone; %x stays, written only by the fused consumer.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @in_place
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME: ins(%arg0, %arg0 : memref<64xf32>, memref<64xf32>) outs(%arg1 : memref<64xf32>)
// CHECK: %[[E1:.*]] = math.exp %{{.*}} : f32
// CHECK: %[[E2:.*]] = math.exp %{{.*}} : f32
// CHECK: arith.mulf %[[E1]], %[[E2]] : f32
// CHECK-NOT: linalg.generic
func.func @in_place(%a: memref<64xf32>, %x: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%x : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %x : memref<64xf32>, memref<64xf32>) outs(%x : memref<64xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.mulf %v, %w : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A function argument the producer writes keeps its values past the
// function: the producer stays when nothing overwrites it.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: linalg.generic
func.func @kept(%a: memref<64xf32>, %x: memref<64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%x : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A reader that is not a generic (a matrix product) keeps the producer.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @read_by_product
// CHECK: linalg.generic
// CHECK: linalg.matmul
func.func @read_by_product(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %t = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf16>) outs(%t : memref<64x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %e = math.exp %v : f16
    linalg.yield %e : f16
  }
  linalg.matmul ins(%t, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A temporary that bufferization reused for a new value (the row maxima's
// buffer filled with zeros for the row sums, as TOSA's softmax lowers
// without fusion) gets a buffer per value first, so that the exponential
// (written to %e) fuses into both of its readers: the sum and the
// division, which reads the sums through a view made before the reuse
// (read through its map: a reshape that adds a dimension of extent 1).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @reused
// CHECK-DAG: %[[MAX:.*]] = memref.alloc() : memref<64xf32>
// CHECK-DAG: %[[SUM:.*]] = memref.alloc() : memref<64xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MAX]] : memref<64xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[MAX]] : memref<64xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SUM]] : memref<64xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[MAX]] : {{.*}}) outs(%[[SUM]] : memref<64xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %arg0, %[[MAX]] : {{.*}}) outs(%arg1 : memref<64x256xf32>)
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: linalg.generic
func.func @reused(%x: memref<64x256xf32>, %out: memref<64x256xf32>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = memref.alloc() : memref<64x256xf32>
  %r = memref.alloc() : memref<64xf32>
  linalg.fill ins(%lowest : f32) outs(%r : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%v: f32, %m: f32):
    %n = arith.maximumf %v, %m : f32
    linalg.yield %n : f32
  }
  %rv = memref.expand_shape %r [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.generic {indexing_maps = [#id2, #col0, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rv : memref<64x256xf32>, memref<64x1xf32>) outs(%e : memref<64x256xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  }
  linalg.fill ins(%zero : f32) outs(%r : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<64x256xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%v: f32, %s: f32):
    %n = arith.addf %v, %s : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id2, #col0, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %rv : memref<64x256xf32>, memref<64x1xf32>) outs(%out : memref<64x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// Reshapes that only add dimensions of extent 1 (as upstream's fusion
// leaves a row reduction: 64 x 1 x 256 into 64 x 1) are read through the
// maps: the reduction reads and writes the buffers themselves, its loop of
// extent 1 is dropped, the fill before it moves onto the buffer, and the
// division reads the row sums as a vector.
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @unit_views
// CHECK: %[[S:.*]] = memref.alloc() : memref<64xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : memref<64xf32>)
// CHECK-NEXT: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<64x256xf32>) outs(%[[S]] : memref<64xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[S]] : memref<64x256xf32>, memref<64xf32>) outs(%arg1 : memref<64x256xf32>)
func.func @unit_views(%x: memref<64x256xf32>, %out: memref<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64xf32>
  %sv = memref.expand_shape %s [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.fill ins(%zero : f32) outs(%sv : memref<64x1xf32>)
  %xv = memref.expand_shape %x [[0, 1], [2]] output_shape [64, 1, 256] : memref<64x256xf32> into memref<64x1x256xf32>
  linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xv : memref<64x1x256xf32>) outs(%sv : memref<64x1xf32>) {
  ^bb0(%v: f32, %a: f32):
    %n = arith.addf %v, %a : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sv : memref<64x256xf32>, memref<64x1xf32>) outs(%out : memref<64x256xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %q = arith.divf %v, %t : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// A scalar operand of one element viewed without its dimensions
// (linalg-fold-unit-extent-dims collapses TOSA's 1 x 1 x 1 tensors to rank
// 0, read through a map of no results) is read from its source at 0 in
// each dimension.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0, d1, d2) -> (0, 0, 0)>
// CHECK-LABEL: func.func @rank0_view
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ZERO]], #[[ID]]], {{.*}} ins(%arg0, %arg1 : memref<2x8x16xf32>, memref<1x1x1xf32>)
func.func @rank0_view(%x: memref<2x8x16xf32>, %s: memref<1x1x1xf32>, %out: memref<2x8x16xf32>) {
  %sv = memref.collapse_shape %s [] : memref<1x1x1xf32> into memref<f32>
  linalg.generic {indexing_maps = [#id3, #scalar, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sv : memref<2x8x16xf32>, memref<f32>) outs(%out : memref<2x8x16xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %t : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// A chain of elementwise ops that bufferization leaves updating a
// function's result in place (a bias add, then a ReLU, each reading the
// result and writing it back): the first is fused into the second, which
// reads the result as it was before the first and writes it once.
#ip = affine_map<(d0, d1) -> (d0, d1)>
#ipcol = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @in_place_chain
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : memref<64x128xf32>, memref<128xf32>) outs(%arg0 : memref<64x128xf32>)
// CHECK: %[[S:.*]] = arith.addf
// CHECK: arith.maximumf %[[S]]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @in_place_chain(%x: memref<64x128xf32>, %bias: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#ip, #ipcol, #ip], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<64x128xf32>, memref<128xf32>) outs(%x : memref<64x128xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#ip, #ip], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%x : memref<64x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The consumer writes the buffer in place but reads it elsewhere than it
// writes (transposed): fused, it would read elements it has already
// overwritten. Both stay.
#tp = affine_map<(d0, d1) -> (d1, d0)>
#ip2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @in_place_transposed_consumer
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
func.func @in_place_transposed_consumer(%x: memref<64x64xf32>, %y: memref<64x64xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [#ip2, #ip2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%x : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#tp, #ip2, #ip2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<64x64xf32>, memref<64x64xf32>) outs(%x : memref<64x64xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.mulf %v, %w : f32
    linalg.yield %r : f32
  }
  return
}
