// REQUIRES: ptxas
// UNSUPPORTED: sanitizers
// (under sanitizers: croq's passes on this input in sanitized-inputs.test)
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_0.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_1.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_2.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_3.ptx -o %t.4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_4.ptx -o %t.5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_5.ptx -o %t.6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_6.ptx -o %t.7.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_7.ptx -o %t.8.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_8.ptx -o %t.9.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_9.ptx -o %t.10.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_10.ptx -o %t.11.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_11.ptx -o %t.12.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_12.ptx -o %t.13.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_13.ptx -o %t.14.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_14.ptx -o %t.15.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_15.ptx -o %t.16.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_16.ptx -o %t.17.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_17.ptx -o %t.18.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_18.ptx -o %t.19.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_19.ptx -o %t.20.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_20.ptx -o %t.21.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_21.ptx -o %t.22.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_22.ptx -o %t.23.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_23.ptx -o %t.24.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_24.ptx -o %t.25.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_25.ptx -o %t.26.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_26.ptx -o %t.27.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_27.ptx -o %t.28.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_28.ptx -o %t.29.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_29.ptx -o %t.30.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_kernel_30.ptx -o %t.31.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel.ptx -o %t.32.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_31.ptx -o %t.33.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_32.ptx -o %t.34.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_33.ptx -o %t.35.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_34.ptx -o %t.36.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_35.ptx -o %t.37.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_36.ptx -o %t.38.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_37.ptx -o %t.39.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_38.ptx -o %t.40.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_39.ptx -o %t.41.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_40.ptx -o %t.42.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_41.ptx -o %t.43.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_42.ptx -o %t.44.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_43.ptx -o %t.45.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_44.ptx -o %t.46.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_45.ptx -o %t.47.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_46.ptx -o %t.48.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_47.ptx -o %t.49.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_48.ptx -o %t.50.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_49.ptx -o %t.51.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_50.ptx -o %t.52.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_51.ptx -o %t.53.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_52.ptx -o %t.54.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_53.ptx -o %t.55.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_54.ptx -o %t.56.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_55.ptx -o %t.57.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_56.ptx -o %t.58.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_57.ptx -o %t.59.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_58.ptx -o %t.60.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_59.ptx -o %t.61.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_60.ptx -o %t.62.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_acc_kernel_61.ptx -o %t.63.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel.ptx -o %t.64.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_62.ptx -o %t.65.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_63.ptx -o %t.66.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_64.ptx -o %t.67.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_65.ptx -o %t.68.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_66.ptx -o %t.69.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_67.ptx -o %t.70.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_68.ptx -o %t.71.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_69.ptx -o %t.72.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_70.ptx -o %t.73.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_71.ptx -o %t.74.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_72.ptx -o %t.75.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_73.ptx -o %t.76.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_74.ptx -o %t.77.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_75.ptx -o %t.78.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_76.ptx -o %t.79.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_77.ptx -o %t.80.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_78.ptx -o %t.81.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_79.ptx -o %t.82.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_80.ptx -o %t.83.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_81.ptx -o %t.84.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_82.ptx -o %t.85.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_83.ptx -o %t.86.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_84.ptx -o %t.87.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_85.ptx -o %t.88.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_86.ptx -o %t.89.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_87.ptx -o %t.90.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_88.ptx -o %t.91.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_89.ptx -o %t.92.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_90.ptx -o %t.93.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_91.ptx -o %t.94.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_92.ptx -o %t.95.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_93.ptx -o %t.96.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_94.ptx -o %t.97.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_95.ptx -o %t.98.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_tf32_bf16out_kernel_96.ptx -o %t.99.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel.ptx -o %t.100.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_97.ptx -o %t.101.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_98.ptx -o %t.102.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_99.ptx -o %t.103.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_100.ptx -o %t.104.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_101.ptx -o %t.105.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_102.ptx -o %t.106.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_103.ptx -o %t.107.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_104.ptx -o %t.108.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_105.ptx -o %t.109.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_106.ptx -o %t.110.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_107.ptx -o %t.111.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_108.ptx -o %t.112.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_109.ptx -o %t.113.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_110.ptx -o %t.114.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_111.ptx -o %t.115.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_112.ptx -o %t.116.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_113.ptx -o %t.117.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_114.ptx -o %t.118.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_115.ptx -o %t.119.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_116.ptx -o %t.120.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_117.ptx -o %t.121.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_118.ptx -o %t.122.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_119.ptx -o %t.123.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_120.ptx -o %t.124.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_121.ptx -o %t.125.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_122.ptx -o %t.126.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_123.ptx -o %t.127.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_124.ptx -o %t.128.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_125.ptx -o %t.129.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_126.ptx -o %t.130.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_kernel_127.ptx -o %t.131.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel.ptx -o %t.132.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_128.ptx -o %t.133.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_129.ptx -o %t.134.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_130.ptx -o %t.135.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_131.ptx -o %t.136.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_132.ptx -o %t.137.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_133.ptx -o %t.138.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_134.ptx -o %t.139.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_135.ptx -o %t.140.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_136.ptx -o %t.141.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_137.ptx -o %t.142.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_138.ptx -o %t.143.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_139.ptx -o %t.144.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_140.ptx -o %t.145.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_141.ptx -o %t.146.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_142.ptx -o %t.147.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_143.ptx -o %t.148.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_144.ptx -o %t.149.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_145.ptx -o %t.150.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_146.ptx -o %t.151.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_147.ptx -o %t.152.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_148.ptx -o %t.153.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_149.ptx -o %t.154.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_150.ptx -o %t.155.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_151.ptx -o %t.156.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_152.ptx -o %t.157.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_153.ptx -o %t.158.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_154.ptx -o %t.159.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_155.ptx -o %t.160.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_156.ptx -o %t.161.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_157.ptx -o %t.162.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_acc_kernel_158.ptx -o %t.163.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel.ptx -o %t.164.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_159.ptx -o %t.165.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_160.ptx -o %t.166.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_161.ptx -o %t.167.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_162.ptx -o %t.168.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_163.ptx -o %t.169.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_164.ptx -o %t.170.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_165.ptx -o %t.171.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_166.ptx -o %t.172.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_167.ptx -o %t.173.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_168.ptx -o %t.174.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_169.ptx -o %t.175.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_170.ptx -o %t.176.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_171.ptx -o %t.177.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_172.ptx -o %t.178.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_173.ptx -o %t.179.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_174.ptx -o %t.180.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_175.ptx -o %t.181.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_176.ptx -o %t.182.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_177.ptx -o %t.183.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_178.ptx -o %t.184.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_179.ptx -o %t.185.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_180.ptx -o %t.186.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_181.ptx -o %t.187.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_182.ptx -o %t.188.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_183.ptx -o %t.189.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_184.ptx -o %t.190.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_185.ptx -o %t.191.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_186.ptx -o %t.192.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_187.ptx -o %t.193.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_188.ptx -o %t.194.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_nt_s8_bias_relu_kernel_189.ptx -o %t.195.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_nt_s8_kernel.ptx -o %t.196.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_nt_s8_kernel_190.ptx -o %t.197.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_nt_tf32_kernel.ptx -o %t.198.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_mm_splitk_nt_tf32_kernel_191.ptx -o %t.199.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s

