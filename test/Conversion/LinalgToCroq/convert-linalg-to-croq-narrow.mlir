// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s

// Few columns, many rows: the narrow tiles, 64 rows by 16, 32 or 64
// columns on one consumer warpgroup (getNarrowTiles). B stored K x N with
// N = 40: every row of B's 64-column box ends past the product's edge, so
// the 64x64 tiles run in clusters of two along M, each block loading half
// of B's K step and multicasting it to both (94 blocks, 47 clusters).
// CHECK-LABEL: func.func @clipped
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [94, 1] : block cluster [2, 1] attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK:       croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-NOT:   croq.stages
func.func @clipped(%a: memref<6000x6000xf16>, %b: memref<6000x40xf16>, %c: memref<6000x40xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<6000x40xf16>)
  linalg.matmul ins(%a, %b : memref<6000x6000xf16>, memref<6000x40xf16>) outs(%c : memref<6000x40xf16>)
  return
}

// -----

// B stored N x K: its box's rows are K steps, whole; the 64x64 tiles run
// alone.
// CHECK-LABEL: func.func @clipped_b_transposed
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [94, 1] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK-NOT:   multicast
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
func.func @clipped_b_transposed(%a: memref<6000x6000xbf16>, %b: memref<40x6000xbf16>, %c: memref<6000x40xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<6000x40xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<6000x6000xbf16>, memref<40x6000xbf16>) outs(%c : memref<6000x40xbf16>)
  return
}

// -----

// N a multiple of the width: B's box rows are whole, the tiles run alone.
// CHECK-LABEL: func.func @whole_width
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [128, 1] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK-NOT:   croq.stages
func.func @whole_width(%a: memref<8192x8192xf16>, %b: memref<8192x64xf16>, %c: memref<8192x64xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8192x64xf16>)
  linalg.matmul ins(%a, %b : memref<8192x8192xf16>, memref<8192x64xf16>) outs(%c : memref<8192x64xf16>)
  return
}

// -----

// More 64x64 blocks than multiprocessors (141 clusters of two, 188
// blocks): six stages each (croq.stages) instead of the eight that fit one
// block, so that two blocks share a multiprocessor and the grid runs in
// one wave. On one wave the stages stay (@clipped, @whole_width: no
// croq.stages, croq-pipeline-loops gives eight).
// CHECK-LABEL: func.func @two_blocks_a_multiprocessor
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [142, 1] : block cluster [2, 1]
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK:       } {croq.stages = 6 : i64}
func.func @two_blocks_a_multiprocessor(%a: memref<9000x3000xf16>, %b: memref<3000x48xf16>, %c: memref<9000x48xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<9000x48xf16>)
  linalg.matmul ins(%a, %b : memref<9000x3000xf16>, memref<3000x48xf16>) outs(%c : memref<9000x48xf16>)
  return
}

// -----

// A narrow tile is given products of at most its width, one column of
// tiles: 24 columns take 64x32 (here with the K loop split in clusters of
// two, 47 steps a block), not two columns of 64x16 that would each read
// all of A.
// CHECK-LABEL: func.func @one_column_of_tiles
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [94, 1] : block cluster [2, 1]
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x32xf32>
// CHECK:       croq.mma.cluster_sum %{{.*}} : !croq.acc<64x32xf32>, !croq.tile<64x32xf32, shared>
// CHECK-NOT:   !croq.acc<64x16xf32>
func.func @one_column_of_tiles(%a: memref<3000x6000xbf16>, %b: memref<24x6000xbf16>, %c: memref<3000x24xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<3000x24xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<3000x6000xbf16>, memref<24x6000xbf16>) outs(%c : memref<3000x24xbf16>)
  return
}

// -----

