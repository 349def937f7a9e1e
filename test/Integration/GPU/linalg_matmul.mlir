// REQUIRES: ptxas
// UNSUPPORTED: sanitizers
// (under sanitizers: croq's passes on this input in sanitized-inputs.test)
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_0.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_1.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_2.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_3.ptx -o %t.4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_4.ptx -o %t.5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_5.ptx -o %t.6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_6.ptx -o %t.7.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_7.ptx -o %t.8.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_8.ptx -o %t.9.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_9.ptx -o %t.10.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_10.ptx -o %t.11.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_11.ptx -o %t.12.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_12.ptx -o %t.13.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_13.ptx -o %t.14.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_14.ptx -o %t.15.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_15.ptx -o %t.16.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_16.ptx -o %t.17.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_17.ptx -o %t.18.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_18.ptx -o %t.19.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_19.ptx -o %t.20.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_20.ptx -o %t.21.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_21.ptx -o %t.22.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_22.ptx -o %t.23.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_23.ptx -o %t.24.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_24.ptx -o %t.25.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_25.ptx -o %t.26.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_26.ptx -o %t.27.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_27.ptx -o %t.28.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_28.ptx -o %t.29.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_29.ptx -o %t.30.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_30.ptx -o %t.31.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_31.ptx -o %t.32.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_32.ptx -o %t.33.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_33.ptx -o %t.34.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_34.ptx -o %t.35.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_35.ptx -o %t.36.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_36.ptx -o %t.37.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_37.ptx -o %t.38.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_38.ptx -o %t.39.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_39.ptx -o %t.40.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_40.ptx -o %t.41.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_41.ptx -o %t.42.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_42.ptx -o %t.43.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_43.ptx -o %t.44.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_44.ptx -o %t.45.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_45.ptx -o %t.46.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_f32out_kernel_46.ptx -o %t.47.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel.ptx -o %t.48.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_47.ptx -o %t.49.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_48.ptx -o %t.50.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_49.ptx -o %t.51.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_50.ptx -o %t.52.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_51.ptx -o %t.53.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_52.ptx -o %t.54.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_53.ptx -o %t.55.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_54.ptx -o %t.56.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_55.ptx -o %t.57.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_56.ptx -o %t.58.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_57.ptx -o %t.59.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_58.ptx -o %t.60.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_59.ptx -o %t.61.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_60.ptx -o %t.62.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_61.ptx -o %t.63.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_62.ptx -o %t.64.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_63.ptx -o %t.65.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_64.ptx -o %t.66.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_65.ptx -o %t.67.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_66.ptx -o %t.68.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_67.ptx -o %t.69.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_68.ptx -o %t.70.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_69.ptx -o %t.71.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_70.ptx -o %t.72.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_71.ptx -o %t.73.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_72.ptx -o %t.74.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_73.ptx -o %t.75.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_74.ptx -o %t.76.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_75.ptx -o %t.77.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_76.ptx -o %t.78.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_77.ptx -o %t.79.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_78.ptx -o %t.80.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_79.ptx -o %t.81.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_80.ptx -o %t.82.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_81.ptx -o %t.83.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_82.ptx -o %t.84.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_83.ptx -o %t.85.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_84.ptx -o %t.86.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_85.ptx -o %t.87.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_86.ptx -o %t.88.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_87.ptx -o %t.89.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_88.ptx -o %t.90.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_89.ptx -o %t.91.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_90.ptx -o %t.92.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_91.ptx -o %t.93.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_92.ptx -o %t.94.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_93.ptx -o %t.95.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_94.ptx -o %t.96.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_95.ptx -o %t.97.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_96.ptx -o %t.98.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_97.ptx -o %t.99.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_98.ptx -o %t.100.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_99.ptx -o %t.101.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_100.ptx -o %t.102.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_101.ptx -o %t.103.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_102.ptx -o %t.104.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_103.ptx -o %t.105.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_104.ptx -o %t.106.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_105.ptx -o %t.107.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_106.ptx -o %t.108.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_107.ptx -o %t.109.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_108.ptx -o %t.110.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_109.ptx -o %t.111.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_110.ptx -o %t.112.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_111.ptx -o %t.113.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_112.ptx -o %t.114.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_113.ptx -o %t.115.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_114.ptx -o %t.116.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_115.ptx -o %t.117.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_116.ptx -o %t.118.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_117.ptx -o %t.119.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_118.ptx -o %t.120.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_119.ptx -o %t.121.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_120.ptx -o %t.122.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_121.ptx -o %t.123.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_f16_kernel_122.ptx -o %t.124.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel.ptx -o %t.125.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_123.ptx -o %t.126.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_124.ptx -o %t.127.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_125.ptx -o %t.128.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_126.ptx -o %t.129.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_127.ptx -o %t.130.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_128.ptx -o %t.131.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_129.ptx -o %t.132.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_130.ptx -o %t.133.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_131.ptx -o %t.134.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_132.ptx -o %t.135.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_133.ptx -o %t.136.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_134.ptx -o %t.137.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_135.ptx -o %t.138.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_136.ptx -o %t.139.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_137.ptx -o %t.140.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_138.ptx -o %t.141.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_139.ptx -o %t.142.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_140.ptx -o %t.143.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_141.ptx -o %t.144.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_142.ptx -o %t.145.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_143.ptx -o %t.146.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_144.ptx -o %t.147.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_145.ptx -o %t.148.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_146.ptx -o %t.149.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_147.ptx -o %t.150.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_148.ptx -o %t.151.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_149.ptx -o %t.152.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_150.ptx -o %t.153.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_151.ptx -o %t.154.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_152.ptx -o %t.155.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_153.ptx -o %t.156.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_154.ptx -o %t.157.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_155.ptx -o %t.158.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_156.ptx -o %t.159.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_157.ptx -o %t.160.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_158.ptx -o %t.161.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_159.ptx -o %t.162.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_160.ptx -o %t.163.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_161.ptx -o %t.164.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_162.ptx -o %t.165.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_163.ptx -o %t.166.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_164.ptx -o %t.167.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_165.ptx -o %t.168.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_166.ptx -o %t.169.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_167.ptx -o %t.170.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_168.ptx -o %t.171.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_169.ptx -o %t.172.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_170.ptx -o %t.173.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_171.ptx -o %t.174.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_172.ptx -o %t.175.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_173.ptx -o %t.176.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_174.ptx -o %t.177.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_175.ptx -o %t.178.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_176.ptx -o %t.179.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_177.ptx -o %t.180.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_178.ptx -o %t.181.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_179.ptx -o %t.182.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_180.ptx -o %t.183.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_181.ptx -o %t.184.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_182.ptx -o %t.185.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_183.ptx -o %t.186.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_184.ptx -o %t.187.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_185.ptx -o %t.188.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_186.ptx -o %t.189.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_187.ptx -o %t.190.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_188.ptx -o %t.191.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_189.ptx -o %t.192.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_190.ptx -o %t.193.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_191.ptx -o %t.194.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_192.ptx -o %t.195.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_193.ptx -o %t.196.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_bf16_kernel_194.ptx -o %t.197.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel.ptx -o %t.198.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_195.ptx -o %t.199.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_196.ptx -o %t.200.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_197.ptx -o %t.201.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_198.ptx -o %t.202.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_199.ptx -o %t.203.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_200.ptx -o %t.204.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_201.ptx -o %t.205.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_202.ptx -o %t.206.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_203.ptx -o %t.207.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_204.ptx -o %t.208.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_205.ptx -o %t.209.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_206.ptx -o %t.210.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_207.ptx -o %t.211.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_208.ptx -o %t.212.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_209.ptx -o %t.213.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_210.ptx -o %t.214.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_211.ptx -o %t.215.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_212.ptx -o %t.216.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_213.ptx -o %t.217.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_214.ptx -o %t.218.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_215.ptx -o %t.219.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_216.ptx -o %t.220.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_217.ptx -o %t.221.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_218.ptx -o %t.222.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_219.ptx -o %t.223.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_220.ptx -o %t.224.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_221.ptx -o %t.225.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_222.ptx -o %t.226.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_223.ptx -o %t.227.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_224.ptx -o %t.228.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_225.ptx -o %t.229.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_226.ptx -o %t.230.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_227.ptx -o %t.231.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_228.ptx -o %t.232.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_acc_f16_kernel_229.ptx -o %t.233.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel.ptx -o %t.234.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_230.ptx -o %t.235.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_231.ptx -o %t.236.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_232.ptx -o %t.237.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_233.ptx -o %t.238.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_234.ptx -o %t.239.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_235.ptx -o %t.240.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_236.ptx -o %t.241.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_237.ptx -o %t.242.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_238.ptx -o %t.243.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_239.ptx -o %t.244.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_240.ptx -o %t.245.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_241.ptx -o %t.246.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_242.ptx -o %t.247.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_243.ptx -o %t.248.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_244.ptx -o %t.249.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_245.ptx -o %t.250.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_246.ptx -o %t.251.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_247.ptx -o %t.252.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_248.ptx -o %t.253.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_249.ptx -o %t.254.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_250.ptx -o %t.255.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_251.ptx -o %t.256.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_252.ptx -o %t.257.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_253.ptx -o %t.258.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_254.ptx -o %t.259.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_255.ptx -o %t.260.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_256.ptx -o %t.261.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_257.ptx -o %t.262.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_258.ptx -o %t.263.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_259.ptx -o %t.264.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_260.ptx -o %t.265.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_261.ptx -o %t.266.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_262.ptx -o %t.267.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_263.ptx -o %t.268.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_bias_relu_f16_kernel_264.ptx -o %t.269.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel.ptx -o %t.270.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_265.ptx -o %t.271.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_266.ptx -o %t.272.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_267.ptx -o %t.273.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_268.ptx -o %t.274.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_269.ptx -o %t.275.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_270.ptx -o %t.276.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_271.ptx -o %t.277.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_272.ptx -o %t.278.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_273.ptx -o %t.279.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_274.ptx -o %t.280.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_275.ptx -o %t.281.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_276.ptx -o %t.282.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_277.ptx -o %t.283.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_278.ptx -o %t.284.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_279.ptx -o %t.285.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_280.ptx -o %t.286.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_281.ptx -o %t.287.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_282.ptx -o %t.288.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_283.ptx -o %t.289.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_284.ptx -o %t.290.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_285.ptx -o %t.291.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_286.ptx -o %t.292.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_287.ptx -o %t.293.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_288.ptx -o %t.294.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_289.ptx -o %t.295.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_290.ptx -o %t.296.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_291.ptx -o %t.297.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_292.ptx -o %t.298.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_293.ptx -o %t.299.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_294.ptx -o %t.300.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_295.ptx -o %t.301.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_296.ptx -o %t.302.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_297.ptx -o %t.303.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_298.ptx -o %t.304.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_colscale_bias_f16_kernel_299.ptx -o %t.305.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel.ptx -o %t.306.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_300.ptx -o %t.307.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_301.ptx -o %t.308.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_302.ptx -o %t.309.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_303.ptx -o %t.310.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_304.ptx -o %t.311.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_305.ptx -o %t.312.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_306.ptx -o %t.313.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_307.ptx -o %t.314.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_308.ptx -o %t.315.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_309.ptx -o %t.316.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_310.ptx -o %t.317.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_311.ptx -o %t.318.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_312.ptx -o %t.319.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_313.ptx -o %t.320.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_314.ptx -o %t.321.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_315.ptx -o %t.322.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_316.ptx -o %t.323.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_317.ptx -o %t.324.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_318.ptx -o %t.325.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_319.ptx -o %t.326.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_320.ptx -o %t.327.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_321.ptx -o %t.328.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_322.ptx -o %t.329.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_323.ptx -o %t.330.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_324.ptx -o %t.331.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_325.ptx -o %t.332.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_326.ptx -o %t.333.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_327.ptx -o %t.334.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_328.ptx -o %t.335.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_329.ptx -o %t.336.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_330.ptx -o %t.337.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_331.ptx -o %t.338.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_332.ptx -o %t.339.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_333.ptx -o %t.340.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_silu_residual_bf16_kernel_334.ptx -o %t.341.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel.ptx -o %t.342.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_335.ptx -o %t.343.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_336.ptx -o %t.344.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_337.ptx -o %t.345.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_338.ptx -o %t.346.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_339.ptx -o %t.347.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_340.ptx -o %t.348.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_341.ptx -o %t.349.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_342.ptx -o %t.350.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_343.ptx -o %t.351.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_344.ptx -o %t.352.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_345.ptx -o %t.353.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_346.ptx -o %t.354.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_347.ptx -o %t.355.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_348.ptx -o %t.356.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e4m3_kernel_349.ptx -o %t.357.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel.ptx -o %t.358.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_350.ptx -o %t.359.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_351.ptx -o %t.360.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_352.ptx -o %t.361.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_353.ptx -o %t.362.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_354.ptx -o %t.363.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_355.ptx -o %t.364.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_block_scaled_e4m3_kernel_356.ptx -o %t.365.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel.ptx -o %t.366.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_357.ptx -o %t.367.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_358.ptx -o %t.368.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_359.ptx -o %t.369.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_360.ptx -o %t.370.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_361.ptx -o %t.371.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_362.ptx -o %t.372.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_363.ptx -o %t.373.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_364.ptx -o %t.374.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_365.ptx -o %t.375.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_366.ptx -o %t.376.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_367.ptx -o %t.377.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_368.ptx -o %t.378.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_369.ptx -o %t.379.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_370.ptx -o %t.380.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_e5m2_kernel_371.ptx -o %t.381.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel.ptx -o %t.382.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_372.ptx -o %t.383.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_373.ptx -o %t.384.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_374.ptx -o %t.385.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_375.ptx -o %t.386.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_376.ptx -o %t.387.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_377.ptx -o %t.388.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_378.ptx -o %t.389.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_379.ptx -o %t.390.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_380.ptx -o %t.391.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_381.ptx -o %t.392.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_382.ptx -o %t.393.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_383.ptx -o %t.394.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_384.ptx -o %t.395.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_385.ptx -o %t.396.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_386.ptx -o %t.397.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_387.ptx -o %t.398.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_388.ptx -o %t.399.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_389.ptx -o %t.400.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_390.ptx -o %t.401.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_391.ptx -o %t.402.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_392.ptx -o %t.403.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_393.ptx -o %t.404.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_394.ptx -o %t.405.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_395.ptx -o %t.406.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_396.ptx -o %t.407.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_397.ptx -o %t.408.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_398.ptx -o %t.409.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_399.ptx -o %t.410.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_400.ptx -o %t.411.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_401.ptx -o %t.412.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_402.ptx -o %t.413.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_403.ptx -o %t.414.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_404.ptx -o %t.415.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_405.ptx -o %t.416.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_406.ptx -o %t.417.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_407.ptx -o %t.418.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_408.ptx -o %t.419.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_409.ptx -o %t.420.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_410.ptx -o %t.421.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_411.ptx -o %t.422.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_412.ptx -o %t.423.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_413.ptx -o %t.424.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_414.ptx -o %t.425.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_415.ptx -o %t.426.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_416.ptx -o %t.427.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_417.ptx -o %t.428.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_418.ptx -o %t.429.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_419.ptx -o %t.430.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_420.ptx -o %t.431.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_421.ptx -o %t.432.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_422.ptx -o %t.433.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_423.ptx -o %t.434.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_424.ptx -o %t.435.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_425.ptx -o %t.436.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_426.ptx -o %t.437.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_427.ptx -o %t.438.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_428.ptx -o %t.439.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_429.ptx -o %t.440.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_430.ptx -o %t.441.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_431.ptx -o %t.442.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_432.ptx -o %t.443.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_433.ptx -o %t.444.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tn_f16_kernel_434.ptx -o %t.445.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel.ptx -o %t.446.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_435.ptx -o %t.447.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_436.ptx -o %t.448.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_437.ptx -o %t.449.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_438.ptx -o %t.450.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_439.ptx -o %t.451.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_440.ptx -o %t.452.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_441.ptx -o %t.453.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_442.ptx -o %t.454.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_443.ptx -o %t.455.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_444.ptx -o %t.456.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_445.ptx -o %t.457.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_446.ptx -o %t.458.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_447.ptx -o %t.459.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_448.ptx -o %t.460.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_449.ptx -o %t.461.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_450.ptx -o %t.462.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_451.ptx -o %t.463.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_452.ptx -o %t.464.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_453.ptx -o %t.465.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_454.ptx -o %t.466.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_455.ptx -o %t.467.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_456.ptx -o %t.468.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_457.ptx -o %t.469.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_458.ptx -o %t.470.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_459.ptx -o %t.471.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_460.ptx -o %t.472.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_461.ptx -o %t.473.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_462.ptx -o %t.474.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_463.ptx -o %t.475.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_464.ptx -o %t.476.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_465.ptx -o %t.477.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_466.ptx -o %t.478.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_467.ptx -o %t.479.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_468.ptx -o %t.480.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_469.ptx -o %t.481.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_470.ptx -o %t.482.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_471.ptx -o %t.483.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_472.ptx -o %t.484.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_473.ptx -o %t.485.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_474.ptx -o %t.486.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_475.ptx -o %t.487.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_476.ptx -o %t.488.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_477.ptx -o %t.489.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_478.ptx -o %t.490.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_479.ptx -o %t.491.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_480.ptx -o %t.492.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_tt_bf16_kernel_481.ptx -o %t.493.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_f16_kernel.ptx -o %t.494.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_f16_kernel_482.ptx -o %t.495.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_acc_nt_f32_kernel.ptx -o %t.496.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_acc_nt_f32_kernel_483.ptx -o %t.497.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_bias_relu_f16_kernel.ptx -o %t.498.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_bias_relu_f16_kernel_484.ptx -o %t.499.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s --check-prefix=F8 < %t.d/linalg_mm_nt_e4m3_kernel.ptx
// RUN: FileCheck %s < %t.d/linalg_mm_f16_kernel_52.ptx
// RUN: FileCheck %s --check-prefix=STORE < %t.d/linalg_mm_f16_kernel_52.ptx
// RUN: FileCheck %s --check-prefix=CLUSTER < %t.d/linalg_mm_f16_kernel_53.ptx
// RUN: FileCheck %s --check-prefix=SMALL < %t.d/linalg_mm_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=PARTIAL < %t.d/linalg_mm_splitk_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=REDUCE < %t.d/linalg_mm_splitk_f16_kernel_482.ptx
// The bias + relu epilogue adds in f32 and leaves the clamp to the
// conversion to f16 (croq-fold-store-relu).
// RUN: FileCheck %s --check-prefix=RELU < %t.d/linalg_mm_bias_relu_f16_kernel.ptx