// GEMMs of f32 operands multiplied as tf32 (f32 accumulation, like
// torch.matmul with TF32 allowed) and of i8 operands into i32 (s8 wgmma,
// exact, like torch._int_mm), handed to croq as linalg with B stored N x K
// (indexed (n, k)): wgmma reads tf32 and s8 operands K-major only. A K
// step is one 128-byte swizzle span of each operand row: 32 f32 or 128 i8
// elements, four wgmma instructions of K = 8 or 32 per 64 rows.
// linalg_tf32_s8_tests.py checks them against float64 products.

// ptxas does not serialize the wgmma pipeline (C7514/C7517 warnings).
// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}

// CHECK: .entry linalg_mm_nt_tf32_kernel
// CHECK: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k8.f32.tf32.tf32
// CHECK: .entry linalg_mm_nt_s8_kernel
// CHECK: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.s32.s8.s8
// The split i8 product: partials of the 64x128 tile stored in i32 by TMA,
// summed exactly (add.s32) from 16-byte reads, added to the i32 output.
// CHECK: .entry linalg_mm_splitk_nt_s8_kernel
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK: .entry linalg_mm_splitk_nt_s8_kernel
// CHECK: ld.global.v4.b32
// CHECK: add.s32
// CHECK: st.global.b32
// CHECK: .entry linalg_mm_splitk_nt_tf32_kernel
// CHECK: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32

// C[M, N] = A[M, K] B[N, K]^T with f32 operands, multiplied as tf32 (f32
// accumulation), like torch.matmul with TF32 allowed.
func.func @linalg_mm_nt_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// The same accumulating into the f32 output.
func.func @linalg_mm_nt_tf32_acc(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// f32 operands, a bf16 result.
func.func @linalg_mm_nt_tf32_bf16out(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xbf16>)
  return
}

// C[M, N] = A[M, K] B[N, K]^T with i8 operands into i32 (s8 wgmma, i32
// accumulation, exact), like torch._int_mm.
func.func @linalg_mm_nt_s8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<?x?xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// The same accumulating into the i32 output.
func.func @linalg_mm_nt_s8_acc(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// An i32 consumer in the epilogue: max(A B^T + bias[n], 0).
func.func @linalg_mm_nt_s8_bias_relu(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %bias: memref<?xi32>, %out: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi8>
  %n = memref.dim %b, %c0 : memref<?x?xi8>
  %tmp = memref.alloc(%m, %n) : memref<?x?xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%tmp : memref<?x?xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%tmp : memref<?x?xi32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<?x?xi32>, memref<?xi32>) outs(%out : memref<?x?xi32>) {
  ^bb0(%x: i32, %bv: i32, %o: i32):
    %s = arith.addi %x, %bv : i32
    %r = arith.maxsi %s, %zero : i32
    linalg.yield %r : i32
  }
  memref.dealloc %tmp : memref<?x?xi32>
  return
}

// Few tiles and a long K, static shapes: the K loop split, the partials
// summed through an i32 (s8) or f32 (tf32) workspace; the s8 one
// accumulates into its output.
func.func @linalg_mm_splitk_nt_s8(%a: memref<256x16384xi8>, %b: memref<256x16384xi8>, %c: memref<256x256xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x16384xi8>, memref<256x16384xi8>) outs(%c : memref<256x256xi32>)
  return
}

func.func @linalg_mm_splitk_nt_tf32(%a: memref<256x8192xf32>, %b: memref<256x8192xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<256x8192xf32>, memref<256x8192xf32>) outs(%c : memref<256x256xf32>)
  return
}