// A narrow tile's K loop is split in a cluster only where each block keeps
// at least 32 K steps (16 for the other tiles): at 3000x24x3000 (47 steps,
// 24 a block) the 128x64 tiles split through a workspace instead, two
// kernels (the partial products and the reduction).
// CHECK-LABEL: func.func @short_narrow_split
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [{{[0-9]+}}, 1] : block attributes
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<128x64xf32>
// CHECK:       croq.parallel
// CHECK-NOT:   croq.mma.cluster_sum
func.func @short_narrow_split(%a: memref<3000x3000xf16>, %b: memref<3000x24xf16>, %c: memref<3000x24xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<3000x24xf16>)
  linalg.matmul ins(%a, %b : memref<3000x3000xf16>, memref<3000x24xf16>) outs(%c : memref<3000x24xf16>)
  return
}

// Where B is stored K x N and N is not a multiple of the width (B's box
// clipped), a narrow tile's K loop is split in a cluster only with at
// least 64 K steps a block: 4104x24x4104 (65 steps) takes 128x64 tiles
// split through a workspace (B stored N x K, @one_column_of_tiles, keeps
// the cluster split at 47 steps a block).
// CHECK-LABEL: func.func @clipped_short_split
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [{{[0-9]+}}, 1] : block attributes
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<128x64xf32>
// CHECK-NOT:   croq.mma.cluster_sum
func.func @clipped_short_split(%a: memref<4104x4104xf16>, %b: memref<4104x24xf16>, %c: memref<4104x24xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4104x24xf16>)
  linalg.matmul ins(%a, %b : memref<4104x4104xf16>, memref<4104x24xf16>) outs(%c : memref<4104x24xf16>)
  return
}

// -----

// At most 64 columns: no tile of 128 columns or more (which would compute
// a whole 64-column span of padding), however many rows.
// CHECK-LABEL: func.func @no_wide_tile
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [141, 1] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
func.func @no_wide_tile(%a: memref<9000x3000xbf16>, %b: memref<48x3000xbf16>, %c: memref<9000x48xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<9000x48xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<9000x3000xbf16>, memref<48x3000xbf16>) outs(%c : memref<9000x48xbf16>)
  return
}

// -----

// Dynamic extents: each narrow tile alone is never taken where N is not a
// multiple of its width, and in clusters (the last variants) only there;
// neither past one width of columns.
// CHECK-LABEL: func.func @dynamic
// CHECK:       } else {
// CHECK:       %[[N:.*]] = memref.dim %arg1, %c1 : memref<?x?xf16>
// CHECK:       %[[R16:.*]] = arith.remui %[[N]], %c16 : index
// CHECK-NEXT:  %[[CLIP16:.*]] = arith.cmpi ugt, %[[R16]], %c0 : index
// CHECK-NEXT:  %[[ALONE16:.*]] = arith.select %[[CLIP16]], %c1152921504606846976, %{{.*}} : index
// CHECK-NEXT:  %[[WIDE16:.*]] = arith.cmpi ugt, %[[N]], %c16 : index
// CHECK-NEXT:  arith.select %[[WIDE16]], %c1152921504606846976, %[[ALONE16]] : index
// CHECK:       arith.remui %[[N]], %c32 : index
// CHECK:       arith.remui %[[N]], %c64 : index
// 64x64 again, two blocks to a multiprocessor.
// CHECK:       arith.remui %[[N]], %c64 : index
// Their K loops split in clusters: at least 64 K steps a block where N is
// not a multiple of the width, 32 where it is.
// CHECK:       %[[SR16:.*]] = arith.remui %[[N]], %c16 : index
// CHECK-NEXT:  %[[SCLIP16:.*]] = arith.cmpi ugt, %[[SR16]], %c0 : index
// CHECK-NEXT:  arith.select %[[SCLIP16]], %c64, %c32 : index
// CHECK:       arith.remui %[[N]], %c32 : index
// CHECK:       arith.remui %[[N]], %c64 : index
// CHECK:       %[[RC16:.*]] = arith.remui %[[N]], %c16 : index
// CHECK-NEXT:  %[[CCLIP16:.*]] = arith.cmpi ugt, %[[RC16]], %c0 : index
// CHECK-NEXT:  arith.select %[[CCLIP16]], %{{.*}}, %c1152921504606846976 : index
// CHECK:       arith.remui %[[N]], %c32 : index
// CHECK:       arith.remui %[[N]], %c64 : index
// CHECK:       scf.index_switch
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
