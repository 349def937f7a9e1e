// RUN: croq-opt %s | FileCheck %s --check-prefixes=CHECK,ERR
// Dead FileCheck directives planted for ../dead-checks.test. Live ones:
// CHECK-LABEL: func.func @f
// ERR: error
// CHECK func.func @f
// CHECK-NEXT return
// CHECK-SAME %arg0
// CHECK-DAG arith.constant
// CHECK-NOT croq.view
// CHECK-LABEL func.func @g
// CHECK-COUNT-2 croq.copy
  // ERR-NEXT error
// CHECK-EMPTY
// CHECKS are not directives, and neither is prose that mentions CHECK-NOT.
func.func @f() {
  return
}
