// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/bias_gelu_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/bias_relu_f32_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/add_view_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/add_f32_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/add_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/transpose_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/fill_copy_f32_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/fill_copy_f32_kernel_0.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/row_sum_f32_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/column_max_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/softmax_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/softmax_f16_kernel_1.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/softmax_f16_kernel_2.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/softmax_f16_kernel_3.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/softmax_f16_kernel_4.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/rms_norm_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/rms_norm_f16_kernel_5.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/rms_norm_f16_kernel_6.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/rms_norm_f16_kernel_7.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/rms_norm_f16_kernel_8.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/layer_norm_f16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/layer_norm_f16_kernel_9.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/layer_norm_f16_kernel_10.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/layer_norm_f16_kernel_11.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/layer_norm_f16_kernel_12.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/scale_add_tensor_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/mul_relu_bf16_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/max_add_i8_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/dequant_i8_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/row_sum_i32_kernel.ptx -o %t.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// PTXAS-NOT: {{.}}
//
// Elementwise ops and reductions handed to croq as linalg on memrefs (what
// a frontend's bufferized functions hold), run on the GPU by
// run_gpu_tests.py (linalg_ops_tests) against torch in float64.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#red = affine_map<(d0, d1) -> (d0)>
#red1 = affine_map<(d0, d1) -> (d1)>

// out = gelu_tanh(x + bias) in f32, stored as f16; bias broadcast along the
// rows through a constant-0 map.
func.func @bias_gelu_f16(%x: memref<?x?xf16>, %bias: memref<1x?xf16>, %out: memref<?x?xf16>) {
  linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<?x?xf16>, memref<1x?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s16 = arith.addf %a, %b : f16
    %s = arith.extf %s16 : f16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.7978845608 : f32
    %k = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %ks3 = arith.mulf %k, %s3 : f32
    %in = arith.addf %s, %ks3 : f32
    %cin = arith.mulf %c, %in : f32
    %t = math.tanh %cin : f32
    %t1 = arith.addf %one, %t : f32
    %h = arith.mulf %half, %s : f32
    %g = arith.mulf %h, %t1 : f32
    %r = arith.truncf %g : f32 to f16
    linalg.yield %r : f16
  }
  return
}

// out = max(x + bias, 0) in f32; bias broadcast along the rows through a
// 1-d map.
func.func @bias_relu_f32(%x: memref<?x?xf32>, %bias: memref<?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #red1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// out = x + y (f16) where x is a view whose rows start anywhere (a column
// slice of a wider buffer): every row misaligned its own way.
func.func @add_view_f16(%x: memref<?x?xf16, strided<[?, 1], offset: ?>>, %y: memref<?x?xf16>, %out: memref<?x?xf16>) {
  linalg.add ins(%x, %y : memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16>) outs(%out : memref<?x?xf16>)
  return
}

// out = a + b (f32, any shape, rank 3).
func.func @add_f32(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  linalg.add ins(%a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%out : memref<?x?x?xf32>)
  return
}

// out = a + b (f16, 2-d).
func.func @add_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %out: memref<?x?xf16>) {
  linalg.add ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%out : memref<?x?xf16>)
  return
}

// out = x^T (f16).
func.func @transpose_f16(%x: memref<?x?xf16>, %out: memref<?x?xf16>) {
  linalg.transpose ins(%x : memref<?x?xf16>) outs(%out : memref<?x?xf16>) permutation = [1, 0]
  return
}

// out = value everywhere, then copy out into copy (memref.copy).
func.func @fill_copy_f32(%out: memref<?x?xf32>, %copy: memref<?x?xf32>, %value: f32) {
  linalg.fill ins(%value : f32) outs(%out : memref<?x?xf32>)
  memref.copy %out, %copy : memref<?x?xf32> to memref<?x?xf32>
  return
}

// Row sums (a warp per row) and column maxima (a thread per column).
func.func @row_sum_f32(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<?xf32>)
  linalg.reduce ins(%x : memref<?x?xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

func.func @column_max_f16(%x: memref<?x?xf16>, %out: memref<?xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  linalg.fill ins(%ninf : f16) outs(%out : memref<?xf16>)
  linalg.reduce ins(%x : memref<?x?xf16>) outs(%out : memref<?xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %m = arith.maximumf %in, %acc : f16
      linalg.yield %m : f16
    }
  return
}

// Row softmax of f16 with f32 internals, as upstream's TOSA lowering with
// elementwise fusion writes it: a max reduction, exp(x - max), a sum
// reduction, a division, through f32 temporaries in device memory.
func.func @softmax_f16(%x: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %n = memref.dim %x, %c1 : memref<?x?xf16>
  %ninf = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc(%m) : memref<?xf32>
  %sum = memref.alloc(%m) : memref<?xf32>
  %e = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%ninf : f32) outs(%max : memref<?xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf16>) outs(%max : memref<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %w = arith.extf %in : f16 to f32
    %r = arith.maximumf %w, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<?x?xf16>, memref<?xf32>) outs(%e : memref<?x?xf32>) {
  ^bb0(%in: f16, %mx: f32, %o: f32):
    %w = arith.extf %in : f16 to f32
    %d = arith.subf %w, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<?xf32>)
  linalg.reduce ins(%e : memref<?x?xf32>) outs(%sum : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%ex: f32, %s: f32, %o: f16):
    %q = arith.divf %ex, %s : f32
    %h = arith.truncf %q : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %e : memref<?x?xf32>
  return
}