// RELU-LABEL: .entry linalg_mm_bias_relu_f16_kernel
// RELU-NOT:   max.NaN.f32
// RELU:       cvt.rn.relu.f16x2.f32
// RELU-NOT:   max.NaN.f32

// GEMMs handed to croq as linalg, as a frontend bufferizes them: the
// output zeroed by linalg.fill and then accumulated into by linalg.matmul
// (or accumulated into without the fill), B possibly transposed through
// indexing_maps. convert-linalg-to-croq makes each a croq kernel per
// block tile; croq-pipeline-loops makes its K loop a ring fed by a producer
// warpgroup, and croq-split-accumulators shares 128-row accumulators
// between two consumer warpgroups.
// run_gpu_tests.py checks them against float64 products.

// ptxas does not serialize the wgmma pipeline (C7514/C7517 warnings).
// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}

// Each function with dynamic shapes has a kernel per block tile, the host
// code launching the one its cost model chooses. The K loop is a ring:
// tma loads on mbarriers, wgmma on the tiles (a product whose N may be 1
// has its one-row form's six kernels first). The product's first kernel
// is the 128x256 tile: a persistent block of a producer and two consumer
// warpgroups, each running m64n256 on its 64 rows; the result is stored by
// TMA. The block's first thread prefetches the three tensor maps (A, B and
// the result) before the first copy needs them.
// CHECK: .entry linalg_mm_f16_kernel
// CHECK: .maxntid 384, 1, 1
// CHECK: mov.u32 [[TID:%r[0-9]+]], %tid.x;
// CHECK-NEXT: setp.eq.b32 [[FIRST:%p[0-9]+]], [[TID]], 0;
// CHECK-COUNT-3: @[[FIRST]] prefetch.tensormap [%rd{{[0-9]+}}];
// CHECK-NOT: prefetch.tensormap
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// STORE: cp.async.bulk.tensor.2d.global.shared::cta
// The same tile in clusters of two blocks along M: each block issues half
// of B's boxes, multicast into both blocks; a consumer frees a stage in
// both blocks (mapa and a remote mbarrier arrive); the events are
// initialized for the cluster and no block leaves before the other.
// CLUSTER: .entry linalg_mm_f16_kernel
// CLUSTER: fence.mbarrier_init.release.cluster
// CLUSTER: barrier.cluster.arrive.aligned
// CLUSTER: barrier.cluster.wait.aligned
// CLUSTER: mapa.shared::cluster
// CLUSTER: mbarrier.arrive.shared::cluster.b64
// CLUSTER: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// CLUSTER: barrier.cluster.arrive.aligned
// CLUSTER-NEXT: barrier.cluster.wait.aligned
// Then come the stream-K kernels of the tile (whole waves, ranges,
// reduction), the 128x192 tile alone, in clusters and in stream-K form,
// the padded widths, the 128x128 tile, its
// split form (two kernels), the 64x128 tile and its split form. The 64x128
// tile has one consumer.
// SMALL: .entry linalg_mm_f16_kernel
// SMALL: .maxntid 256, 1, 1
// SMALL: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

