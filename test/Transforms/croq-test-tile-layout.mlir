// RUN: croq-opt %s --croq-test-tile-layout -split-input-file 2>&1 | FileCheck %s

// The layouts croq gives shared tiles, held against the pattern tables of
// the CUDA swizzle modes (tma-swizzle-patterns): 16-byte chunk x of 128-byte
// line y lands at chunk ((y + offset) % N) ^ x of the same line, N = 8, 4 and
// 2 for 128B, 64B and 32B, offset 0 in a buffer aligned to the pattern's
// repeat (tiles are). Each CHECK line lists, for one tile row, the chunk of
// the tile where each of the row's chunks lands: y * 8 + that formula, with
// lines counted in the buffer (rows of 64 or 32 bytes share a line). A tile
// wider than the span is span-wide slabs one after another (the 3-D,
// atom-tiled TMA box); a slab that starts inside a repeat continues its
// lines, which is the seed's pointer-offset rule. The expected values were
// computed from the formula, not by croq.

// 128B: one row per line.
// CHECK: remark: row 0: 0 1 2 3 4 5 6 7
// CHECK: remark: row 1: 9 8 11 10 13 12 15 14
// CHECK: remark: row 2: 18 19 16 17 22 23 20 21
// CHECK: remark: row 3: 27 26 25 24 31 30 29 28
// CHECK: remark: row 4: 36 37 38 39 32 33 34 35
// CHECK: remark: row 5: 45 44 47 46 41 40 43 42
// CHECK: remark: row 6: 54 55 52 53 50 51 48 49
// CHECK: remark: row 7: 63 62 61 60 59 58 57 56
func.func @rows_of_128_bytes_swizzle_128() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<8x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// 128B with i8 elements: the same chunks.
// CHECK: remark: row 0: 0 1 2 3 4 5 6 7
// CHECK: remark: row 1: 9 8 11 10 13 12 15 14
// CHECK: remark: row 2: 18 19 16 17 22 23 20 21
// CHECK: remark: row 3: 27 26 25 24 31 30 29 28
// CHECK: remark: row 4: 36 37 38 39 32 33 34 35
// CHECK: remark: row 5: 45 44 47 46 41 40 43 42
// CHECK: remark: row 6: 54 55 52 53 50 51 48 49
// CHECK: remark: row 7: 63 62 61 60 59 58 57 56
func.func @bytes_swizzle_128() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<8x128xi8, shared, swizzle = 128>
  }
  return
}

// -----

// 64B: two rows per line.
// CHECK: remark: row 0: 0 1 2 3
// CHECK: remark: row 1: 4 5 6 7
// CHECK: remark: row 2: 9 8 11 10
// CHECK: remark: row 3: 13 12 15 14
// CHECK: remark: row 4: 18 19 16 17
// CHECK: remark: row 5: 22 23 20 21
// CHECK: remark: row 6: 27 26 25 24
// CHECK: remark: row 7: 31 30 29 28
func.func @rows_of_64_bytes_swizzle_64() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<16x32xf16, shared, swizzle = 64>
  }
  return
}

// -----

// 32B: four rows per line.
// CHECK: remark: row 0: 0 1
// CHECK: remark: row 1: 2 3
// CHECK: remark: row 2: 4 5
// CHECK: remark: row 3: 6 7
// CHECK: remark: row 4: 9 8
// CHECK: remark: row 5: 11 10
// CHECK: remark: row 6: 13 12
// CHECK: remark: row 7: 15 14
func.func @rows_of_32_bytes_swizzle_32() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<16x16xf16, shared, swizzle = 32>
  }
  return
}

// -----

// 128B, rows of 256 bytes: two slabs of 8 x 128 bytes.
// CHECK: remark: row 0: 0 1 2 3 4 5 6 7 64 65 66 67 68 69 70 71
// CHECK: remark: row 1: 9 8 11 10 13 12 15 14 73 72 75 74 77 76 79 78
// CHECK: remark: row 2: 18 19 16 17 22 23 20 21 82 83 80 81 86 87 84 85
// CHECK: remark: row 3: 27 26 25 24 31 30 29 28 91 90 89 88 95 94 93 92
// CHECK: remark: row 4: 36 37 38 39 32 33 34 35 100 101 102 103 96 97 98 99
// CHECK: remark: row 5: 45 44 47 46 41 40 43 42 109 108 111 110 105 104 107 106
// CHECK: remark: row 6: 54 55 52 53 50 51 48 49 118 119 116 117 114 115 112 113
// CHECK: remark: row 7: 63 62 61 60 59 58 57 56 127 126 125 124 123 122 121 120
func.func @slabs_swizzle_128() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<8x128xf16, shared, swizzle = 128>
  }
  return
}

// -----

// 128B, four slabs of 4 x 128 bytes: slabs 1 and 3 start at line 4 of a
// repeat, so their rows XOR with 4 to 7.
// CHECK: remark: row 0: 0 1 2 3 4 5 6 7 36 37 38 39 32 33 34 35 64 65 66 67 68 69 70 71 100 101 102 103 96 97 98 99
// CHECK: remark: row 1: 9 8 11 10 13 12 15 14 45 44 47 46 41 40 43 42 73 72 75 74 77 76 79 78 109 108 111 110 105 104 107 106
// CHECK: remark: row 2: 18 19 16 17 22 23 20 21 54 55 52 53 50 51 48 49 82 83 80 81 86 87 84 85 118 119 116 117 114 115 112 113
// CHECK: remark: row 3: 27 26 25 24 31 30 29 28 63 62 61 60 59 58 57 56 91 90 89 88 95 94 93 92 127 126 125 124 123 122 121 120
func.func @slabs_inside_a_repeat_swizzle_128() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<4x128xf32, shared, swizzle = 128>
  }
  return
}

// -----

// 64B, rows of 128 bytes: two slabs of 8 x 64 bytes; one stage.
// CHECK: remark: row 0: 0 1 2 3 32 33 34 35
// CHECK: remark: row 1: 4 5 6 7 36 37 38 39
// CHECK: remark: row 2: 9 8 11 10 41 40 43 42
// CHECK: remark: row 3: 13 12 15 14 45 44 47 46
// CHECK: remark: row 4: 18 19 16 17 50 51 48 49
// CHECK: remark: row 5: 22 23 20 21 54 55 52 53
// CHECK: remark: row 6: 27 26 25 24 59 58 57 56
// CHECK: remark: row 7: 31 30 29 28 63 62 61 60
func.func @stage_of_slabs_swizzle_64() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tiles<2 x 8x64xf16, shared, swizzle = 64>
  }
  return
}

// -----

// No swizzle: row-major.
// CHECK: remark: row 0: 0 1 2 3
// CHECK: remark: row 1: 4 5 6 7
// CHECK: remark: row 2: 8 9 10 11
// CHECK: remark: row 3: 12 13 14 15
func.func @unswizzled() {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<4x16xf32, shared>
  }
  return
}