// RMS norm over rows, f16 in and out, f32 inside, as a frontend's fused
// linalg writes it: a sum of squares per row (from a zero fill), then
// x * rsqrt(sum / n + eps) * w.
func.func @rms_norm_f16(%x: memref<?x?xf16>, %w: memref<?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %n = memref.dim %x, %c1 : memref<?x?xf16>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.uitofp %ni : i64 to f32
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %ss = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%ss : memref<?xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf16>) outs(%ss : memref<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : memref<?x?xf16>, memref<?xf32>, memref<?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%in: f16, %s: f32, %g: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %ms = arith.divf %s, %nf : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %gf = arith.extf %g : f16 to f32
    %y = arith.mulf %v, %rs : f32
    %yg = arith.mulf %y, %gf : f32
    %h = arith.truncf %yg : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %ss : memref<?xf32>
  return
}

// Layer norm over rows (mean, variance of x - mean, scale and shift), f16
// in and out, f32 inside.
func.func @layer_norm_f16(%x: memref<?x?xf16>, %g: memref<?xf16>, %b: memref<?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %n = memref.dim %x, %c1 : memref<?x?xf16>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.uitofp %ni : i64 to f32
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %sum = memref.alloc(%m) : memref<?xf32>
  %vs = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<?xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf16>) outs(%sum : memref<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%vs : memref<?xf32>)
  linalg.generic {indexing_maps = [#id2, #red, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : memref<?x?xf16>, memref<?xf32>) outs(%vs : memref<?xf32>) {
  ^bb0(%in: f16, %s: f32, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %mean = arith.divf %s, %nf : f32
    %c = arith.subf %v, %mean : f32
    %c2 = arith.mulf %c, %c : f32
    %r = arith.addf %c2, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, #red, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %vs, %g, %b : memref<?x?xf16>, memref<?xf32>, memref<?xf32>, memref<?xf16>, memref<?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%in: f16, %s: f32, %v2: f32, %gg: f16, %bb: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %mean = arith.divf %s, %nf : f32
    %c = arith.subf %v, %mean : f32
    %var = arith.divf %v2, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %gf = arith.extf %gg : f16 to f32
    %bf = arith.extf %bb : f16 to f32
    %y = arith.mulf %c, %rs : f32
    %yg = arith.mulf %y, %gf : f32
    %yb = arith.addf %yg, %bf : f32
    %h = arith.truncf %yb : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %sum : memref<?xf32>
  memref.dealloc %vs : memref<?xf32>
  return
}

// A function on tensors, as a frontend hands it over: croq bufferizes it,
// its result becomes an out-parameter, and a Python call that leaves the
// output out gets it allocated and returned.
func.func @scale_add_tensor(%a: tensor<256x512xf16>, %b: tensor<256x512xf16>) -> tensor<256x512xf16> {
  %e = tensor.empty() : tensor<256x512xf16>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<256x512xf16>, tensor<256x512xf16>) outs(%e : tensor<256x512xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %two = arith.constant 2.0 : f16
    %s = arith.mulf %x, %two : f16
    %t = arith.addf %s, %y : f16
    linalg.yield %t : f16
  } -> tensor<256x512xf16>
  return %r : tensor<256x512xf16>
}

// The element types elementwise ops and reductions take beyond f16/f32:
// out = relu(a * b) in bf16.
func.func @mul_relu_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%out : memref<?x?xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %p = arith.mulf %x, %y : bf16
    %r = arith.maximumf %p, %zero : bf16
    linalg.yield %r : bf16
  }
  return
}

// Integers: out = max(a, b) + a (i8), wrapping as i8 arithmetic does.
func.func @max_add_i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %out: memref<?x?xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%out : memref<?x?xi8>) {
  ^bb0(%x: i8, %y: i8, %o: i8):
    %m = arith.maxsi %x, %y : i8
    %s = arith.addi %m, %x : i8
    linalg.yield %s : i8
  }
  return
}

// Dequantization: out = f32(q) * scale[col] (i8 -> f32, per-column scale).
func.func @dequant_i8(%q: memref<?x?xi8>, %scale: memref<?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%q, %scale : memref<?x?xi8>, memref<?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: i8, %s: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %r = arith.mulf %f, %s : f32
    linalg.yield %r : f32
  }
  return
}

// Row sums of i32 (an integer reduction).
func.func @row_sum_i32(%x: memref<?x?xi32>, %out: memref<?xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%out : memref<?xi32>)
  linalg.reduce ins(%x : memref<?x?xi32>) outs(%out : memref<?xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  return
}