// A split K loop: the partial products of a 64x128 tile stored in f32 by
// TMA, and a 128-thread reduction that reads them 16 bytes at a time.
// PARTIAL: .entry linalg_mm_splitk_f16_kernel
// PARTIAL: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PARTIAL: cp.async.bulk.tensor.2d.global.shared::cta
// REDUCE: .entry linalg_mm_splitk_f16_kernel
// REDUCE: .maxntid 128, 1, 1
// REDUCE-COUNT-16: ld.global.v4.b32
// REDUCE: st.global.b16

// The first f8 variant is 128x192 (two f32 accumulators of 64x256 would
// not fit in a consumer's registers): each K step's four k32 mma start
// from zeros (the first's scale-d 0), complete, and are added into the
// f32 sums.
// F8-COUNT-4: wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3
// F8: wgmma.wait_group.sync.aligned 0;
// F8-COUNT-96: add.rn.f32

// C[M, N] = A[M, K] * B[K, N], f32 result.
func.func @linalg_mm_f16_f32out(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// The same with an f16 result.
func.func @linalg_mm_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// B transposed: C = A[M, K] * B[N, K]^T, bf16.
func.func @linalg_mm_nt_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
  return
}

// No fill: C += A * B, the output's elements added in registers.
func.func @linalg_mm_acc_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// A frontend's fused layer: the product in a zeroed f32 temporary, then an
// elementwise linalg.generic (bias over columns, relu, cast to f16). The
// generic runs in the epilogue, in registers; the temporary is gone.
func.func @linalg_mm_bias_relu_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// (A * B) * colscale + bias, f16 bias and f32 scale per column: two
// vectors per column read into registers before the K loop, one of them
// of 16-bit elements.
func.func @linalg_mm_colscale_bias_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %colscale: memref<?xf32>, %bias: memref<?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %colscale, %bias : memref<?x?xf32>, memref<?xf32>, memref<?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %cs: f32, %bv: f16, %o: f16):
    %y = arith.mulf %x, %cs : f32
    %be = arith.extf %bv : f16 to f32
    %s = arith.addf %y, %be : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// silu(A * B^T * scale) + residual, bf16: a scalar (0.125), a row-indexed
