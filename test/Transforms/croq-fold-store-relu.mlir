// RUN: croq-opt %s --croq-fold-store-relu --split-input-file | FileCheck %s

// A map that ends in maximumf(x, +0.0), stored into f16: the map yields x
// and the store clamps.

// CHECK-LABEL: func.func @bias_relu(
// CHECK:       %[[Y:.*]] = croq.mma.map %{{.*}} (%{{.*}}, %{{.*}}, %[[X:.*]]) : !croq.acc<64x128xf32> {
// CHECK-NEXT:    %[[B:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK-NEXT:    croq.yield %[[B]] : f32
// CHECK-NEXT:  }
// CHECK-NEXT:  croq.mma.store relu %[[Y]] -> %{{.*}} : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
func.func @bias_relu(%acc: !croq.acc<64x128xf32>, %bias: f32, %out: !croq.tile<64x128xf16, shared>) {
  %zero = arith.constant 0.0 : f32
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
    %b = arith.addf %x, %bias : f32
    %r = arith.maximumf %b, %zero : f32
    croq.yield %r : f32
  }
  croq.mma.store %y -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  return
}

// -----

// The zero may come first; a bf16 view in global memory clamps the same
// way.

// CHECK-LABEL: func.func @zero_first_bf16(
// CHECK:       croq.yield %{{.*}} : f32
// CHECK-NOT:   arith.maximumf
// CHECK:       croq.mma.store relu
func.func @zero_first_bf16(%acc: !croq.acc<64x64xf32>, %scale: f32, %out: !croq.view<?x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %s = arith.mulf %x, %scale : f32
    %r = arith.maximumf %zero, %s : f32
    croq.yield %r : f32
  }
  croq.mma.store %y -> %out : !croq.acc<64x64xf32> -> !croq.view<?x64xbf16>
  return
}

// -----

// Left alone: maxnumf (NaN becomes 0, the clamp keeps NaN), a maximum with
// -0.0 or 1.0, a map result stored twice.

// CHECK-LABEL: func.func @not_folded(
// CHECK-COUNT-4: arith.max
// CHECK-NOT:   relu
func.func @not_folded(%acc: !croq.acc<64x64xf32>, %out: !croq.tile<64x64xf16, shared>,
                      %out32: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %r = arith.maxnumf %x, %zero : f32
    croq.yield %r : f32
  }
  croq.mma.store %a -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  %b = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %r = arith.maximumf %x, %nzero : f32
    croq.yield %r : f32
  }
  croq.mma.store %b -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  %c = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %r = arith.maximumf %x, %one : f32
    croq.yield %r : f32
  }
  croq.mma.store %c -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  %e = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %r = arith.maximumf %x, %zero : f32
    croq.yield %r : f32
  }
  croq.mma.store %e -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  croq.mma.store %e -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

// CHECK-LABEL: func.func @f32_store(
// CHECK:       arith.maximumf
// CHECK:       croq.mma.store %
func.func @f32_store(%acc: !croq.acc<64x64xf32>, %out32: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x64xf32> {
    %r = arith.maximumf %x, %zero : f32
    croq.yield %r : f32
  }
  croq.mma.store %y -> %out32 : !croq.acc<64x64xf32> -> memref<64x64xf32>
  return
}

// -----

// A result stored in column parts: each croq.mma.slice of the map's result
// is stored alone, so every store clamps.

// CHECK-LABEL: func.func @parts(
// CHECK:       croq.mma.map
// CHECK-NOT:   arith.maximumf
// CHECK:       croq.mma.slice %{{.*}}[0]
// CHECK-NEXT:  croq.mma.store relu
// CHECK:       croq.mma.slice %{{.*}}[64]
// CHECK-NEXT:  croq.mma.store relu
func.func @parts(%acc: !croq.acc<64x128xf32>, %out: !croq.tile<64x64xf16, shared>) {
  %zero = arith.constant 0.0 : f32
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
    %r = arith.maximumf %x, %zero : f32
    croq.yield %r : f32
  }
  %left = croq.mma.slice %y[0] : !croq.acc<64x128xf32> -> !croq.acc<64x64xf32>
  croq.mma.store %left -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  %right = croq.mma.slice %y[64] : !croq.acc<64x128xf32> -> !croq.acc<64x64xf32>
  croq.mma.store %right -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

// Left alone: a slice whose store converts to f32 cannot clamp, so none of
// the parts does; a slice read by something other than one store.

// CHECK-LABEL: func.func @parts_not_folded(
// CHECK-COUNT-2: arith.maximumf
// CHECK-NOT:   relu
func.func @parts_not_folded(%acc: !croq.acc<64x128xf32>, %out: !croq.tile<64x64xf16, shared>,
                            %out32: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
    %r = arith.maximumf %x, %zero : f32
    croq.yield %r : f32
  }
  %left = croq.mma.slice %y[0] : !croq.acc<64x128xf32> -> !croq.acc<64x64xf32>
  croq.mma.store %left -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  %right = croq.mma.slice %y[64] : !croq.acc<64x128xf32> -> !croq.acc<64x64xf32>
  croq.mma.store %right -> %out32 : !croq.acc<64x64xf32> -> memref<64x64xf32>
  %z = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
    %r = arith.maximumf %x, %zero : f32
    croq.yield %r : f32
  }
  %twice = croq.mma.slice %z[0] : !croq.acc<64x128xf32> -> !croq.acc<64x64xf32>
  croq.mma.store %twice -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  croq.mma.store %twice -> %out : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
  return
}
