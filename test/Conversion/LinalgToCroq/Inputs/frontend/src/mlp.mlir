// MLP: x @ W1 + b1 -> tanh-GELU -> @ W2 + b2, f16 ([1,S,H] activations, TOSA matmul batch 1).
// corpus-variants: copyout
// gelu(u) = 0.5 * u * (1 + tanh(0.7978845608 * (u + 0.044715 * u^3)))
func.func @mlp(%x: tensor<1x128x256xf16>, %w1: tensor<1x256x512xf16>, %b1: tensor<1x1x512xf16>,
               %w2: tensor<1x512x256xf16>, %b2: tensor<1x1x256xf16>) -> tensor<1x128x256xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k0 = "tosa.const"() <{values = dense<0.7978845608> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k1 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %h = tosa.matmul %x, %w1, %z, %z : (tensor<1x128x256xf16>, tensor<1x256x512xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x512xf16>
  %u = tosa.add %h, %b1 : (tensor<1x128x512xf16>, tensor<1x1x512xf16>) -> tensor<1x128x512xf16>
  %u2 = tosa.mul %u, %u, %sh : (tensor<1x128x512xf16>, tensor<1x128x512xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %u3 = tosa.mul %u2, %u, %sh : (tensor<1x128x512xf16>, tensor<1x128x512xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %t0 = tosa.mul %u3, %k1, %sh : (tensor<1x128x512xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %t1 = tosa.add %u, %t0 : (tensor<1x128x512xf16>, tensor<1x128x512xf16>) -> tensor<1x128x512xf16>
  %t2 = tosa.mul %t1, %k0, %sh : (tensor<1x128x512xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %t3 = tosa.tanh %t2 : (tensor<1x128x512xf16>) -> tensor<1x128x512xf16>
  %t4 = tosa.add %t3, %one : (tensor<1x128x512xf16>, tensor<1x1x1xf16>) -> tensor<1x128x512xf16>
  %t5 = tosa.mul %u, %half, %sh : (tensor<1x128x512xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %g = tosa.mul %t5, %t4, %sh : (tensor<1x128x512xf16>, tensor<1x128x512xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %o = tosa.matmul %g, %w2, %z, %z : (tensor<1x128x512xf16>, tensor<1x512x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x256xf16>
  %y = tosa.add %o, %b2 : (tensor<1x128x256xf16>, tensor<1x1x256xf16>) -> tensor<1x128x256xf16>
  return %y : tensor<1x128x256xf16>
}
