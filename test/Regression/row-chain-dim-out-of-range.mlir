// RUN: croq-opt %s --convert-linalg-to-croq | FileCheck %s

// A memref.dim whose constant index is past its buffer's rank verifies (its
// result is undefined). The row chains' extent keys followed it into the
// buffer's type and read past its shape (found by croq-fuzz under ASan);
// now the index stays an opaque extent and the chain converts.
// CHECK-LABEL: func.func @softmax_exp
// CHECK: croq.parallel
// CHECK-NOT: linalg.generic
// CHECK: return

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @softmax_exp(%x: memref<?x?xf32>, %max: memref<?xf32>, %sum: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c257 = arith.constant 257 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c257 : memref<?x?xf32>
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
