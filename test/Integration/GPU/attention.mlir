// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/attention_tile_f16_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/attention_tile_bf16_kernel.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/attention_tile_d128_f16_kernel.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s --check-prefix=D128 < %t.d/attention_tile_d128_f16_kernel.ptx
// RUN: %ptxas -arch=sm_90a %t.d/reduce_columns_f16_kernel.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s < %t.d/attention_tile_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=COLUMNS < %t.d/reduce_columns_f16_kernel.ptx

// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}
// PTXAS-NOT: warning

// Attention on the registers of one warpgroup: S = Q K^T by wgmma, the
// online softmax with row reductions across the lanes of quads, P converted
// to an A operand in registers for O += P V.
// CHECK-LABEL: .entry attention_tile_f16_kernel
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: shfl.sync.bfly.b32
// CHECK: ex2.approx
// CHECK: cvt.rn.f16x2.f32
// CHECK: wgmma.fence.sync.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// Head dimension 128: V is an MN-major B operand of two 64-column atoms, a
// slab (8192 bytes, encoded 512 in bits 16-29) apart.
// D128-LABEL: .entry attention_tile_d128_f16_kernel
// D128: or.b64 {{.*}}, 4611686293338849280;
// D128: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// D128: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// COLUMNS-LABEL: .entry reduce_columns_f16_kernel
// COLUMNS: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// COLUMNS: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// COLUMNS: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// COLUMNS: bar.sync
// COLUMNS: st.shared.v2.b32
// COLUMNS: bar.sync
// COLUMNS: ld.shared.v2.b32

