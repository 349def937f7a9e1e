// The chip is named once, by the module's croq.target (croq-set-target or
// the user), and passes that need a limit of the GPU read it from the
// target description of that chip; a chip croq has no description for is an
// error naming the ones it knows, not a silent use of Hopper's numbers.
//
// RUN: not croq-opt %s --croq-set-target=chip=sm_86 --croq-assign-layouts 2>&1 | FileCheck %s
// RUN: not croq-opt %s --croq-set-target="chip=sm_100a" --croq-pipeline-loops 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not croq-opt %s --croq-to-nvvm="chip=sm_89 format=none" 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: not croq-translate --croq-to-ptx --croq-chip=sm_70 %s 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: croq-opt %s --croq-set-target=chip=sm_90a --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --check-prefix=OK
// RUN: croq-opt %s --croq-set-target | FileCheck %s --check-prefix=DEFAULT

// CHECK: error: croq has no target description for chip 'sm_86'; known chips: sm_90a, sm_80
// PIPE: error: croq has no target description for chip 'sm_100a'; known chips: sm_90a, sm_80
// NVVM: error: croq has no target description for chip 'sm_89'; known chips: sm_90a, sm_80
// TRANSLATE: error: croq has no target description for chip 'sm_70'; known chips: sm_90a, sm_80
// OK: module attributes {croq.target = "sm_90a"}
// DEFAULT: module attributes {croq.target = "sm_90a"}
// OK-LABEL: func.func @k
// OK: gpu.launch
func.func @k(%a: memref<128xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<128xf32, shared>
    croq.copy dma %a -> %t : memref<128xf32> -> !croq.tile<128xf32, shared>
  }
  return
}
