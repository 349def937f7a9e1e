// RUN: croq-opt %s -split-input-file -verify-diagnostics

// One split per verifier rule of croq.im2col_map and croq.im2col (the TMA
// copy in im2col mode), each quoting the whole message.

func.func @im2col_map_in_kernel(%x: memref<?x?x?x?xf16>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col_map' op runs on the host: it must be outside croq.parallel regions, before the kernel that uses the map}}
    %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  }
  return
}

// -----

func.func @im2col_map_rank(%x: memref<?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected a tensor of rank 3 to 5 (N, spatial dimensions, C), got rank 2}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [] upper [] strides [] swizzle = 128 : memref<?x?xf16>
  return
}

// -----

func.func @im2col_map_rank_6(%x: memref<?x?x?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected a tensor of rank 3 to 5 (N, spatial dimensions, C), got rank 6}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [0, 0, 0, 0] upper [0, 0, 0, 0] strides [1, 1, 1, 1] swizzle = 128 : memref<?x?x?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_lower_count(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected 2 lower corner offsets (one per spatial dimension), got 1}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_upper_count(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected 2 upper corner offsets (one per spatial dimension), got 3}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_lower_range(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected lower corner offset 1 in [-128, 127] for a tensor of rank 4, got -129}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -129] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_upper_range_rank_5(%x: memref<?x?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected upper corner offset 0 in [-16, 15] for a tensor of rank 5, got 16}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [0, 0, 0] upper [16, 0, 0] strides [1, 1, 1] swizzle = 128 : memref<?x?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_lower_range_rank_3(%x: memref<?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected lower corner offset 0 in [-32768, 32767] for a tensor of rank 3, got -32769}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-32769] upper [0] strides [1] swizzle = 128 : memref<?x?x?xf16>
  return
}

// -----

func.func @im2col_map_stride_count(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected 2 strides (one per spatial dimension), got 3}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_stride_range(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected stride 1 in [1, 8], got 9}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [2, 9] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_stride_zero(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected stride 0 in [1, 8], got 0}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [0, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_swizzle_auto(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op a tensor map has a concrete swizzle, got 'auto'}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = auto : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_channel_bytes(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected channels x element size to be a multiple of 16 bytes, got 4 x 2 = 8 bytes}}
  %m = croq.im2col_map %x pixels 128 channels 4 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = none : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_swizzle_span(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected channels x element size to be at most the 128-byte swizzle span, got 128 x 2 = 256 bytes}}
  %m = croq.im2col_map %x pixels 128 channels 128 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_swizzle_span_32(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op expected channels x element size to be at most the 32-byte swizzle span, got 32 x 2 = 64 bytes}}
  %m = croq.im2col_map %x pixels 128 channels 32 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 32 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_empty_box(%x: memref<2x5x7x64xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op the bounding box is empty along spatial dimension 0: 5 pixels + upper -5 - lower 0 = 0}}
  %m = croq.im2col_map %x pixels 128 channels 64 lower [0, 0] upper [-5, 0] strides [1, 1] swizzle = 128 : memref<2x5x7x64xf16>
  return
}

// -----

func.func @im2col_map_pixels(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op attribute 'pixels' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 1024}}
  %m = croq.im2col_map %x pixels 2048 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  return
}

// -----

func.func @im2col_map_channels(%x: memref<?x?x?x?xf16>) {
  // expected-error @+1 {{'croq.im2col_map' op attribute 'channels' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 256}}
  %m = croq.im2col_map %x pixels 128 channels 512 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = none : memref<?x?x?x?xf16>
  return
}

// -----

// The load takes an im2col map (the generic form: the custom one parses the
// operand as one).
func.func @im2col_tiled_map(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op operand #8 must be an im2col TMA tensor map (!croq.tensor_map<im2col>), but got '!croq.tensor_map'}}
    "croq.im2col"(%x, %t, %c0, %c0, %c0, %c0, %c0, %c0, %m) <{operandSegmentSizes = array<i32: 1, 1, 4, 2, 1>}> : (memref<?x?x?x?xf16>, !croq.tile<128x64xf16, shared, swizzle = 128>, index, index, index, index, index, index, !croq.tensor_map) -> ()
  }
  return
}

// -----

func.func @im2col_rank(%x: memref<?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected a tensor of rank 3 to 5 (N, spatial dimensions, C), got rank 2}}
    croq.im2col %x[%c0, %c0] offsets [] -> %t map %m : memref<?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_coords(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected 4 coordinates (N, spatial dimensions, C), got 3}}
    croq.im2col %x[%c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_offsets(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected 2 im2col offsets (one per spatial dimension), got 1}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_offset_range(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  %big = arith.constant 65536 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected im2col offset 1 in [0, 65535] (a 16-bit operand), got 65536}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %big] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_offset_negative(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  %neg = arith.constant -1 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected im2col offset 0 in [0, 65535] (a 16-bit operand), got -1}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%neg, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_local_tile(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, local>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected a 2-d shared tile (pixels x channels), got '!croq.tile<128x64xf16, local>'}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, local>
  }
  return
}

// -----

func.func @im2col_3d_tile(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<2x64x64xf16, shared>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected a 2-d shared tile (pixels x channels), got '!croq.tile<2x64x64xf16, shared>'}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<2x64x64xf16, shared>
  }
  return
}

// -----

func.func @im2col_element_type(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf32, shared>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.im2col' op expected the tile's element type to be the tensor's ('f16'), got 'f32'}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf32, shared>
  }
  return
}

// -----

func.func @im2col_outside_kernel(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'croq.im2col' op is issued in a kernel: it must be inside a 'croq.parallel ... : block' region}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  return
}

// -----

func.func @im2col_map_of_other_tensor(%x: memref<?x?x?x?xf16>, %y: memref<?x?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    // expected-error @+1 {{'croq.im2col' op takes the im2col map of another tensor; the map must be the loaded tensor's}}
    croq.im2col %y[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_tile_shape(%x: memref<?x?x?x?xf16>, %y: memref<?x?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    // expected-error @+1 {{'croq.im2col' op expected a tile of 128x64 (the map's pixels x channels), got 64x64}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @im2col_tile_swizzle(%x: memref<?x?x?x?xf16>, %y: memref<?x?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared>
    // expected-error @+1 {{'croq.im2col' op expected the tile's swizzle (none) to be the map's (128)}}
    croq.im2col %x[%c0, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared>
  }
  return
}