// scale and a residual tile as further inputs, math.exp in the body.
func.func @linalg_mm_silu_residual_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %rowscale: memref<?xf32>, %res: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %scale = arith.constant 0.125 : f32
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %n = memref.dim %b, %c0 : memref<?x?xbf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> ()>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %scale, %rowscale, %res : memref<?x?xf32>, f32, memref<?xf32>, memref<?x?xbf16>) outs(%out : memref<?x?xbf16>) {
  ^bb0(%x: f32, %s: f32, %rs: f32, %r: bf16, %o: bf16):
    %y0 = arith.mulf %x, %s : f32
    %y = arith.mulf %y0, %rs : f32
    %ny = arith.negf %y : f32
    %e = math.exp %ny : f32
    %d = arith.addf %one, %e : f32
    %sig = arith.divf %y, %d : f32
    %rf = arith.extf %r : bf16 to f32
    %sum = arith.addf %sig, %rf : f32
    %h = arith.truncf %sum : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// 8-bit floats, B stored N x K, f16 and f32 results.
func.func @linalg_mm_nt_e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>)
  return
}

// A block-scaled e4m3 product (DeepSeek-V3's recipe, as a frontend writes
// the dequantized contraction): A's f32 scales per row and 128 elements of
// K, B's per 128 x 128 block, an f32 result (convert-linalg-to-croq applies
// the scales to each K step's partial sum).
func.func @linalg_block_scaled_e4m3(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %xs: f32, %y: f8E4M3FN, %ys: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xd = arith.mulf %xf, %xs : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %yd = arith.mulf %yf, %ys : f32
    %p = arith.mulf %xd, %yd : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @linalg_mm_nt_e5m2(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>)
  return
}