// out = softmax(q k^T / sqrt(64)) v for q [S, 64] and k, v [T, 64]: one
// block of 128 threads per 64 rows of q, the keys in tiles of 64 with an
// online softmax; keys past T are masked.
func.func @attention_tile_f16(%q: memref<?x?xf16>, %k: memref<?x?xf16>,
                              %v: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = memref.dim %q, %c0 : memref<?x?xf16>
  %keys = memref.dim %k, %c0 : memref<?x?xf16>
  %grid = arith.ceildivui %rows, %c64 : index
  %tiles = arith.ceildivui %keys, %c64 : index
  croq.parallel (%bm) in [%grid] : block {
    %q_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    // log2(e) / sqrt(64): exp(x / 8) = exp2(x * log2(e) / 8).
    %scale = arith.constant 0.18033688 : f32
    %qv = croq.subspan %q [64, 64] at [%bm, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma zfill swizzle = 128 %qv -> %q_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %qa = croq.mma.load %q_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
    %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
    %res:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%o = %o0, %m = %m0, %l = %l0)
        -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
      %kv = croq.subspan %k [64, 64] at [%j, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill swizzle = 128 %kv -> %k_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %vv = croq.subspan %v [64, 64] at [%j, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill swizzle = 128 %vv -> %v_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %kb = croq.mma.load %k_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %s0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
      %s = croq.mma.commit %s1 : !croq.acc<64x64xf32>
      // Scaled to base 2; keys past the end never win the maximum.
      %base = arith.muli %j, %c64 : index
      %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x64xf32> {
        %key = arith.addi %base, %col : index
        %inside = arith.cmpi ult, %key, %keys : index
        %y = arith.mulf %x, %scale : f32
        %r = arith.select %inside, %y, %ninf : f32
        croq.yield %r : f32
      }
      %mt = croq.mma.reduce max %t : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.maximumf %a, %b : f32
        croq.yield %x : f32
      }
      %p = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
        %d = arith.subf %x, %mx : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ls = croq.mma.reduce sum %p : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %d = arith.subf %a, %b : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %x, %c : f32
        croq.yield %y : f32
      }
      %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
        %y = arith.mulf %x, %a : f32
        croq.yield %y : f32
      }
      %pa = croq.mma.convert %p : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
      %vb = croq.mma.load %v_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
      %on = croq.mma.commit %o1 : !croq.acc<64x64xf32>
      scf.yield %on, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
    } {croq.stages = 1 : i64}
    %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
      %y = arith.divf %x, %sum : f32
      croq.yield %y : f32
    }
    %ov = croq.subspan %out [64, 64] at [%bm, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.mma.store %o -> %ov : !croq.acc<64x64xf32> -> !croq.view<64x64xf16>
  }
  return
}
// out = softmax(q k^T / sqrt(128)) v for q [S, 128] and k, v [T, 128]: one
// block of 128 threads per 64 rows of q, the keys in tiles of 64 with an
// online softmax; keys past T are masked.
func.func @attention_tile_d128_f16(%q: memref<?x?xf16>, %k: memref<?x?xf16>,
                              %v: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = memref.dim %q, %c0 : memref<?x?xf16>
  %keys = memref.dim %k, %c0 : memref<?x?xf16>
  %grid = arith.ceildivui %rows, %c64 : index
  %tiles = arith.ceildivui %keys, %c64 : index
  croq.parallel (%bm) in [%grid] : block {
    %q_s = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    // log2(e) / sqrt(128).
    %scale = arith.constant 0.12751743 : f32
    %qv = croq.subspan %q [64, 128] at [%bm, %c0] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy tma zfill swizzle = 128 %qv -> %q_s : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    %qa = croq.mma.load %q_s : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
    %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
    %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
    %res:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%o = %o0, %m = %m0, %l = %l0)
        -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
      %kv = croq.subspan %k [64, 128] at [%j, %c0] : memref<?x?xf16> -> !croq.view<64x128xf16>
      croq.copy tma zfill swizzle = 128 %kv -> %k_s : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
      %vv = croq.subspan %v [64, 128] at [%j, %c0] : memref<?x?xf16> -> !croq.view<64x128xf16>
      croq.copy tma zfill swizzle = 128 %vv -> %v_s : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
      %kb = croq.mma.load %k_s : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
      %s0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
      %s = croq.mma.commit %s1 : !croq.acc<64x64xf32>
      // Scaled to base 2; keys past the end never win the maximum.
      %base = arith.muli %j, %c64 : index
      %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x64xf32> {
        %key = arith.addi %base, %col : index
        %inside = arith.cmpi ult, %key, %keys : index
        %y = arith.mulf %x, %scale : f32
        %r = arith.select %inside, %y, %ninf : f32
        croq.yield %r : f32
      }
      %mt = croq.mma.reduce max %t : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.maximumf %a, %b : f32
        croq.yield %x : f32
      }
      %p = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
        %d = arith.subf %x, %mx : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ls = croq.mma.reduce sum %p : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %d = arith.subf %a, %b : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %x, %c : f32
        croq.yield %y : f32
      }
      %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
        %y = arith.mulf %x, %a : f32
        croq.yield %y : f32
      }
      %pa = croq.mma.convert %p : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
      %vb = croq.mma.load %v_s : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
      %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
      %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
      scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
    } {croq.stages = 1 : i64}
    %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
      %y = arith.divf %x, %sum : f32
      croq.yield %y : f32
    }
    %ov = croq.subspan %out [64, 128] at [%bm, %c0] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.mma.store %o -> %ov : !croq.acc<64x128xf32> -> !croq.view<64x128xf16>
  }
  return
}
func.func @attention_tile_bf16(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>,
                              %v: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = memref.dim %q, %c0 : memref<?x?xbf16>
  %keys = memref.dim %k, %c0 : memref<?x?xbf16>
  %grid = arith.ceildivui %rows, %c64 : index
  %tiles = arith.ceildivui %keys, %c64 : index
  croq.parallel (%bm) in [%grid] : block {
    %q_s = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    // log2(e) / sqrt(64): exp(x / 8) = exp2(x * log2(e) / 8).
    %scale = arith.constant 0.18033688 : f32
    %qv = croq.subspan %q [64, 64] at [%bm, %c0] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy tma zfill swizzle = 128 %qv -> %q_s : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
    %qa = croq.mma.load %q_s : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
    %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
    %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
    %res:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%o = %o0, %m = %m0, %l = %l0)
        -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
      %kv = croq.subspan %k [64, 64] at [%j, %c0] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
      croq.copy tma zfill swizzle = 128 %kv -> %k_s : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
      %vv = croq.subspan %v [64, 64] at [%j, %c0] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
      croq.copy tma zfill swizzle = 128 %vv -> %v_s : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
      %kb = croq.mma.load %k_s : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
      %s0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
      %s = croq.mma.commit %s1 : !croq.acc<64x64xf32>
      // Scaled to base 2; keys past the end never win the maximum.
      %base = arith.muli %j, %c64 : index
      %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x64xf32> {
        %key = arith.addi %base, %col : index
        %inside = arith.cmpi ult, %key, %keys : index
        %y = arith.mulf %x, %scale : f32
        %r = arith.select %inside, %y, %ninf : f32
        croq.yield %r : f32
      }
      %mt = croq.mma.reduce max %t : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.maximumf %a, %b : f32
        croq.yield %x : f32
      }
      %p = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
        %d = arith.subf %x, %mx : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ls = croq.mma.reduce sum %p : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %d = arith.subf %a, %b : f32
        %e = math.exp2 %d fastmath<afn> : f32
        croq.yield %e : f32
      }
      %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %x, %c : f32
        croq.yield %y : f32
      }
      %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
        %y = arith.mulf %x, %a : f32
        croq.yield %y : f32
      }
      %pa = croq.mma.convert %p : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
      %vb = croq.mma.load %v_s : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
      %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
      %on = croq.mma.commit %o1 : !croq.acc<64x64xf32>
      scf.yield %on, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
    } {croq.stages = 1 : i64}
    %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
      %y = arith.divf %x, %sum : f32
      croq.yield %y : f32
    }
    %ov = croq.subspan %out [64, 64] at [%bm, %c0] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.mma.store %o -> %ov : !croq.acc<64x64xf32> -> !croq.view<64x64xbf16>
  }
  return
}

// out[r, c] = (sum over the 64 rows of r's block of s[., c]) + min(s[r, .])
// for s = a b^T, a [M, 64], b [128, 64]: column sums through the scratch
// tile, row minima across quads, both broadcast back.
func.func @reduce_columns_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                              %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf16>
  %grid = arith.ceildivui %rows, %c64 : index
  croq.parallel (%bm) in [%grid] : block {
    %a_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %scratch = croq.alloc : !croq.tile<4x128xf32, shared>
    %zero = arith.constant 0.0 : f32
    %av = croq.subspan %a [64, 64] at [%bm, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma zfill swizzle = 128 %av -> %a_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %bv = croq.subspan %b [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
    croq.copy tma zfill swizzle = 128 %bv -> %b_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    %fa = croq.mma.load %a_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %fb = croq.mma.load %b_s : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %s1 = croq.mma row row %s0, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
    %sums = croq.mma.reduce sum %s scratch %scratch : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
    %mins = croq.mma.reduce min %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
    %r = croq.mma.map %s, %sums, %mins (%row, %col, %x, %cs, %rm) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols>, !croq.vec<64xf32, rows> {
      %y = arith.addf %cs, %rm : f32
      croq.yield %y : f32
    }
    %ov = croq.subspan %out [64, 128] at [%bm, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
    croq.mma.store %r -> %ov : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
  }
  return
}
