// Round-trip fixture for ../ods-examples.test.
// croq.wait %g appears only in this comment, which does not count.
func.func @f(%f: !croq.future, %e: !croq.events<4>) {
  croq.wait %f
  return
}