// A stored K x M (indexed (k, m)): each consumer warpgroup reads its 64
// rows of A M-major (wgmma's transposed A).
func.func @linalg_mm_tn_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// Both transposed: A K x M, B N x K, an f32 result.
func.func @linalg_mm_tt_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}

// Few tiles and a long K, static shapes: the cost model splits the K loop
// (convert-linalg-to-croq-splitk.mlir checks the choices). The partial
// products go through an f32 workspace that a second kernel sums.
func.func @linalg_mm_splitk_f16(%a: memref<256x16384xf16>, %b: memref<16384x256xf16>, %c: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<256x256xf16>)
  linalg.matmul ins(%a, %b : memref<256x16384xf16>, memref<16384x256xf16>) outs(%c : memref<256x256xf16>)
  return
}

// Split, B transposed, accumulating into an f32 output: the reduction adds
// the output's elements.
func.func @linalg_mm_splitk_acc_nt_f32(%a: memref<128x8192xbf16>, %b: memref<512x8192xbf16>, %c: memref<128x512xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<128x8192xbf16>, memref<512x8192xbf16>) outs(%c : memref<128x512xf32>)
  return
}

// Split, with a fused consumer, on sizes that are no multiple of the
// tiles or of the K step: relu(A B + bias[n]) in the reduction.
func.func @linalg_mm_splitk_bias_relu_f16(%a: memref<192x6000xf16>, %b: memref<6000x328xf16>, %bias: memref<328xf32>, %out: memref<192x328xf16>) {
  %tmp = memref.alloc() : memref<192x328xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<192x328xf32>)
  linalg.matmul ins(%a, %b : memref<192x6000xf16>, memref<6000x328xf16>) outs(%tmp : memref<192x328xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<192x328xf32>, memref<328xf32>) outs(%out : memref<192x328xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<192x328xf32>
  return
}
