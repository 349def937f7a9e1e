// Transformer block (pre-LN), f16 weights/activations, f32 layer-norm and softmax internals.
// corpus-variants: copyout
// seq 2048 (the block of transformer_block.mlir at 16 times its sequence), hidden 256, 4 heads of 64, MLP 1024, tanh-GELU.
//   h = x + Wo(attn(LN1(x)) + bo);  y = h + W2(gelu(W1 LN2(h) + b1)) + b2
// Written with the help of a throwaway Python script; edit by hand.
func.func @transformer_block_s2048(%x: tensor<1x2048x256xf16>,
    %gamma1: tensor<1x1x256xf16>,
    %beta1: tensor<1x1x256xf16>,
    %wqkv: tensor<1x256x768xf16>,
    %bqkv: tensor<1x1x768xf16>,
    %wo: tensor<1x256x256xf16>,
    %bo: tensor<1x1x256xf16>,
    %gamma2: tensor<1x1x256xf16>,
    %beta2: tensor<1x1x256xf16>,
    %w1: tensor<1x256x1024xf16>,
    %b1: tensor<1x1x1024xf16>,
    %w2: tensor<1x1024x256xf16>,
    %b2: tensor<1x1x256xf16>) -> tensor<1x2048x256xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %invh = "tosa.const"() <{values = dense<0.00390625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k0 = "tosa.const"() <{values = dense<0.7978845608> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k1 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %st0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %st1 = tosa.const_shape {values = dense<[0, 0, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %st2 = tosa.const_shape {values = dense<[0, 0, 512]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[1, 2048, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %heads = tosa.const_shape {values = dense<[2048, 4, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %merged = tosa.const_shape {values = dense<[1, 2048, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // attention sub-block
  %ln1_x = tosa.cast %x : (tensor<1x2048x256xf16>) -> tensor<1x2048x256xf32>
  %ln1_s = tosa.reduce_sum %ln1_x {axis = 2 : i32} : (tensor<1x2048x256xf32>) -> tensor<1x2048x1xf32>
  %ln1_mean = tosa.mul %ln1_s, %invh, %sh : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32>
  %ln1_c = tosa.sub %ln1_x, %ln1_mean : (tensor<1x2048x256xf32>, tensor<1x2048x1xf32>) -> tensor<1x2048x256xf32>
  %ln1_c2 = tosa.mul %ln1_c, %ln1_c, %sh : (tensor<1x2048x256xf32>, tensor<1x2048x256xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln1_vs = tosa.reduce_sum %ln1_c2 {axis = 2 : i32} : (tensor<1x2048x256xf32>) -> tensor<1x2048x1xf32>
  %ln1_var = tosa.mul %ln1_vs, %invh, %sh : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32>
  %ln1_ve = tosa.add %ln1_var, %eps : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2048x1xf32>
  %ln1_rs = tosa.rsqrt %ln1_ve : (tensor<1x2048x1xf32>) -> tensor<1x2048x1xf32>
  %ln1_n = tosa.mul %ln1_c, %ln1_rs, %sh : (tensor<1x2048x256xf32>, tensor<1x2048x1xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln1_g = tosa.cast %gamma1 : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %ln1_b = tosa.cast %beta1 : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %ln1_ng = tosa.mul %ln1_n, %ln1_g, %sh : (tensor<1x2048x256xf32>, tensor<1x1x256xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln1_y = tosa.add %ln1_ng, %ln1_b : (tensor<1x2048x256xf32>, tensor<1x1x256xf32>) -> tensor<1x2048x256xf32>
  %ln1 = tosa.cast %ln1_y : (tensor<1x2048x256xf32>) -> tensor<1x2048x256xf16>
  %qkv0 = tosa.matmul %ln1, %wqkv, %z, %z : (tensor<1x2048x256xf16>, tensor<1x256x768xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2048x768xf16>
  %qkv = tosa.add %qkv0, %bqkv : (tensor<1x2048x768xf16>, tensor<1x1x768xf16>) -> tensor<1x2048x768xf16>
  %qs = tosa.slice %qkv, %st0, %sz : (tensor<1x2048x768xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2048x256xf16>
  %qr = tosa.reshape %qs, %heads : (tensor<1x2048x256xf16>, !tosa.shape<3>) -> tensor<2048x4x64xf16>
  %ks = tosa.slice %qkv, %st1, %sz : (tensor<1x2048x768xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2048x256xf16>
  %kr = tosa.reshape %ks, %heads : (tensor<1x2048x256xf16>, !tosa.shape<3>) -> tensor<2048x4x64xf16>
  %vs = tosa.slice %qkv, %st2, %sz : (tensor<1x2048x768xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2048x256xf16>
  %vr = tosa.reshape %vs, %heads : (tensor<1x2048x256xf16>, !tosa.shape<3>) -> tensor<2048x4x64xf16>
  %qh = tosa.transpose %qr {perms = array<i32: 1, 0, 2>} : (tensor<2048x4x64xf16>) -> tensor<4x2048x64xf16>
  %kt = tosa.transpose %kr {perms = array<i32: 1, 2, 0>} : (tensor<2048x4x64xf16>) -> tensor<4x64x2048xf16>
  %vh = tosa.transpose %vr {perms = array<i32: 1, 0, 2>} : (tensor<2048x4x64xf16>) -> tensor<4x2048x64xf16>
  %sc = tosa.matmul %qh, %kt, %z, %z : (tensor<4x2048x64xf16>, tensor<4x64x2048xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x2048x2048xf32>
  %scs = tosa.mul %sc, %scale, %sh : (tensor<4x2048x2048xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x2048x2048xf32>
  %mx = tosa.reduce_max %scs {axis = 2 : i32} : (tensor<4x2048x2048xf32>) -> tensor<4x2048x1xf32>
  %dd = tosa.sub %scs, %mx : (tensor<4x2048x2048xf32>, tensor<4x2048x1xf32>) -> tensor<4x2048x2048xf32>
  %ee = tosa.exp %dd : (tensor<4x2048x2048xf32>) -> tensor<4x2048x2048xf32>
  %se = tosa.reduce_sum %ee {axis = 2 : i32} : (tensor<4x2048x2048xf32>) -> tensor<4x2048x1xf32>
  %rse = tosa.reciprocal %se : (tensor<4x2048x1xf32>) -> tensor<4x2048x1xf32>
  %pr = tosa.mul %ee, %rse, %sh : (tensor<4x2048x2048xf32>, tensor<4x2048x1xf32>, tensor<1xi8>) -> tensor<4x2048x2048xf32>
  %prh = tosa.cast %pr : (tensor<4x2048x2048xf32>) -> tensor<4x2048x2048xf16>
  %ctx = tosa.matmul %prh, %vh, %z, %z : (tensor<4x2048x2048xf16>, tensor<4x2048x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x2048x64xf16>
  %ctxt = tosa.transpose %ctx {perms = array<i32: 1, 0, 2>} : (tensor<4x2048x64xf16>) -> tensor<2048x4x64xf16>
  %ctxm = tosa.reshape %ctxt, %merged : (tensor<2048x4x64xf16>, !tosa.shape<3>) -> tensor<1x2048x256xf16>
  %ao0 = tosa.matmul %ctxm, %wo, %z, %z : (tensor<1x2048x256xf16>, tensor<1x256x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2048x256xf16>
  %ao = tosa.add %ao0, %bo : (tensor<1x2048x256xf16>, tensor<1x1x256xf16>) -> tensor<1x2048x256xf16>
  %r1 = tosa.add %x, %ao : (tensor<1x2048x256xf16>, tensor<1x2048x256xf16>) -> tensor<1x2048x256xf16>
  // MLP sub-block
  %ln2_x = tosa.cast %r1 : (tensor<1x2048x256xf16>) -> tensor<1x2048x256xf32>
  %ln2_s = tosa.reduce_sum %ln2_x {axis = 2 : i32} : (tensor<1x2048x256xf32>) -> tensor<1x2048x1xf32>
  %ln2_mean = tosa.mul %ln2_s, %invh, %sh : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32>
  %ln2_c = tosa.sub %ln2_x, %ln2_mean : (tensor<1x2048x256xf32>, tensor<1x2048x1xf32>) -> tensor<1x2048x256xf32>
  %ln2_c2 = tosa.mul %ln2_c, %ln2_c, %sh : (tensor<1x2048x256xf32>, tensor<1x2048x256xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln2_vs = tosa.reduce_sum %ln2_c2 {axis = 2 : i32} : (tensor<1x2048x256xf32>) -> tensor<1x2048x1xf32>
  %ln2_var = tosa.mul %ln2_vs, %invh, %sh : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32>
  %ln2_ve = tosa.add %ln2_var, %eps : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2048x1xf32>
  %ln2_rs = tosa.rsqrt %ln2_ve : (tensor<1x2048x1xf32>) -> tensor<1x2048x1xf32>
  %ln2_n = tosa.mul %ln2_c, %ln2_rs, %sh : (tensor<1x2048x256xf32>, tensor<1x2048x1xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln2_g = tosa.cast %gamma2 : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %ln2_b = tosa.cast %beta2 : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %ln2_ng = tosa.mul %ln2_n, %ln2_g, %sh : (tensor<1x2048x256xf32>, tensor<1x1x256xf32>, tensor<1xi8>) -> tensor<1x2048x256xf32>
  %ln2_y = tosa.add %ln2_ng, %ln2_b : (tensor<1x2048x256xf32>, tensor<1x1x256xf32>) -> tensor<1x2048x256xf32>
  %ln2 = tosa.cast %ln2_y : (tensor<1x2048x256xf32>) -> tensor<1x2048x256xf16>
  %h0 = tosa.matmul %ln2, %w1, %z, %z : (tensor<1x2048x256xf16>, tensor<1x256x1024xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2048x1024xf16>
  %u = tosa.add %h0, %b1 : (tensor<1x2048x1024xf16>, tensor<1x1x1024xf16>) -> tensor<1x2048x1024xf16>
  %u2 = tosa.mul %u, %u, %sh : (tensor<1x2048x1024xf16>, tensor<1x2048x1024xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %u3 = tosa.mul %u2, %u, %sh : (tensor<1x2048x1024xf16>, tensor<1x2048x1024xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %t0 = tosa.mul %u3, %k1, %sh : (tensor<1x2048x1024xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %t1 = tosa.add %u, %t0 : (tensor<1x2048x1024xf16>, tensor<1x2048x1024xf16>) -> tensor<1x2048x1024xf16>
  %t2 = tosa.mul %t1, %k0, %sh : (tensor<1x2048x1024xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %t3 = tosa.tanh %t2 : (tensor<1x2048x1024xf16>) -> tensor<1x2048x1024xf16>
  %t4 = tosa.add %t3, %one : (tensor<1x2048x1024xf16>, tensor<1x1x1xf16>) -> tensor<1x2048x1024xf16>
  %t5 = tosa.mul %u, %half, %sh : (tensor<1x2048x1024xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %gl = tosa.mul %t5, %t4, %sh : (tensor<1x2048x1024xf16>, tensor<1x2048x1024xf16>, tensor<1xi8>) -> tensor<1x2048x1024xf16>
  %o0 = tosa.matmul %gl, %w2, %z, %z : (tensor<1x2048x1024xf16>, tensor<1x1024x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2048x256xf16>
  %o = tosa.add %o0, %b2 : (tensor<1x2048x256xf16>, tensor<1x1x256xf16>) -> tensor<1x2048x256xf16>
  %y = tosa.add %r1, %o : (tensor<1x2048x256xf16>, tensor<1x2048x256xf16>) -> tensor<1x2048x256xf16>
  return %y : tensor<1x2048x256xf16>
}
