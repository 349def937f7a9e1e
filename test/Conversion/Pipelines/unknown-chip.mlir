// Passes that need a limit of the GPU read it from the target description
// of their chip; a chip croq has no description for is an error naming the
// ones it knows, not a silent use of Hopper's numbers.
//
// RUN: not croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu=chip=sm_86 2>&1 | FileCheck %s
// RUN: not croq-opt %s --croq-pipeline-loops="chip=sm_100a" 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not croq-opt %s --croq-to-nvvm="chip=sm_89 format=none" 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu=chip=sm_90a | FileCheck %s --check-prefix=OK

// CHECK: error: croq has no target description for chip 'sm_86'; known chips: sm_90a, sm_80
// PIPE: error: croq has no target description for chip 'sm_100a'; known chips: sm_90a, sm_80
// NVVM: error: croq has no target description for chip 'sm_89'; known chips: sm_90a, sm_80
// OK-LABEL: func.func @k
// OK: gpu.launch
func.func @k(%a: memref<128xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<128xf32, shared>
    croq.copy dma %a -> %t : memref<128xf32> -> !croq.tile<128xf32, shared>
  }
  return
}
